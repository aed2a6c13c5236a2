import type { HookContext } from '@colapi/server-koa';
import { itWhen, describeEachDatabase, type TestTarget } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { sessionTimeouts } from '../shared/session-timeouts.js';

/**
 * `connect(url, {statementTimeout})`: a statement running longer is cancelled by the database and the request
 * answers 503 with an error document, quickly, and its connection serves the next request. The slow statement
 * comes from a hook, chosen from the table below by a header of the test: client input never reaches SQL text.
 * SQLite has no sleep: its slow statement counts to a hundred million (seconds of CPU), and it is interrupted
 * by sql-compiler's extension (SQLITE_INTERRUPT).
 */
const TIMEOUT = 300;
const COUNT = 'with recursive c(x) as (select 1 union all select x+1 from c where x < ?) select x from c';
type Statement = [sql: string, bindings: number[]];
const STATEMENTS: Record<string, Record<string, Statement>> = {
  // A read of three seconds.
  yes: {
    pg: ['select pg_sleep(3)', []],
    mysql2: ['select sleep(3)', []],
    'better-sqlite3': [`select count(*) from (${COUNT})`, [100_000_000]],
  },
  // A write of three seconds; SQLite rolls the transaction back by itself when it is interrupted.
  write: {
    pg: ["insert into task (title) select 'slow write' from pg_sleep(3)", []],
    mysql2: ["insert into task (title) select 'slow write' from (select sleep(3)) s", []],
    'better-sqlite3': [
      `insert into task (title) select 'slow write' from (${COUNT}) where x = ?`,
      [100_000_000, 100_000_000],
    ],
  },
  // A statement well within the timeout.
  brief: {
    pg: ['select pg_sleep(0.05)', []],
    mysql2: ['select sleep(0.05)', []],
    'better-sqlite3': [`select count(*) from (${COUNT})`, [50_000]],
  },
};

async function slowStatement(_op: unknown, context: HookContext): Promise<void> {
  const which = context.request.headers['x-test-slow'];
  if (typeof which !== 'string' || !(which in STATEMENTS)) return;
  const { client } = context.db!.client.config as { client: string };
  const [sql, bindings] = STATEMENTS[which]![client]!;
  await context.db!.raw(sql, bindings);
}

/**
 * Another process holding the write lock of the SQLite file for `ms`. It must be another process: while the
 * server's connection waits for the lock, better-sqlite3 blocks this process's event loop, so a holder in
 * the same process could never let go in time.
 */
async function lockHolder(t: TestTarget, ms: number): Promise<ChildProcess> {
  const file = (t.target.database.knex.client.config as { connection: { filename: string } }).connection.filename;
  const script = `const db = new (require('better-sqlite3'))(process.argv[1]); db.exec('begin immediate'); console.log('locked');
    setTimeout(() => { db.exec('commit'); db.close(); }, Number(process.argv[2]));`;
  const child = spawn(process.execPath, ['-e', script, file, String(ms)], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  expect(line.toString()).to.match(/locked/);
  return child;
}

const pool = (t: TestTarget) =>
  (t.target.database.knex.client as unknown as { pool: { numUsed(): number; numPendingAcquires(): number } }).pool;

describeEachDatabase(
  'limits: the statement timeout',
  (t, kind) => {
    it('a statement past the timeout answers 503 with an error document, in well under its own duration', async () => {
      const started = performance.now();
      const res = await t().http.get('/api/task', { headers: { 'x-test-slow': 'yes' } });
      const ms = performance.now() - started;
      expect(res.status, res.text).to.equal(503);
      expect(res.body.errors[0]).to.include({ status: '503', title: 'Service Unavailable' });
      expect(res.body.errors[0].detail).to.match(/took too long/);
      expect(ms).to.be.below(2500);
    });

    // SQLite's pool holds one connection, and a running statement blocks the event loop: concurrent slow
    // requests run one after another, each cancelled in turn, so three show the same at a fifth of the time.
    const many = kind === 'sqlite' ? 3 : 15;
    it(`the cancelled statements free their connections: ${many} slow requests at once (more than the pool holds), then normal ones`, async () => {
      const started = performance.now();
      const slow = await Promise.all(
        Array.from({ length: many }, async () => {
          const res = await t().http.get('/api/task', { headers: { 'x-test-slow': 'yes' } });
          return { status: res.status };
        }),
      );
      // MariaDB's statement timer can miss a SLEEP when the machine is loaded: reproduced with mysql2 alone,
      // 2 of 90 `select sleep(3)` under max_statement_time 0.3 ran their whole 3 s without an error. A clean
      // clone's CI once saw such a 200 come back in under 3 s: the SLEEP ended without the timer's error.
      // A statement the database did not cancel answers 200; every other one is a 503, and they are most.
      const uncancelled = (r: { status: number }) => kind === 'mysql' && r.status === 200;
      expect(slow.filter((r) => !uncancelled(r)).map((r) => r.status)).to.deep.equal(
        Array(slow.filter((r) => !uncancelled(r)).length).fill(503),
      );
      expect(slow.filter(uncancelled).length, 'most slow statements are cancelled').to.be.below(many / 2);
      if (kind === 'sqlite') expect(performance.now() - started).to.be.below(many * TIMEOUT + 1500);
      expect(pool(t()).numUsed()).to.equal(0);
      const fast = await Promise.all(Array.from({ length: 15 }, () => t().http.get('/api/task')));
      expect(fast.map((r) => r.status)).to.deep.equal(Array(15).fill(200));
      expect(pool(t()).numPendingAcquires()).to.equal(0);
    });

    it('a write whose statement is cancelled writes nothing', async () => {
      const res = await t().http.post(
        '/api/task',
        { data: { type: 'task', attributes: { title: 'slow' } } },
        { headers: { 'x-test-slow': 'yes' } },
      );
      expect(res.status, res.text).to.equal(503);
      expect(await t().target.database.knex('task').where({ title: 'slow' }).first()).to.equal(undefined);
    });

    it('a cancelled write statement answers 503 and writes nothing, and the next write succeeds', async () => {
      const res = await t().http.post(
        '/api/task',
        { data: { type: 'task', attributes: { title: 'around a slow write' } } },
        { headers: { 'x-test-slow': 'write' } },
      );
      expect(res.status, res.text).to.equal(503);
      expect(res.body.errors[0].detail).to.match(/took too long/);
      const written = await t().target.database.knex('task').whereIn('title', ['around a slow write', 'slow write']);
      expect(written).to.deep.equal([]);
      const next = await t().http.post('/api/task', {
        data: { type: 'task', attributes: { title: 'after a slow write' } },
      });
      expect(next.status, next.text).to.equal(201);
    });

    it('a statement within the timeout completes', async () => {
      const res = await t().http.get('/api/task', { headers: { 'x-test-slow': 'brief' } });
      expect(res.status, res.text).to.equal(200);
    });

    it('requests one after another for several times the timeout all complete (no interrupt left over)', async () => {
      const started = performance.now();
      const statuses: number[] = [];
      while (performance.now() - started < TIMEOUT * 4) {
        statuses.push((await t().http.get('/api/task', { headers: { 'x-test-slow': 'brief' } })).status);
        statuses.push((await t().http.get('/api/task')).status);
      }
      expect(statuses.length).to.be.above(10);
      expect(statuses.filter((s) => s !== 200)).to.deep.equal([]);
    });

    // Run through PgBouncer (the PostgreSQL pass of `pnpm test`), this is the check that the timeout, set per
    // transaction there, never stays on a server connection the pooler lends to another client.
    itWhen(
      kind === 'postgres',
      'PostgreSQL: after these requests, other sessions of the database see statement_timeout 0',
      async () => {
        expect(await sessionTimeouts(t().target.url, 20)).to.deep.equal(Array(20).fill('0'));
      },
    );

    itWhen(
      kind === 'sqlite',
      'SQLite: the timeout bounds each wait for a lock another process holds (SQLITE_BUSY, retried within the retry budget, then 503)',
      async () => {
        const holder = await lockHolder(t(), 2000);
        const started = performance.now();
        const res = await t().http.post('/api/task', { data: { type: 'task', attributes: { title: 'locked out' } } });
        const ms = performance.now() - started;
        expect(res.status, res.text).to.equal(503);
        expect(res.body.errors[0].detail).to.match(/conflicted with a concurrent one/);
        // Two waits of the timeout (the first try and the retry the budget leaves room for), not SQLite's default five seconds.
        expect(ms).to.be.within(TIMEOUT * 2 - 50, 1500);
        await once(holder, 'exit');
        expect(
          (await t().http.post('/api/task', { data: { type: 'task', attributes: { title: 'after' } } })).status,
        ).to.equal(201);
      },
    );

    itWhen(
      kind === 'sqlite',
      'SQLite: a lock released within the timeout is waited for, and the write succeeds',
      async () => {
        const holder = await lockHolder(t(), TIMEOUT / 3);
        const res = await t().http.post('/api/task', { data: { type: 'task', attributes: { title: 'waited' } } });
        await once(holder, 'exit');
        expect(res.status, res.text).to.equal(201);
      },
    );
  },
  {
    connect: { statementTimeout: TIMEOUT },
    // A retry budget of two waits: the lock test below sees each wait bounded by the timeout, then the 503.
    api: {
      transactionRetryBudget: TIMEOUT * 2,
      hooks: { task: { list: { before: slowStatement }, create: { before: slowStatement } } },
    },
  },
);
