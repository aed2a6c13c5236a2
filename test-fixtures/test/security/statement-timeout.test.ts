import type { HookContext } from '@colapi/server-koa';
import { itWhen, describeEachDatabase, type TestTarget } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/**
 * `connect(url, {statementTimeout})`: a statement running longer is cancelled by the database and the request
 * answers 503 with an error document, quickly, and its connection serves the next request. The slow statement
 * comes from a hook, asked for by a header of the test: client input never reaches SQL text.
 */
const TIMEOUT = 300;
const SLEEP: Record<string, string> = { postgres: 'select pg_sleep(3)', mysql: 'select sleep(3)' };

async function slowStatement(_op: unknown, context: HookContext): Promise<void> {
  if (context.request.headers['x-test-slow'] !== 'yes') return;
  const { client } = context.db!.client.config as { client: string };
  const sql = client === 'pg' ? SLEEP.postgres! : SLEEP.mysql!;
  await context.db!.raw(sql);
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
  const child = spawn(process.execPath, ['-e', script, file, String(ms)], { cwd: fileURLToPath(new URL('../..', import.meta.url)), stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  expect(line.toString()).to.match(/locked/);
  return child;
}

const pool = (t: TestTarget) => (t.target.database.knex.client as unknown as { pool: { numUsed(): number; numPendingAcquires(): number } }).pool;

describeEachDatabase(
  'limits: the statement timeout',
  (t, kind) => {
    itWhen(kind !== 'sqlite', 'a statement past the timeout answers 503 with an error document, in well under its own duration', async function () {
            const started = performance.now();
      const res = await t().http.get('/api/task', { headers: { 'x-test-slow': 'yes' } });
      const ms = performance.now() - started;
      expect(res.status, res.text).to.equal(503);
      expect(res.body.errors[0]).to.include({ status: '503', title: 'Service Unavailable' });
      expect(res.body.errors[0].detail).to.match(/took too long/);
      expect(ms).to.be.below(2500);
    });

    itWhen(kind !== 'sqlite', 'the cancelled statements free their connections: more slow requests than the pool holds, then normal ones', async function () {
            const slow = await Promise.all(Array.from({ length: 15 }, () => t().http.get('/api/task', { headers: { 'x-test-slow': 'yes' } })));
      expect(slow.map((r) => r.status)).to.deep.equal(Array(15).fill(503));
      expect(pool(t()).numUsed()).to.equal(0);
      const fast = await Promise.all(Array.from({ length: 15 }, () => t().http.get('/api/task')));
      expect(fast.map((r) => r.status)).to.deep.equal(Array(15).fill(200));
      expect(pool(t()).numPendingAcquires()).to.equal(0);
    });

    itWhen(kind !== 'sqlite', 'a write whose statement is cancelled writes nothing', async function () {
            const res = await t().http.post('/api/task', { data: { type: 'task', attributes: { title: 'slow' } } }, { headers: { 'x-test-slow': 'yes' } });
      expect(res.status, res.text).to.equal(503);
      expect(await t().target.database.knex('task').where({ title: 'slow' }).first()).to.equal(undefined);
    });

    itWhen(kind === 'sqlite', 'SQLite: the timeout bounds the wait for a lock another process holds (SQLITE_BUSY, retried once, then 503)', async function () {
            const holder = await lockHolder(t(), 2000);
      const started = performance.now();
      const res = await t().http.post('/api/task', { data: { type: 'task', attributes: { title: 'locked out' } } });
      const ms = performance.now() - started;
      expect(res.status, res.text).to.equal(503);
      expect(res.body.errors[0].detail).to.match(/conflicted with a concurrent one/);
      // Two waits of the timeout (the first try and its retry), not SQLite's default five seconds.
      expect(ms).to.be.within(TIMEOUT * 2 - 50, 1500);
      await once(holder, 'exit');
      expect((await t().http.post('/api/task', { data: { type: 'task', attributes: { title: 'after' } } })).status).to.equal(201);
    });

    itWhen(kind === 'sqlite', 'SQLite: a lock released within the timeout is waited for, and the write succeeds', async function () {
            const holder = await lockHolder(t(), TIMEOUT / 3);
      const res = await t().http.post('/api/task', { data: { type: 'task', attributes: { title: 'waited' } } });
      await once(holder, 'exit');
      expect(res.status, res.text).to.equal(201);
    });
  },
  {
    connect: { statementTimeout: TIMEOUT },
    api: { hooks: { task: { list: { before: slowStatement }, create: { before: slowStatement } } } },
  },
);
