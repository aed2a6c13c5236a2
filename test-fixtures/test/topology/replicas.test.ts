import { startConformanceTarget, type ConformanceTarget } from '@colapi/test-fixtures';
import { filterParam, HttpClient, seed, STANDARD_DATA, testedKinds } from '@colapi/test-fixtures/testing';
import { connect, type Database } from '@colapi/sql-compiler';
import { expect } from 'chai';
import { Topology } from './topology.js';

/**
 * A PostgreSQL primary with one hot-standby streaming replica (tools/pg-topology), served with the replica
 * for reads. What each server ran is counted on the server itself (pg_stat_statements), not by the client.
 */
const JSONAPI = 'application/vnd.api+json';

/** Statements a server ran in one database since the last reset, leaving out the counting and health checks. */
async function statements(db: Database, name: string): Promise<number> {
  const r = await db.knex.raw(
    `select coalesce(sum(calls), 0)::int as n from pg_stat_statements s join pg_database d on d.oid = s.dbid
     where d.datname = ? and s.query not ilike '%pg_stat_statements%' and s.query not ilike '%pg_is_in_recovery%'`,
    [name],
  );
  return r.rows[0].n;
}

const person = (name: string) => ({ data: { type: 'person', attributes: { name, age: 30 } } });

if (testedKinds().includes('postgres')) {
  describe('PostgreSQL with a streaming read replica', function () {
    this.timeout(120_000);
    const topology = new Topology();
    const name = `colapi_repl_${process.pid}`;
    const targets: ConformanceTarget[] = [];
    let primary: Database;
    let replica: Database;

    const url = (server: string) => server.replace(/\/test$/, `/${name}`);
    async function serve(
      policy: { maxLag?: number; checkInterval?: number } = {},
    ): Promise<{ target: ConformanceTarget; http: HttpClient }> {
      const target = await startConformanceTarget({
        url: url(topology.env.PG_PRIMARY_URL!),
        // A stopped replica's pool warns on every refused connection; the replica set reports it once.
        connect: {
          replicas: [url(topology.env.PG_REPLICA_URL!)],
          replicaPolicy: policy,
          log: { warn: () => undefined },
        },
      });
      targets.push(target);
      await target.database.replicas!.check();
      expect(target.database.replicas!.state()[0]!.serving, JSON.stringify(target.database.replicas!.state())).to.equal(
        true,
      );
      return { target, http: new HttpClient(target.origin, JSONAPI) };
    }
    async function reset(): Promise<void> {
      await primary.knex.raw('select pg_stat_statements_reset()');
      await replica.knex.raw('select pg_stat_statements_reset()');
    }
    /**
     * Waits until the replica has replayed everything the primary wrote so far. The insert position, not
     * pg_current_wal_lsn(): with synchronous_commit off (the topology's setting) a commit may still sit in
     * the WAL buffers, past the position written out, and a fresh standby then lacked the seed's last rows.
     */
    async function caughtUp(): Promise<void> {
      const lsn = (await primary.knex.raw('select pg_current_wal_insert_lsn()::text as l')).rows[0].l;
      for (let i = 0; i < 200; i++) {
        const r = await replica.knex.raw('select pg_last_wal_replay_lsn() >= ?::pg_lsn as ok', [lsn]);
        if (r.rows[0].ok) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error('the replica did not catch up within 5 s');
    }

    before(async function () {
      if (!topology.available(this)) return;
      topology.up();
      const admin = connect(topology.env.PG_PRIMARY_URL!, { pool: { min: 0, max: 1 } });
      await admin.knex.raw(`drop database if exists ${name} with (force)`);
      await admin.knex.raw(`create database ${name}`);
      await admin.knex.destroy();
      primary = connect(url(topology.env.PG_PRIMARY_URL!), { pool: { min: 0, max: 2 } });
      await primary.knex.raw('create extension if not exists pg_stat_statements');
      const direct = await startConformanceTarget({ url: url(topology.env.PG_PRIMARY_URL!) });
      await seed(direct.database.knex, direct.database.dialect, STANDARD_DATA);
      await direct.close();
      // The database and its rows reach the standby by replication; connect once they have.
      for (let i = 0; ; i++) {
        replica = connect(url(topology.env.PG_REPLICA_URL!), {
          pool: { min: 0, max: 2 },
          log: { warn: () => undefined },
        });
        try {
          await replica.knex.raw('select 1 from person limit 1');
          break;
        } catch (error) {
          await replica.knex.destroy();
          if (i > 100) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      await caughtUp();
    });

    after(async () => {
      for (const t of targets) await t.close();
      await replica?.knex.destroy();
      await primary?.knex.destroy();
      if (topology.env.PG_PRIMARY_URL) {
        const admin = connect(topology.env.PG_PRIMARY_URL, { pool: { min: 0, max: 1 } });
        await admin.knex.raw(`drop database if exists ${name} with (force)`).catch(() => undefined);
        await admin.knex.destroy();
      }
      topology.down();
    });

    it('routes reads outside a write to the replica and everything of a write to the primary, counted on each server', async () => {
      const { http } = await serve();
      const reads = [
        '/api/person',
        '/api/person/1',
        '/api/person/1/articles',
        '/api/person/1/relationships/articles',
        '/api/article?include=author,tags&sort=-title',
        '/api/article/1/author',
        `/api/person?${filterParam([{ name: 'age', op: 'gt', val: 20 }])}`,
      ];
      await reset();
      for (const path of reads) {
        const res = await http.get(path);
        expect(res.status, `${path}: ${res.text}`).to.equal(200);
      }
      const readsOnReplica = await statements(replica, name);
      expect(readsOnReplica, 'statements of reads on the replica').to.be.at.least(reads.length);
      expect(await statements(primary, name), 'statements of reads on the primary').to.equal(0);

      await reset();
      const created = await http.request('POST', '/api/person', { body: person('routed') });
      expect(created.status).to.equal(201);
      const id = created.body.data.id as string;
      expect(
        (
          await http.request('PATCH', `/api/person/${id}`, {
            body: { data: { type: 'person', id, attributes: { age: 31 } } },
          })
        ).status,
      ).to.equal(200);
      expect(
        (
          await http.request('POST', '/api/article/1/relationships/tags', {
            body: { data: [{ type: 'tag', id: '3' }] },
          })
        ).status,
      ).to.be.oneOf([200, 204]);
      expect((await http.request('DELETE', `/api/person/${id}`)).status).to.equal(204);
      expect(await statements(replica, name), 'statements of writes on the replica').to.equal(0);
      expect(await statements(primary, name), 'statements of writes on the primary').to.be.at.least(4);
    });

    it('reads from the primary when the request says Colapi-Read-From: primary, and reads its own write there', async () => {
      const { http } = await serve({ maxLag: 60_000 });
      // Replay paused: the replica stays reachable and within the (generous) bound but misses every new write.
      await replica.knex.raw('select pg_wal_replay_pause()');
      try {
        const created = await http.request('POST', '/api/person', { body: person('mine') });
        expect(created.status).to.equal(201);
        const id = created.body.data.id as string;
        expect((await http.get(`/api/person/${id}`)).status, 'the replica has not replayed the write').to.equal(404);
        await reset();
        const own = await http.request('GET', `/api/person/${id}`, { headers: { 'colapi-read-from': 'primary' } });
        expect(own.status).to.equal(200);
        expect(own.body.data.attributes.name).to.equal('mine');
        expect(await statements(replica, name)).to.equal(0);
        expect(await statements(primary, name)).to.be.at.least(1);
        const wrong = await http.request('GET', `/api/person/${id}`, { headers: { 'colapi-read-from': 'leader' } });
        expect(wrong.status).to.equal(400);
        expect(JSON.stringify(wrong.body)).to.include('Colapi-Read-From');
      } finally {
        await replica.knex.raw('select pg_wal_replay_resume()');
      }
      await caughtUp();
    });

    it('takes a replica lagging beyond the bound out of rotation, and back once it has caught up', async () => {
      const { target, http } = await serve({ maxLag: 300, checkInterval: 100 });
      const replicas = target.database.replicas!;
      await replica.knex.raw('select pg_wal_replay_pause()');
      let id: string;
      try {
        const created = await http.request('POST', '/api/person', { body: person('lagged') });
        id = created.body.data.id as string;
        await new Promise((resolve) => setTimeout(resolve, 600));
        await replicas.check();
        expect(replicas.state()[0]!.serving, JSON.stringify(replicas.state())).to.equal(false);
        expect(replicas.state()[0]!.reason).to.match(/behind its primary/);
        // Out of rotation, so reads go to the primary and see the write.
        expect((await http.get(`/api/person/${id}`)).status).to.equal(200);
      } finally {
        await replica.knex.raw('select pg_wal_replay_resume()');
      }
      await caughtUp();
      await replicas.check();
      expect(replicas.state()[0]!.serving).to.equal(true);
      await reset();
      expect((await http.get(`/api/person/${id}`)).status).to.equal(200);
      expect(await statements(replica, name)).to.be.at.least(1);
    });

    it('keeps answering when the replica stops under load, and uses it again within 2 s of its return', async () => {
      const { target, http } = await serve();
      const replicas = target.database.replicas!;
      const statuses = new Map<number, number>();
      let running = true;
      const paths = ['/api/person', '/api/person/2', '/api/article?include=author', '/api/person/1/articles'];
      const clients = Array.from({ length: 16 }, async (_, c) => {
        for (let n = 0; running; n++) {
          const res = await http
            .request('GET', paths[(n + c) % paths.length]!, { timeout: 10_000 })
            .catch(() => ({ status: 0 }));
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      });
      try {
        await new Promise((resolve) => setTimeout(resolve, 500));
        topology.stopReplica();
        await replica.knex.destroy();
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(replicas.state()[0]!.serving, 'a stopped replica is out of rotation').to.equal(false);
        topology.startReplica();
        const back = performance.now();
        // Back in rotation, and serving reads: the standby's own statement count grows.
        replica = connect(url(topology.env.PG_REPLICA_URL!), { pool: { min: 0, max: 2 } });
        await replica.knex.raw('select pg_stat_statements_reset()');
        let recovered: number | undefined;
        while (performance.now() - back < 5000) {
          if (replicas.state()[0]!.serving && (await statements(replica, name)) > 0) {
            recovered = performance.now() - back;
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        console.log(
          `      replica back in rotation ${recovered === undefined ? 'never' : `${Math.round(recovered)} ms`} after it returned`,
        );
        expect(recovered, 'recovery time').to.be.a('number').below(2000);
        await new Promise((resolve) => setTimeout(resolve, 300));
      } finally {
        running = false;
        await Promise.all(clients);
      }
      const total = [...statuses.values()].reduce((a, b) => a + b, 0);
      const failed = [...statuses].filter(([s]) => s !== 200);
      // The server reads again on the primary when the replica fails, so even requests in flight get answers.
      expect(failed, `${total} requests: ${JSON.stringify([...statuses])}`).to.deep.equal([]);
      expect(total).to.be.above(100);
    });
  });
}
