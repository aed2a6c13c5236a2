import { connect, type Database } from '@colapi/sql-compiler';
import { describeEachDatabase, itWhen } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { checkIntegrity, recovery, runLoad } from './load.js';

/**
 * Connections killed under load, on the test's own database only (never another engineer's): the requests
 * they carried answer 503 with an error document, none 500 or hangs, the pool replaces the dead connections
 * and the API answers again within 2 seconds, and no write is left half done.
 */
const KILL: Record<string, (admin: Database) => Promise<number>> = {
  async postgres(admin) {
    const r = await admin.knex.raw(
      'select pg_terminate_backend(pid) as killed from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    return r.rows.length;
  },
  async mysql(admin) {
    const [rows] = await admin.knex.raw(
      'select id from information_schema.processlist where db = database() and id <> connection_id()',
    );
    for (const { id } of rows as { id: number }[]) await admin.knex.raw(`kill ${Number(id)}`).catch(() => undefined);
    return (rows as unknown[]).length;
  },
};

const unexpected: unknown[] = [];

describeEachDatabase(
  'database faults: connections killed mid-load',
  (t, kind) => {
    // SQLite runs in-process: there is no connection to kill, so the case exists on the servers only.
    itWhen(
      KILL[kind] !== undefined,
      'affected requests answer 503, none fail otherwise or hang, the API recovers within 2 s, nothing is half written',
      async function () {
        const kill = KILL[t().kind]!;
        this.timeout(60_000);
        const admin = connect(t().target.url, { pool: { min: 1, max: 1 } });
        try {
          let stop = false;
          const load = runLoad(t().target.origin, 8, () => stop, 4000);
          let killed = 0;
          for (let round = 0; round < 12; round++) {
            await new Promise((r) => setTimeout(r, 200));
            killed += await kill(admin!);
          }
          stop = true;
          const result = await load;
          const ms = await recovery(t().target.origin, 2000);
          const causes = [
            ...new Set(
              unexpected.map((e) => `${(e as { code?: string }).code ?? ''} ${(e as Error).message}`.slice(0, 200)),
            ),
          ];
          expect(
            result.problems,
            `${result.problems.slice(0, 5).join('\n')}\ncauses:\n${causes.join('\n')}`,
          ).to.deep.equal([]);
          expect(killed, 'connections were killed').to.be.greaterThan(0);
          expect(
            result.statuses.get(503) ?? 0,
            `requests were hit: ${JSON.stringify([...result.statuses])}`,
          ).to.be.greaterThan(0);
          expect(ms).to.be.below(2000);
          expect(await checkIntegrity(t().target.database.knex, result)).to.be.greaterThan(0);
        } finally {
          await admin.knex.destroy();
        }
      },
    );
  },
  { api: { onUnexpectedError: (e) => unexpected.push(e) } },
);
