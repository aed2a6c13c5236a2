import { startConformanceTarget, type ConformanceTarget } from '@colapi/test-fixtures';
import { seed, STANDARD_DATA, testedKinds } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { checkIntegrity, recovery, runLoad } from './load.js';
import { canRunPrivateServers, privateMariadb, privatePostgres, type PrivateServer } from './private-server.js';

/**
 * A restart of the database under load, on a server owned by this test (the shared ones on 5432 and 3306 are
 * never restarted): while it is down requests answer 503 at once, after it is back the API serves within
 * 2 seconds without a restart of its own, and no write is left half done.
 */
const START = { postgres: privatePostgres, mysql: privateMariadb } as const;

for (const kind of testedKinds().filter((k): k is 'postgres' | 'mysql' => k !== 'sqlite')) {
  describe(`database faults: a restart of ${kind}`, function () {
    this.timeout(120_000);
    let server: PrivateServer | undefined;
    let target: ConformanceTarget | undefined;
    const unexpected: unknown[] = [];

    before(async function () {
      if (!canRunPrivateServers()) {
        if (process.env.CI === 'true')
          throw new Error('the restart test needs root to run a database server of its own');
        console.warn('  ! not root: skipping the database restart test');
        this.skip();
      }
      server = await START[kind]();
      target = await startConformanceTarget({
        url: server.url,
        format: 'jsonapi',
        api: { onUnexpectedError: (e) => unexpected.push(e) },
      });
      await seed(target.database.knex, target.database.dialect, STANDARD_DATA);
    });

    after(async () => {
      await target?.close();
      await server?.remove();
    });

    it('requests answer 503 while it is down, the API serves again within 2 s of its return, nothing is half written', async () => {
      const { origin } = target!;
      let stop = false;
      const load = runLoad(origin, 6, () => stop, 20_000);
      await new Promise((r) => setTimeout(r, 400));
      await server!.stop();
      const started = performance.now();
      const down = await fetch(`${origin}/api/article`, { signal: AbortSignal.timeout(5000) });
      expect(down.status).to.equal(503);
      expect(((await down.json()) as { errors: { detail: string }[] }).errors[0]!.detail).to.match(
        /cannot be reached|connection/,
      );
      expect(performance.now() - started, 'a database that is down is not waited for').to.be.below(2000);
      await new Promise((r) => setTimeout(r, 300));
      await server!.start();
      const ms = await recovery(origin, 2000);
      await new Promise((r) => setTimeout(r, 300));
      stop = true;
      const result = await load;
      expect(result.problems, `${result.problems.join('\n')}\n${unexpected.map(String).join('\n')}`).to.deep.equal([]);
      expect(result.statuses.get(503) ?? 0).to.be.greaterThan(0);
      expect(ms).to.be.below(2000);
      expect(await checkIntegrity(target!.database.knex, result)).to.be.greaterThan(0);
    });
  });
}
