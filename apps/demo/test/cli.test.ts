import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prometheusSample } from '@colapi/test-fixtures/testing';
import { startDemo } from '../src/demo-app.js';

const APP = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Run {
  readonly child: ChildProcess;
  stdout: string;
  stderr: string;
  readonly exited: Promise<number | null>;
}

/** Runs `pnpm demo` the way the root script does: the source, through tsx. */
function run(args: string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', 'src/main.ts', ...args], {
    cwd: APP,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const result: Run = {
    child,
    stdout: '',
    stderr: '',
    exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
  };
  child.stdout!.on('data', (d) => (result.stdout += String(d)));
  child.stderr!.on('data', (d) => (result.stderr += String(d)));
  return result;
}

/** Process ids whose parent is `pid` (Linux's /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return (
          readFileSync(`/proc/${d}/stat`, 'utf8')
            .replace(/^.*\) /, '')
            .split(' ')[1] === String(pid)
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(r: Run, pattern: RegExp, ms = 30_000): Promise<RegExpMatchArray> {
  const deadline = Date.now() + ms;
  for (;;) {
    const m = pattern.exec(r.stdout);
    if (m) return m;
    if (Date.now() > deadline || r.child.exitCode !== null)
      throw new Error(`no ${pattern} in output:\n${r.stdout}\n${r.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('pnpm demo (the command)', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'colapi-demo-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('--help lists the variables and exits 0', async () => {
    const r = run(['--help']);
    expect(await r.exited).to.equal(0);
    for (const name of ['DATABASE_URL', 'PORT', 'API_FORMAT', 'postgres://', 'mysql://', 'sqlite:'])
      expect(r.stdout).to.contain(name);
  });

  it('tells in one line, exit code 1 and no stack, that the database cannot be reached', async () => {
    const r = run([], { DATABASE_URL: 'postgres://someone:secret@127.0.0.1:1/nowhere', PORT: '0' });
    expect(await r.exited).to.equal(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(
      /^demo: cannot reach the database at postgres:\/\/someone:\*\*\*@127\.0\.0\.1:1\/nowhere: .*ECONNREFUSED/,
    );
    expect(r.stderr).not.to.contain('secret');
  });

  it('refuses a bad PORT or API_FORMAT with exit code 2', async () => {
    const port = run([], { PORT: 'eighty' });
    expect(await port.exited).to.equal(2);
    expect(port.stderr.trim()).to.equal('demo: PORT must be a number from 0 to 65535; got "eighty"');
    const format = run(['--format', 'xml']);
    expect(await format.exited).to.equal(2);
    expect(format.stderr).to.match(/^demo: API_FORMAT must be one of jsonapi.*; got "xml"\n$/);
    const workers = run(['--workers', '0']);
    expect(await workers.exited).to.equal(2);
    expect(workers.stderr.trim()).to.equal('demo: WORKERS must be a whole number from 1 to 64; got "0"');
  });

  it('--workers 2 seeds once, serves one port from two worker processes, and SIGTERM stops them all', async () => {
    const r = run(['--workers', '2'], { DATABASE_URL: `sqlite:${join(dir, 'cluster.sqlite')}`, PORT: '0' });
    const [, origin] = await waitFor(r, /Browse\s+(http:\/\/127\.0\.0\.1:\d+)\//);
    expect(r.stdout).to.contain('2 workers');
    expect(r.stdout.match(/seeded the sample bookshop/g)).to.have.lengthOf(1);
    const workers = childrenOf(r.child.pid!);
    expect(workers).to.have.lengthOf(2);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${origin}/api/books?page[size]=1`, { headers: { accept: 'application/vnd.api+json' } }),
      ),
    );
    expect(answers.map((a) => a.status)).to.deep.equal(Array(20).fill(200));
    // A cursor one worker signed is read by whichever answers next: the workers share the primary's key.
    const profile = {
      accept: 'application/vnd.api+json; profile="https://jsonapi.org/profiles/ethanresnick/cursor-pagination"',
    };
    const first = (await (await fetch(`${origin}/api/books?page[size]=1`, { headers: profile })).json()) as {
      links: { next: string };
    };
    const nexts = await Promise.all(Array.from({ length: 10 }, () => fetch(first.links.next, { headers: profile })));
    expect(nexts.map((a) => a.status)).to.deep.equal(Array(10).fill(200));
    r.child.kill('SIGTERM');
    expect(await r.exited).to.equal(0);
    expect(workers.filter(alive)).to.deep.equal([]);
  });

  it('--admin-port in one process: /ready 200 naming its checks, 503 at once on SIGTERM while the API still serves', async function () {
    // Starting under tsx takes long on a loaded machine, two workers longer.
    this.timeout(150_000);
    const r = run(['--admin-port', '0', '--grace', '2'], {
      DATABASE_URL: `sqlite:${join(dir, 'admin-one.sqlite')}`,
      PORT: '0',
    });
    const [, admin] = await waitFor(r, /Admin\s+(http:\/\/127\.0\.0\.1:\d+)\/live/, 90_000);
    const [, origin] = await waitFor(r, /Browse\s+(http:\/\/127\.0\.0\.1:\d+)\//);
    const ready = await fetch(`${admin}/ready`);
    expect(ready.status).to.equal(200);
    expect(await ready.json()).to.deep.equal({
      ready: true,
      checks: { catalogue: 'ok', primary: 'ok', draining: 'ok' },
      failed: [],
    });
    const signalled = Date.now();
    r.child.kill('SIGTERM');
    let draining: Response;
    do draining = await fetch(`${admin}/ready`);
    while (draining.status === 200 && Date.now() - signalled < 1000);
    expect(draining.status).to.equal(503);
    expect(((await draining.json()) as { failed: string[] }).failed).to.deep.equal(['draining']);
    expect((await fetch(`${origin}/api/books?page[size]=1`)).status).to.equal(200);
    expect(await r.exited).to.equal(0);
    expect(Date.now() - signalled).to.be.at.least(2000);
  });

  it('--workers 2 --admin-port: /ready waits for both workers, /metrics sums their figures, SIGTERM drains', async function () {
    // Starting under tsx takes long on a loaded machine, two workers longer.
    this.timeout(150_000);
    const r = run(['--workers', '2', '--admin-port', '0', '--grace', '2'], {
      DATABASE_URL: `sqlite:${join(dir, 'admin.sqlite')}`,
      PORT: '0',
    });
    const [, admin] = await waitFor(r, /Admin\s+(http:\/\/127\.0\.0\.1:\d+)\/live/, 90_000);
    const [, origin] = await waitFor(r, /Browse\s+(http:\/\/127\.0\.0\.1:\d+)\//);
    const ready = await fetch(`${admin}/ready`);
    expect(ready.status).to.equal(200);
    const body = (await ready.json()) as { checks: Record<string, string>; workers: { ready: boolean; pid: number }[] };
    expect(body.checks).to.deep.equal({ workers: 'ok', draining: 'ok' });
    expect(body.workers.map((w) => w.ready)).to.deep.equal([true, true]);
    expect(body.workers.map((w) => w.pid).sort()).to.deep.equal(childrenOf(r.child.pid!).sort());
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${origin}/api/books?page[size]=1`, { headers: { accept: 'application/vnd.api+json' } }),
      ),
    );
    expect(answers.map((a) => a.status)).to.deep.equal(Array(20).fill(200));
    const text = await (await fetch(`${admin}/metrics`)).text();
    // Summed over the workers, whichever of them served each request.
    expect(
      prometheusSample(text, 'colapi_http_request_duration_seconds_count', {
        collection: 'books',
        operation: 'list',
        method: 'GET',
        status_class: '2xx',
      }),
    ).to.equal(20);
    expect(prometheusSample(text, 'colapi_http_requests_in_flight')).to.equal(0);
    expect(prometheusSample(text, 'process_cpu_user_seconds_total')).to.be.a('number');
    const signalled = Date.now();
    r.child.kill('SIGTERM');
    let draining: Response;
    do draining = await fetch(`${admin}/ready`);
    while (draining.status === 200 && Date.now() - signalled < 1000);
    expect(draining.status).to.equal(503);
    // The workers still serve through the grace period.
    expect((await fetch(`${origin}/api/books?page[size]=1`)).status).to.equal(200);
    expect(await r.exited).to.equal(0);
    expect(Date.now() - signalled).to.be.at.least(2000);
  });

  // Node 24's node::ObjectWrap removes a cleanup hook in its destructor, looking the environment up through
  // the isolate's current context; better-sqlite3 12 finalised statements from GC through it and aborted
  // the first start (seeding makes hundreds of statements garbage). This start runs on whatever Node the
  // suite runs on, and .ci/run runs it on 24 and 22.
  it('first start on a new SQLite file: seeds, serves many distinct statements, and the runtime never aborts', async () => {
    const r = run([], { DATABASE_URL: `sqlite:${join(dir, 'first-start.sqlite')}`, PORT: '0' });
    const [, origin] = await waitFor(r, /Browse\s+(http:\/\/127\.0\.0\.1:\d+)\//);
    expect(r.stdout).to.match(/"rows":\d+,"msg":"seeded the sample bookshop"/);
    // Distinct statement texts (the length of an `in` list, the number of terms), more than a connection
    // caches (500), so that statements become garbage while it serves.
    const filter = (k: number) => [
      { name: 'id', op: 'in', val: Array.from({ length: 1 + (k % 50) }, (_, n) => n + 1) },
      ...Array(1 + Math.floor(k / 50)).fill({ name: 'pages', op: '>=', val: 1 }),
    ];
    for (let i = 0; i < 600; i += 20) {
      const batch = Array.from({ length: 20 }, (_, j) =>
        fetch(`${origin}/api/books?filter[objects]=${encodeURIComponent(JSON.stringify(filter(i + j)))}`, {
          headers: { accept: 'application/vnd.api+json' },
        }).then((a) => a.status),
      );
      expect(await Promise.all(batch)).to.deep.equal(Array(20).fill(200));
    }
    r.child.kill('SIGTERM');
    expect(await r.exited).to.equal(0);
    expect(r.stderr).not.to.match(/Assertion failed|Native stack trace/);
  });

  it('prints the URL to open, serves it, and stops on SIGTERM with exit code 0', async () => {
    const r = run([], { DATABASE_URL: `sqlite:${join(dir, 'cli.sqlite')}`, PORT: '0' });
    const [, origin] = await waitFor(r, /Browse\s+(http:\/\/127\.0\.0\.1:\d+)\//);
    const page = await fetch(`${origin}/`);
    expect(page.status).to.equal(200);
    r.child.kill('SIGTERM');
    expect(await r.exited).to.equal(0);
    expect(r.stdout).to.contain('"msg":"stopped"');
  });
});

describe('graceful shutdown', () => {
  it('lets a request in flight finish, refuses new connections, then closes the pool', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'colapi-demo-stop-'));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    const demo = await startDemo({
      databaseUrl: `sqlite:${join(dir, 'stop.sqlite')}`,
      // Holds one request between its arrival and the API, as a slow query would.
      before: [
        async (ctx, next) => {
          if (ctx.get('x-hold') === 'yes') {
            arrived();
            await held;
          }
          await next();
        },
      ],
    });
    try {
      const slow = fetch(`${demo.origin}/api/books?page[size]=1`, {
        headers: { accept: 'application/vnd.api+json', 'x-hold': 'yes' },
      });
      await inFlight;
      const closing = demo.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      // New connections are refused while the old request is still running.
      const refused = await fetch(`${demo.origin}/`).then(
        () => false,
        () => true,
      );
      expect(refused).to.equal(true);
      release();
      const released = performance.now();
      const response = await slow;
      expect(response.status).to.equal(200);
      expect(((await response.json()) as { meta: { total: number } }).meta.total).to.equal(160);
      await closing;
      // Its keep-alive connection must not hold the stop until the idle timeout (5 s).
      expect(performance.now() - released).to.be.below(1500);
      // The pool is gone: knex refuses queries after destroy.
      const afterClose = await demo.database.knex.raw('select 1').then(
        () => 'ran',
        (e: Error) => e.message,
      );
      expect(afterClose).not.to.equal('ran');
    } finally {
      release();
      await demo.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
