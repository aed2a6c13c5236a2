import { adminServer, ApiMetrics, databaseReadiness, type AdminServer, type HookContext } from '@colapi/server-koa';
import { connect, disconnect, type Database } from '@colapi/sql-compiler';
import { describeEachDatabase, prometheusSample } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { LOSE_CONFLICT } from '../concurrency/lose-conflict.js';
import { AUTH, ROLES, token } from '../access/tenants.js';

/**
 * The library's admin listener and metrics (adminServer, databaseReadiness, ApiMetrics) beside a createApi
 * served over HTTP: readiness failures one check at a time, retries and their budget, acquire timeouts, and
 * 401/403 by reason.
 */
const PREFIX = 'colapi_i31a_';
const retryMetrics = new ApiMetrics({ defaultMetrics: false });
const accessMetrics = new ApiMetrics({ defaultMetrics: false });
let other: Database | undefined;

/** With `x-test-lose: always`, every attempt of the update loses a real conflict with another connection. */
async function loseConflicts(_op: unknown, context: HookContext): Promise<void> {
  if (context.request.headers['x-test-lose'] === undefined) return;
  const db = context.db!;
  await LOSE_CONFLICT[(db.client.config as { client: string }).client]!(db, other!.knex, () =>
    db('task').insert({ title: 'attempt' }),
  );
}

const value = async (metrics: ApiMetrics, name: string, labels: Record<string, string> = {}) =>
  prometheusSample(await metrics.registry.metrics(), name, labels) ?? 0;

describeEachDatabase(
  'admin listener and metrics of the library',
  (t) => {
    let admin: AdminServer | undefined;
    let held: Database | undefined;
    before(() => {
      other = connect(t().target.url);
      retryMetrics.observe(t().target.database);
    });
    after(async () => {
      retryMetrics.forget(t().target.database);
      await admin?.close();
      await disconnect(other!);
      if (held) await disconnect(held);
    });

    it('/ready is 503 until the catalogue is loaded, naming that check', async () => {
      let loaded!: () => void;
      admin = await adminServer({
        readiness: databaseReadiness({ database: t().target.database, loaded: new Promise<void>((r) => (loaded = r)) }),
      });
      const early = await fetch(`${admin.origin}/ready`);
      expect(early.status).to.equal(503);
      expect(await early.json()).to.deep.equal({
        ready: false,
        checks: { catalogue: 'not loaded yet', primary: 'ok', draining: 'ok' },
        failed: ['catalogue'],
      });
      loaded();
      await new Promise((resolve) => setImmediate(resolve));
      expect((await fetch(`${admin.origin}/ready`)).status).to.equal(200);
      // No metrics given: no /metrics; only GET and HEAD.
      expect((await fetch(`${admin.origin}/metrics`)).status).to.equal(404);
      expect((await fetch(`${admin.origin}/ready`, { method: 'POST' })).status).to.equal(405);
      admin.drain();
      const draining = await fetch(`${admin.origin}/ready`);
      expect(draining.status).to.equal(503);
      expect(((await draining.json()) as { failed: string[] }).failed).to.deep.equal(['draining']);
      expect((await fetch(`${admin.origin}/live`)).status).to.equal(200);
      await admin.close();
      admin = undefined;
    });

    it('/ready is 503 when the primary does not answer within the timeout; an acquire timeout is counted', async () => {
      // A pool of one connection, held by an open transaction: "select 1" waits for it.
      held = connect(t().target.url, { pool: { min: 0, max: 1 }, acquireConnectionTimeout: 300 });
      const metrics = new ApiMetrics({ defaultMetrics: false });
      metrics.observe(held);
      admin = await adminServer({
        readiness: databaseReadiness({ database: held, timeout: 200 }),
        metrics: metrics.registry,
      });
      expect((await fetch(`${admin.origin}/ready`)).status).to.equal(200);
      const trx = await held.knex.transaction();
      try {
        const late = await fetch(`${admin.origin}/ready`);
        expect(late.status).to.equal(503);
        const body = (await late.json()) as { failed: string[]; checks: Record<string, string> };
        expect(body.failed).to.deep.equal(['primary']);
        expect(body.checks.primary).to.equal('no answer within 200 ms');
        const text = await (await fetch(`${admin.origin}/metrics`)).text();
        expect(prometheusSample(text, 'colapi_pool_connections_in_use', { pool: 'primary' })).to.equal(1);
        // The readiness check's own wait for a connection ran out (300 ms) meanwhile, or does now.
        await new Promise((resolve) => setTimeout(resolve, 400));
        expect(await value(metrics, 'colapi_pool_acquire_timeouts_total', { pool: 'primary' })).to.equal(1);
      } finally {
        await trx.rollback();
      }
      expect((await fetch(`${admin.origin}/ready`)).status).to.equal(200);
      await admin.close();
      admin = undefined;
    });

    it('counts the retries of a write and the exhaustion of its retry budget', async () => {
      const retries = await value(retryMetrics, 'colapi_transaction_retries_total');
      const exhausted = await value(retryMetrics, 'colapi_transaction_retry_budget_exhausted_total');
      const res = await t().http.request('PATCH', '/api/person/3', {
        headers: { 'x-test-lose': 'always' },
        body: { data: { type: 'person', id: '3', attributes: { name: 'Renamed' } } },
      });
      expect(res.status, res.text).to.equal(503);
      expect(await value(retryMetrics, 'colapi_transaction_retries_total')).to.be.at.least(retries + 2);
      expect(await value(retryMetrics, 'colapi_transaction_retry_budget_exhausted_total')).to.equal(exhausted + 1);
      expect(await value(retryMetrics, 'colapi_statements_total', { outcome: 'serialization' })).to.be.at.least(3);
      expect(
        await value(retryMetrics, 'colapi_http_request_duration_seconds_count', {
          collection: 'person',
          operation: 'update',
          method: 'PATCH',
          status_class: '5xx',
        }),
      ).to.be.at.least(1);
    });
  },
  {
    prefix: PREFIX,
    api: {
      hooks: { person: { update: { before: loseConflicts } } },
      transactionRetryBudget: 600,
      metrics: retryMetrics,
    },
  },
);

describeEachDatabase(
  'metrics of access control: 401 and 403 by reason',
  (t) => {
    it('counts each refusal under its reason, and nothing for a served request', async () => {
      const count = (status: string, reason: string) =>
        value(accessMetrics, 'colapi_access_refusals_total', { status, reason });
      const before = {
        malformed: await count('401', 'malformed'),
        unknown: await count('403', 'unknown_role'),
        rule: await count('403', 'rule'),
      };
      const get = (path: string, authorization?: string) =>
        t().http.get(path, authorization ? { headers: { authorization } } : {});
      expect((await get('/api/tag')).status).to.equal(200);
      expect((await get('/api/tag', 'Bearer not.a.token')).status).to.equal(401);
      expect((await get('/api/tag', `Bearer ${await token('nobody')}`)).status).to.equal(403);
      const member = `Bearer ${await token('member', { tenant: 1, person: 1 })}`;
      // Members may not delete tags: refused by the role's rules.
      expect((await t().http.request('DELETE', '/api/tag/1', { headers: { authorization: member } })).status).to.equal(
        403,
      );
      expect(await count('401', 'malformed')).to.equal(before.malformed + 1);
      expect(await count('403', 'unknown_role')).to.equal(before.unknown + 1);
      expect(await count('403', 'rule')).to.equal(before.rule + 1);
    });
  },
  { prefix: PREFIX, api: { access: { auth: AUTH, roles: ROLES }, metrics: accessMetrics } },
);

const timeoutMetrics = new ApiMetrics({ defaultMetrics: false });
/** Three seconds of work per database (SQLite has no sleep: it counts), past the 300 ms statement timeout. */
const SLOW: Record<string, string> = {
  pg: 'select pg_sleep(3)',
  mysql2: 'select sleep(3)',
  'better-sqlite3':
    'select count(*) from (with recursive c(x) as (select 1 union all select x+1 from c where x < 100000000) select x from c)',
};

describeEachDatabase(
  'metrics of statement timeouts',
  (t) => {
    before(() => timeoutMetrics.observe(t().target.database));
    after(() => timeoutMetrics.forget(t().target.database));

    it('counts a statement the database cancelled, under its outcome and as a timeout', async () => {
      const timeouts = await value(timeoutMetrics, 'colapi_statement_timeouts_total');
      const outcome = await value(timeoutMetrics, 'colapi_statements_total', { outcome: 'timeout' });
      const res = await t().http.get('/api/person', { headers: { 'x-test-slow': 'yes' } });
      expect(res.status, res.text).to.equal(503);
      expect(await value(timeoutMetrics, 'colapi_statement_timeouts_total')).to.equal(timeouts + 1);
      expect(await value(timeoutMetrics, 'colapi_statements_total', { outcome: 'timeout' })).to.equal(outcome + 1);
      expect((await t().http.get('/api/person')).status).to.equal(200);
    });
  },
  {
    prefix: PREFIX,
    connect: { statementTimeout: 300 },
    api: {
      metrics: timeoutMetrics,
      hooks: {
        person: {
          list: {
            before: async (_op: unknown, context: HookContext) => {
              if (context.request.headers['x-test-slow'] === undefined) return;
              await context.db!.raw(SLOW[(context.db!.client.config as { client: string }).client]!);
            },
          },
        },
      },
    },
  },
);

describeEachDatabase(
  'readiness and metrics of read replicas',
  (t) => {
    let database: Database | undefined;
    let admin: AdminServer | undefined;
    after(async () => {
      await admin?.close();
      if (database) await disconnect(database);
    });

    it("reports each replica's state and lag in /ready and /metrics; a replica down does not make it unready", async () => {
      // The primary stands in for a replica that is current (lag 0); a port nobody listens on for one that is down.
      const down = new URL(t().target.url);
      down.port = '1';
      database = connect(t().target.url, {
        pool: { min: 0, max: 2 },
        replicas: [t().target.url, down.toString()],
        replicaPolicy: { checkInterval: 100 },
      });
      const metrics = new ApiMetrics({ defaultMetrics: false });
      metrics.observe(database);
      admin = await adminServer({ readiness: databaseReadiness({ database }), metrics: metrics.registry });
      await database.replicas!.check();
      const ready = await fetch(`${admin.origin}/ready`);
      expect(ready.status).to.equal(200);
      const body = (await ready.json()) as { replicas: { replica: string; serving: boolean; lag?: number }[] };
      expect(body.replicas.map((r) => r.serving)).to.deep.equal([true, false]);
      expect(body.replicas[0]!.lag).to.equal(0);
      const text = await (await fetch(`${admin.origin}/metrics`)).text();
      const [up, gone] = body.replicas.map((r) => r.replica) as [string, string];
      expect(prometheusSample(text, 'colapi_replica_serving', { replica: up })).to.equal(1);
      expect(prometheusSample(text, 'colapi_replica_serving', { replica: gone })).to.equal(0);
      expect(prometheusSample(text, 'colapi_replica_lag_seconds', { replica: up })).to.equal(0);
      expect(prometheusSample(text, 'colapi_pool_connections_idle', { pool: up })).to.be.a('number');
    });
  },
  { prefix: PREFIX, only: ['postgres', 'mysql'], seed: false },
);
