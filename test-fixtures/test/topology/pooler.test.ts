import { startConformanceTarget, type ConformanceTarget } from '@colapi/test-fixtures';
import { HttpClient, seed, STANDARD_DATA, testedKinds } from '@colapi/test-fixtures/testing';
import type { HookContext } from '@colapi/server-koa';
import { connect } from '@colapi/sql-compiler';
import { expect } from 'chai';
import { sessionTimeouts } from '../shared/session-timeouts.js';
import { Topology } from './topology.js';

/**
 * Behind a transaction-mode pooler (Debian's PgBouncer, from tools/pg-topology), named statements break:
 * a name prepared on one server connection is missing on, or already taken by, the next. Without the setting
 * every such failure tells the client and the operator's log which setting fixes it; with
 * `prepared_statements=false` in the URL the same load is answered in full.
 */
/** Requests in waves of concurrent ones, so that the pooler hands server connections from client to client. */
async function load(http: HttpClient, waves: number, width: number): Promise<{ status: number; body: unknown }[]> {
  const answers: { status: number; body: unknown }[] = [];
  for (let w = 0; w < waves; w++) {
    const wave = Array.from({ length: width }, (_, i) =>
      http.get(i % 2 ? `/api/person/${(i % 5) + 1}` : `/api/article?page[size]=${(i % 4) + 1}&sort=title`),
    );
    for (const res of await Promise.all(wave)) answers.push({ status: res.status, body: res.body });
  }
  return answers;
}

/** A statement of three seconds when the request says so (x-test-slow), run by a hook, inside the request's transaction. */
async function slowWhenAsked(_op: unknown, context: HookContext): Promise<void> {
  if (context.request.headers['x-test-slow'] === 'yes') await context.db!.raw('select pg_sleep(3)');
}

if (testedKinds().includes('postgres')) {
  describe('PostgreSQL behind PgBouncer in transaction mode', function () {
    this.timeout(120_000);
    const topology = new Topology();
    const targets: ConformanceTarget[] = [];
    const name = `colapi_pool_${process.pid}`;
    const unexpected: unknown[] = [];

    before(async function () {
      if (!topology.available(this)) return;
      topology.up();
      const admin = connect(topology.env.PG_PRIMARY_URL!, { pool: { min: 0, max: 1 } });
      await admin.knex.raw(`drop database if exists ${name}`);
      await admin.knex.raw(`create database ${name}`);
      await admin.knex.destroy();
      // Tables and rows go in straight on the primary: the pooled targets below only serve.
      const direct = await startConformanceTarget({
        url: topology.env.PG_PRIMARY_URL!.replace(/\/test$/, `/${name}`),
        format: 'jsonapi',
      });
      await seed(direct.database.knex, direct.database.dialect, STANDARD_DATA);
      await direct.close();
    });

    after(async () => {
      for (const t of targets) await t.close();
      const primaryUrl = topology.env.PG_PRIMARY_URL;
      if (primaryUrl) {
        const admin = connect(primaryUrl, { pool: { min: 0, max: 1 } });
        await admin.knex.raw(`drop database if exists ${name} with (force)`).catch(() => undefined);
        await admin.knex.destroy();
      }
      topology.down();
    });

    const pooled = (query: string) => topology.env.PG_BOUNCER_URL!.replace(/\/test$/, `/${name}${query}`);

    it('without prepared_statements=false, each failure names the setting to the client and in the log', async () => {
      const target = await startConformanceTarget({
        url: pooled(''),
        format: 'jsonapi',
        api: { onUnexpectedError: (e) => unexpected.push(e) },
      });
      targets.push(target);
      const answers = await load(new HttpClient(target.origin, 'application/vnd.api+json'), 15, 20);
      const failed = answers.filter((a) => a.status !== 200);
      expect(failed.length, 'the pooler made named statements fail').to.be.above(0);
      for (const f of failed) {
        expect(f.status).to.equal(500);
        expect(JSON.stringify(f.body)).to.include('prepared_statements=false');
      }
      expect(unexpected.length).to.equal(failed.length);
      for (const e of unexpected) expect(String((e as Error).message)).to.include('prepared_statements=false');
    });

    it('with prepared_statements=false in the URL, the same load is answered in full', async () => {
      const target = await startConformanceTarget({ url: pooled('?prepared_statements=false'), format: 'jsonapi' });
      targets.push(target);
      const answers = await load(new HttpClient(target.origin, 'application/vnd.api+json'), 15, 20);
      expect(
        answers.filter((a) => a.status !== 200),
        JSON.stringify(answers.find((a) => a.status !== 200)),
      ).to.deep.equal([]);
    });

    // PgBouncer refuses statement_timeout as a startup parameter; with prepared_statements=false it is set per
    // transaction (SET LOCAL), so it cancels slow statements and is gone when the pooler lends the server
    // connection to the next client.
    it('with a statement timeout: slow statements are cancelled, in a transaction or on their own, and no server connection keeps the setting', async () => {
      const target = await startConformanceTarget({
        url: pooled('?prepared_statements=false'),
        format: 'jsonapi',
        connect: { statementTimeout: 300 },
        api: { hooks: { person: { list: { before: slowWhenAsked } } } },
      });
      targets.push(target);
      const http = new HttpClient(target.origin, 'application/vnd.api+json');
      const slow = await Promise.all(
        Array.from({ length: 12 }, () => http.get('/api/person', { headers: { 'x-test-slow': 'yes' } })),
      );
      expect(slow.map((r) => r.status)).to.deep.equal(Array(12).fill(503));
      const answers = await load(http, 10, 20);
      expect(
        answers.filter((a) => a.status !== 200),
        JSON.stringify(answers.find((a) => a.status !== 200)),
      ).to.deep.equal([]);
      // A statement outside any transaction (its own BEGIN; SET LOCAL …; COMMIT) and one inside a transaction.
      const cancelled = (p: Promise<unknown>) =>
        p.then(
          () => 'completed',
          (e: { code?: string }) => e.code,
        );
      expect(await cancelled(target.database.knex.raw('select pg_sleep(3)'))).to.equal('57014');
      expect(await cancelled(target.database.knex.transaction((trx) => trx.raw('select pg_sleep(3)')))).to.equal(
        '57014',
      );
      expect((await target.database.knex.raw('select pg_sleep(0.05), 1 as one')).rows[0].one).to.equal(1);
      expect(await sessionTimeouts(pooled('?prepared_statements=false'), 20)).to.deep.equal(Array(20).fill('0'));
    });

    // The check above would see a leak: a session-level SET through the pooler stays on its server connection.
    it('(control) a session-level SET through the pooler is seen by the next clients', async () => {
      const setter = connect(pooled('?prepared_statements=false'), { pool: { min: 0, max: 1 } });
      try {
        await setter.knex.raw('set statement_timeout = 4321');
      } finally {
        await setter.knex.destroy();
      }
      expect(await sessionTimeouts(pooled('?prepared_statements=false'), 20)).to.include('4321ms');
    });
  });
}
