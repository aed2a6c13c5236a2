import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { benchAuthorization } from './access-rules.js';
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
 *
 * An instruction is not a cycle: a change that allocates fresh memory per request can count fewer and cost
 * more. `--cache` also simulates the caches and the branch predictor (callgrind's `--cache-sim` and
 * `--branch-sim`, about twice as slow) and prints KCachegrind's cycle estimate beside the count:
 * Ir + 10 × (L1 misses + mispredicted branches) + 100 × last-level misses.
 *
 * `--access` counts this checkout under the access variant's rules and token (access-rules.ts) against the
 * same checkout without access control, as `pnpm bench --access` times them: the server's own share of
 * what a rule costs, apart from the database's.
 */

interface Options {
  readonly against?: string;
  readonly access: boolean;
  readonly only: readonly string[];
  readonly from: number;
  readonly to: number;
  readonly cache: boolean;
}

/** What one run of callgrind counted: instructions, and with the cache simulation an estimate of cycles. */
interface Count {
  readonly instructions: number;
  readonly cycles?: number;
}

const USAGE =
  'pnpm bench:instructions [--against <checkout> | --access] [--only name,name] [--from n] [--to n] [--cache]';
const log = (line: string) => process.stderr.write(`${line}\n`);

function parse(argv: readonly string[]): Options {
  const o = {
    against: undefined as string | undefined,
    access: false,
    only: [] as string[],
    from: 3000,
    to: 8000,
    cache: false,
  };
  eachArgument(argv, USAGE, (a, value) => {
    if (a === '--against') o.against = resolve(value());
    else if (a === '--access') o.access = true;
    else if (a === '--only') o.only = value().split(',').filter(Boolean);
    else if (a === '--from') o.from = Number(value());
    else if (a === '--to') o.to = Number(value());
    else if (a === '--cache') o.cache = true;
    else throw new Error(`unknown argument ${a}\n${USAGE}`);
  });
  if (!(Number.isInteger(o.from) && o.from >= 100 && Number.isInteger(o.to) && o.to > o.from))
    throw new Error(`--from is a whole number of at least 100 and --to a larger one\n${USAGE}`);
  if (o.access && o.against !== undefined) throw new Error(`--access compares this checkout with itself\n${USAGE}`);
  return o;
}

/** One server counted: a checkout, and the access variant's token and rules when `authorization` is set. */
interface Counted {
  readonly root: string;
  readonly authorization?: string;
}

/** The totals of one callgrind run of the target of `counted` that answered `n` requests of `s`. */
async function countRun(counted: Counted, url: string, s: Scenario, n: number, cache: boolean): Promise<Count> {
  const { root, authorization } = counted;
  const dir = mkdtempSync(join(tmpdir(), 'colapi-callgrind-'));
  const out = join(dir, 'callgrind.out');
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${out}`,
      ...(cache ? ['--cache-sim=yes', '--branch-sim=yes'] : []),
      process.execPath,
      join(root, 'bench/dist/target/serve.js'),
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: url,
        PORT: String(TARGET_PORT),
        API_FORMAT: 'jsonapi',
        POOL_SIZE: '4',
        ...(authorization ? { BENCH_ACCESS: '1' } : {}),
      },
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
      headers: authorization ? { ...headersOf(s), authorization } : headersOf(s),
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
    return totalsOf(existsSync(out) ? readFileSync(out, 'utf8') : '', s.name);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The totals of a callgrind output file, by its `events:` line. */
function totalsOf(text: string, scenario: string): Count {
  const events = /^events:\s+(.+)$/m.exec(text)?.[1]?.trim().split(/\s+/);
  const summary = /^(?:summary|totals):\s+(.+)$/m.exec(text)?.[1]?.trim().split(/\s+/).map(Number);
  if (!events || !summary) throw new Error(`callgrind wrote no total for ${scenario}`);
  const total = (name: string) => summary[events.indexOf(name)] ?? 0;
  const instructions = total('Ir');
  if (!events.includes('D1mr')) return { instructions };
  const l1 = total('I1mr') + total('D1mr') + total('D1mw');
  const last = total('ILmr') + total('DLmr') + total('DLmw');
  const branches = total('Bcm') + total('Bim');
  return { instructions, cycles: instructions + 10 * (l1 + branches) + 100 * last };
}

async function main(): Promise<void> {
  const o = parse(process.argv.slice(2));
  const url = await benchDatabase('postgres', 'colapi_bench');
  await seedBenchData(url, 1, log);
  const counted: Counted[] = o.access
    ? [{ root: ROOT, authorization: await benchAuthorization() }, { root: ROOT }]
    : [ROOT, ...(o.against ? [o.against] : [])].map((root) => ({ root }));
  // Reads only: a write's count would grow with the rows it leaves behind.
  const scenarios = selectScenarios(o.only).filter((s) => s.method === 'GET' && !s.conditional);
  log(`instructions per request, requests ${o.from + 1}-${o.to} of each scenario (valgrind --tool=callgrind)`);
  for (const { root, authorization } of counted)
    log(`  ${root}: ${gitState(root).commit}${authorization ? ', access variant' : ''}`);
  if (o.cache) log('  each with estimated cycles: Ir + 10 × (L1 misses + mispredicted branches) + 100 × LL misses');
  for (const s of scenarios) {
    const per: Count[] = [];
    for (const c of counted) {
      const low = await countRun(c, url, s, o.from, o.cache);
      const high = await countRun(c, url, s, o.to, o.cache);
      per.push(perRequest(low, high, o.to - o.from));
    }
    console.log(`${s.name.padEnd(12)} ${column(per, 'instructions')}`);
    if (o.cache) console.log(`${'  cycles'.padEnd(12)} ${column(per, 'cycles')}`);
  }
}

/** What one request past the warm-up costs: the difference of two runs over the requests between them. */
function perRequest(low: Count, high: Count, requests: number): Count {
  const per = (a: number, b: number) => Math.round((b - a) / requests);
  const cycles = low.cycles === undefined || high.cycles === undefined ? undefined : per(low.cycles, high.cycles);
  return { instructions: per(low.instructions, high.instructions), cycles };
}

/** One measure of each checkout, and their ratio when there are two. */
function column(per: readonly Count[], key: keyof Count): string {
  const values = per.map((c) => c[key] ?? 0);
  const ratio = values.length === 2 ? `  ×${(values[0]! / values[1]!).toFixed(3)}` : '';
  return `${values.map((v) => v.toLocaleString('en').padStart(12)).join(' ')}${ratio}`;
}

main().catch((error: unknown) => {
  log(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
