import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eachArgument } from './arguments.js';
import { benchDatabase } from './database.js';
import { seedBenchData } from './seed.js';
import { headersOf, selectScenarios, type Scenario } from './scenarios.js';
import { ROOT, TARGET_PORT } from './servers.js';
import { gitState } from './topology.js';

/**
 * `pnpm bench:instructions`: the instructions the target executes per request, counted by valgrind's
 * callgrind, for the read scenarios of PostgreSQL, in this checkout and (`--against <checkout>`) another
 * one. A count does not move with what else the machine runs, where a throughput or a CPU time on a shared
 * machine moves by ±15 % between runs of the same build: it tells a change of a few per cent apart.
 *
 * Each server starts under callgrind and answers `from` requests, another one `to` requests; the difference
 * of the two totals over `to - from` is the cost of one request past the warm-up (start-up, loading and the
 * first compilations cancel out). It counts every thread of the process (the garbage collector's and the
 * compiler's too), not the kernel's work, and not the database's. Under valgrind a CPU feature that
 * callgrind does not emulate is hidden (SHA-1 runs OpenSSL's AVX2 code, not the SHA extensions): a digest
 * counts more instructions than it takes on the machine.
 */

interface Options {
  readonly against?: string;
  readonly only: readonly string[];
  readonly from: number;
  readonly to: number;
}

const USAGE = 'pnpm bench:instructions [--against <checkout>] [--only name,name] [--from n] [--to n]';
const log = (line: string) => process.stderr.write(`${line}\n`);

function parse(argv: readonly string[]): Options {
  const o = { against: undefined as string | undefined, only: [] as string[], from: 3000, to: 8000 };
  eachArgument(argv, USAGE, (a, value) => {
    if (a === '--against') o.against = resolve(value());
    else if (a === '--only') o.only = value().split(',').filter(Boolean);
    else if (a === '--from') o.from = Number(value());
    else if (a === '--to') o.to = Number(value());
    else throw new Error(`unknown argument ${a}\n${USAGE}`);
  });
  if (!(Number.isInteger(o.from) && o.from >= 100 && Number.isInteger(o.to) && o.to > o.from))
    throw new Error(`--from is a whole number of at least 100 and --to a larger one\n${USAGE}`);
  return o;
}

/** Total instructions (Ir) of one callgrind run of the target of `root` that answered `n` requests of `s`. */
async function countRun(root: string, url: string, s: Scenario, n: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'colapi-callgrind-'));
  const out = join(dir, 'callgrind.out');
  const child = spawn(
    'valgrind',
    ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, join(root, 'bench/dist/target/serve.js')],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url, PORT: String(TARGET_PORT), API_FORMAT: 'jsonapi', POOL_SIZE: '4' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  try {
    await new Promise<void>((ready, fail) => {
      let text = '';
      const timer = setTimeout(() => fail(new Error(`the target did not start under valgrind:\n${text}`)), 180_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes(`listening on http://127.0.0.1:${TARGET_PORT}`)) {
          clearTimeout(timer);
          ready();
        }
      });
      child.stderr!.on('data', () => undefined);
      child.once('exit', () => fail(new Error(`the target exited under valgrind:\n${text}`)));
    });
    let i = 0;
    const result = await autocannon({
      url: `http://127.0.0.1:${TARGET_PORT}`,
      connections: 4,
      amount: n,
      timeout: 120,
      headers: headersOf(s),
      requests: [
        {
          method: s.method,
          setupRequest: (req: autocannon.Request) => {
            const r = s.request(i++, 0);
            req.path = r.path;
            return req;
          },
        },
      ],
    });
    const failed = result.non2xx + result.errors + result.timeouts;
    if (failed > 0) throw new Error(`${s.name}: ${failed} of ${n} requests failed under valgrind`);
    // SIGINT: the target closes and exits, and callgrind writes its counts on the way out.
    child.kill('SIGINT');
    await exited;
    const summary = /^(?:summary|totals):\s+(\d+)/m.exec(existsSync(out) ? readFileSync(out, 'utf8') : '');
    if (!summary) throw new Error(`callgrind wrote no total for ${s.name}`);
    return Number(summary[1]);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const o = parse(process.argv.slice(2));
  const url = await benchDatabase('postgres', 'colapi_bench');
  await seedBenchData(url, 1, log);
  const roots = [ROOT, ...(o.against ? [o.against] : [])];
  // Reads only: a write's count would grow with the rows it leaves behind.
  const scenarios = selectScenarios(o.only).filter((s) => s.method === 'GET' && !s.conditional);
  log(`instructions per request, requests ${o.from + 1}-${o.to} of each scenario (valgrind --tool=callgrind)`);
  for (const root of roots) log(`  ${root}: ${gitState(root).commit}`);
  for (const s of scenarios) {
    const per: number[] = [];
    for (const root of roots) {
      const low = await countRun(root, url, s, o.from);
      const high = await countRun(root, url, s, o.to);
      per.push(Math.round((high - low) / (o.to - o.from)));
    }
    const ratio = per.length === 2 ? `  ×${(per[0]! / per[1]!).toFixed(3)}` : '';
    console.log(`${s.name.padEnd(12)} ${per.map((p) => p.toLocaleString('en').padStart(12)).join(' ')}${ratio}`);
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
