import type { HookContext } from '@colapi/server-koa';
import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A pool of one connection and a hook that holds it (a transaction kept open for the milliseconds a test
 * header names): a request that cannot get a connection within knex's `acquireConnectionTimeout` is told so
 * with a 503 and Retry-After, not a 500, and the server serves again once the connection is free.
 */
async function holdConnection(_op: unknown, context: HookContext): Promise<void> {
  const ms = Number(context.request.headers['x-test-hold']);
  if (!Number.isInteger(ms) || ms <= 0 || ms > 5000) return;
  await context.db!.transaction(async (trx) => {
    await trx.raw('select 1');
    await sleep(ms);
  });
}

describeEachDatabase(
  'limits: a saturated connection pool',
  (t) => {
    it('a request that waits past acquireConnectionTimeout answers 503 with Retry-After; the pool recovers', async () => {
      const holder = t().http.get('/api/task', { headers: { 'x-test-hold': '1000' } });
      await sleep(150);
      const res = await t().http.get('/api/person');
      expect(res.status, res.text).to.equal(503);
      expect(res.headers.get('retry-after')).to.equal('1');
      expect(res.body.errors[0]).to.include({ status: '503', title: 'Service Unavailable' });
      expect(res.body.errors[0].detail).to.match(/busy/);
      expect((await holder).status).to.equal(200);
      expect((await t().http.get('/api/person')).status).to.equal(200);
    });
  },
  {
    // knex logs each acquire timeout with its stack; the 503 is what this test reads.
    connect: {
      pool: { min: 0, max: 1 },
      acquireConnectionTimeout: 300,
      log: { warn() {}, error() {}, deprecate() {}, debug() {} },
    },
    api: { hooks: { task: { list: { before: holdConnection } } } },
  },
);
