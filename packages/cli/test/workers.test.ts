import { connect, disconnect } from '@colapi/sql-compiler';
import {
  createLibrary,
  prometheusSample,
  testDatabaseOrSkip,
  testedKinds,
  type TestDatabase,
} from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { colapi, freePort, line, stop, type Run } from './colapi-process.js';
import { slowCreate } from './slow-create.js';

const JSONAPI = 'application/vnd.api+json';

interface WorkerReport {
  readonly ready: boolean;
  readonly pid: number;
}

interface ReadyBody {
  readonly ready: boolean;
  readonly checks: Record<string, string>;
  readonly failed: string[];
  readonly workers: WorkerReport[];
}

/** A GET on a connection of its own, so that the primary may hand it to any worker. */
function getApart(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { accept: JSONAPI, connection: 'close' } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += String(d)));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Polls /ready until its status is `status`, for `ms` at most; answers the last body. */
async function readyUntil(admin: string, status: number, ms: number): Promise<{ status: number; body: ReadyBody }> {
  const deadline = performance.now() + ms;
  for (;;) {
    const r = await fetch(`${admin}/ready`);
    const body = (await r.json()) as ReadyBody;
    if (r.status === status || performance.now() > deadline) return { status: r.status, body };
    await sleep(50);
  }
}

/** Each worker's count of requests answered, by its process id, from the primary's summed metrics. */
function byWorker(text: string, pids: readonly number[]): number[] {
  return pids.map((pid) => prometheusSample(text, 'colapi_worker_requests_total', { worker: String(pid) }) ?? 0);
}

describe('colapi serve --workers 2: one port, one admin listener answering for every worker', function () {
  // Starting two workers under tsx takes long on a loaded machine.
  this.timeout(180_000);

  for (const kind of testedKinds()) {
    describe(`on ${kind}`, () => {
      let db: TestDatabase | undefined;
      let run: Run | undefined;
      let dir: string;
      let origin: string;
      let admin: string;
      let pids: number[];
      const grace = 3;
      const metrics = async () => (await fetch(`${admin}/metrics`)).text();

      before(async function () {
        db = await testDatabaseOrSkip(this, kind, 'colapi_wk_');
        const sql = connect(db!.url, { pool: { min: 0, max: 1 } });
        try {
          await createLibrary(sql.knex, kind);
        } finally {
          await disconnect(sql);
        }
        // Tags paged by cursor, with no cursor key configured: the workers must share the primary's.
        dir = mkdtempSync(join(tmpdir(), 'colapi-workers-'));
        const config = join(dir, 'colapi.config.json');
        writeFileSync(config, JSON.stringify({ tables: { tag: { collections: [{ paging: 'cursor' }] } } }));
        run = colapi(['serve', db!.url, '--port', '0', '--admin-port', String(await freePort()), '--config', config], {
          COLAPI_WORKERS: '2',
          COLAPI_GRACE: String(grace),
        });
        origin = (await line(run, /^listening on (\S+)$/, 1, 150_000))[1]!;
        admin = (await line(run, /^admin on (\S+) /))[1]!;
      });

      after(async () => {
        await stop(run);
        await db?.drop();
        if (dir) rmSync(dir, { recursive: true, force: true });
      });

      it('tells the start once, and /ready is 200 only with both workers ready, each named', async () => {
        expect(run!.stderr.match(/^colapi: serving .*, 2 workers$/gm)).to.have.lengthOf(1);
        expect(run!.stdout.match(/^listening on /gm)).to.have.lengthOf(1);
        const ready = await fetch(`${admin}/ready`);
        expect(ready.status).to.equal(200);
        const body = (await ready.json()) as ReadyBody;
        expect(body.checks).to.deep.equal({ workers: 'ok', draining: 'ok' });
        expect(body.workers.map((w) => w.ready)).to.deep.equal([true, true]);
        pids = body.workers.map((w) => w.pid);
        expect(new Set(pids).size).to.equal(2);
        expect(pids).not.to.include(run!.child.pid);
      });

      it('answers from both workers, and /metrics sums their request counts', async () => {
        const before = await metrics();
        const count = (text: string) =>
          prometheusSample(text, 'colapi_http_request_duration_seconds_count', {
            collection: 'tag',
            operation: 'list',
            method: 'GET',
            status_class: '2xx',
          }) ?? 0;
        const k = 40;
        const answers = await Promise.all(Array.from({ length: k }, () => getApart(`${origin}/api/tag`)));
        expect(answers.map((a) => a.status)).to.deep.equal(Array(k).fill(200));
        const after = await metrics();
        expect(count(after) - count(before)).to.equal(k);
        const served = byWorker(after, pids).map((n, i) => n - byWorker(before, pids)[i]!);
        expect(served[0]! + served[1]!).to.equal(k);
        // The primary hands connections to the workers in turn: each answered some.
        expect(served[0]).to.be.greaterThan(0);
        expect(served[1]).to.be.greaterThan(0);
        expect(prometheusSample(after, 'colapi_http_requests_in_flight')).to.equal(0);
      });

      it('serializes writes from both workers, and a cursor one worker signed is read by the other', async () => {
        const n = 20;
        const creates = await Promise.all(
          Array.from({ length: n }, (_, i) =>
            fetch(`${origin}/api/tag`, {
              method: 'POST',
              headers: { 'content-type': JSONAPI, accept: JSONAPI },
              body: JSON.stringify({ data: { type: 'tag', attributes: { name: `w${i}` } } }),
            }).then((r) => r.status),
          ),
        );
        expect(creates).to.deep.equal(Array(n).fill(201));
        const first = await getApart(`${origin}/api/tag?page[size]=1`);
        expect(first.status).to.equal(200);
        const next = (JSON.parse(first.body) as { links: { next: string } }).links.next;
        expect(next).to.contain('page');
        const before = byWorker(await metrics(), pids);
        const pages = await Promise.all(
          Array.from({ length: 10 }, () => getApart(next.startsWith('http') ? next : `${origin}${next}`)),
        );
        expect(pages.map((p) => p.status)).to.deep.equal(Array(10).fill(200));
        const served = byWorker(await metrics(), pids).map((c, i) => c - before[i]!);
        expect(served.every((c) => c > 0)).to.equal(true);
      });

      it('SIGHUP to the primary reloads every worker', async () => {
        const reloads = (text: string) =>
          prometheusSample(text, 'colapi_catalogue_reloads_total', { outcome: 'ok' }) ?? 0;
        const was = reloads(await metrics());
        const told = run!.stdout.match(/^reloaded:/gm)?.length ?? 0;
        run!.child.kill('SIGHUP');
        const second = await line(run!, /^reloaded: .* \(worker (\d+)\)$/, told + 2, 60_000);
        const first = await line(run!, /^reloaded: .* \(worker (\d+)\)$/, told + 1);
        expect([Number(first[1]), Number(second[1])].sort()).to.deep.equal([...pids].sort());
        expect(reloads(await metrics()) - was).to.equal(2);
        expect((await fetch(`${admin}/ready`)).status).to.equal(200);
      });

      it('a killed worker is told and /ready is 503 until its replacement is ready', async () => {
        const [victim, other] = pids;
        process.kill(victim!, 'SIGKILL');
        const down = await readyUntil(admin, 503, 10_000);
        expect(down.status).to.equal(503);
        expect(down.body.checks.workers).to.match(/^[01] of 2 workers ready$/);
        expect(down.body.workers.map((w) => w.pid)).not.to.include(victim);
        const up = await readyUntil(admin, 200, 120_000);
        expect(up.status).to.equal(200);
        const now = up.body.workers.map((w) => w.pid);
        expect(now).to.include(other);
        expect(now).not.to.include(victim);
        expect(run!.stderr).to.contain(`colapi: worker ${victim} died (SIGKILL); starting another`);
        pids = now;
        expect((await getApart(`${origin}/api/tag`)).status).to.equal(200);
      });

      it('on SIGTERM: /ready 503 at once, every request under load answered, in-flight ones finished, exit 0', async () => {
        const statuses: number[] = [];
        const failures: unknown[] = [];
        let loading = true;
        const loop = async () => {
          while (loading) {
            try {
              statuses.push((await getApart(`${origin}/api/tag`)).status);
            } catch (error) {
              failures.push(error);
            }
          }
        };
        const loops = [loop(), loop(), loop(), loop()];
        await sleep(300);
        const signalled = performance.now();
        run!.child.kill('SIGTERM');
        const draining = await readyUntil(admin, 503, 1000);
        expect(draining.status).to.equal(503);
        expect(draining.body.failed).to.include('draining');
        // A request that begins inside the grace period and ends after the workers stop accepting.
        await sleep(Math.max(0, grace * 1000 - 1000 - (performance.now() - signalled)));
        const slow = slowCreate(origin, 'slow', 2500);
        await sleep(500);
        loading = false;
        await Promise.all(loops);
        const code = await run!.exited;
        const exitedAfter = (performance.now() - signalled) / 1000;
        const answered = await slow;
        expect(failures).to.deep.equal([]);
        expect(statuses.length).to.be.greaterThan(10);
        expect(statuses.every((s) => s === 200)).to.equal(true);
        expect(answered.status).to.equal(201);
        expect(code).to.equal(0);
        expect(exitedAfter).to.be.at.least(grace);
        // Within grace + the longest request, with a margin for a loaded machine.
        expect(exitedAfter).to.be.below(grace + answered.took / 1000 + 3);
        for (const pid of pids) expect(() => process.kill(pid, 0)).to.throw();
      });
    });
  }
});

describe('colapi serve --workers: starting and stopping', function () {
  this.timeout(180_000);
  let dir: string;
  let url: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'colapi-workers-start-'));
    url = `sqlite:${join(dir, 'tags.sqlite')}`;
    const sql = connect(url);
    try {
      await sql.knex.raw('create table tag (id integer primary key, name varchar(40) not null)');
    } finally {
      await disconnect(sql);
    }
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a worker that cannot start stops them all: told on standard error, exit code 1', async () => {
    // The primary reads the catalogue and forks; the workers find the port taken.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as { port: number }).port;
      const run = colapi(['serve', url, '--port', String(port), '--workers', '2']);
      expect(await run.exited).to.equal(1);
      expect(run.stderr).to.contain('colapi: cannot listen:');
      expect(run.stderr).to.match(/colapi: a worker failed to start \(1\); stopping/);
      expect(run.stdout).not.to.contain('listening on');
    } finally {
      taken.close();
    }
  });

  it('Ctrl+C (SIGINT) to the primary stops every worker without the grace period, exit 0', async () => {
    const run = colapi(['serve', url, '--port', '0', '--workers', '2', '--grace', '60']);
    try {
      const origin = (await line(run, /^listening on (\S+)$/, 1, 150_000))[1]!;
      expect((await getApart(`${origin}/api/tag`)).status).to.equal(200);
      const signalled = performance.now();
      run.child.kill('SIGINT');
      expect(await run.exited).to.equal(0);
      expect(performance.now() - signalled).to.be.below(20_000);
    } finally {
      await stop(run);
    }
  });
});
