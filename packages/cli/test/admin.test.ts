import { connect, disconnect } from '@colapi/sql-compiler';
import {
  createLibrary,
  prometheusSample,
  testDatabaseOrSkip,
  testedKinds,
  type TestDatabase,
} from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { colapi, freePort, line, stop, type Run } from './colapi-process.js';
import { slowCreate } from './slow-create.js';

const JSONAPI = 'application/vnd.api+json';

const sample = prometheusSample;

describe('colapi serve --admin-port: probes, metrics and draining', function () {
  this.timeout(90_000);

  for (const kind of testedKinds()) {
    describe(`on ${kind}`, () => {
      let db: TestDatabase | undefined;
      let run: Run | undefined;
      let origin: string;
      let admin: string;
      const grace = 3;

      before(async function () {
        db = await testDatabaseOrSkip(this, kind, 'colapi_i31a_');
        const sql = connect(db!.url, { pool: { min: 0, max: 1 } });
        try {
          await createLibrary(sql.knex, kind);
        } finally {
          await disconnect(sql);
        }
        run = colapi([
          'serve',
          db!.url,
          '--port',
          '0',
          '--admin-port',
          String(await freePort()),
          '--grace',
          String(grace),
        ]);
        origin = (await line(run, /^listening on (\S+)$/))[1]!;
        admin = (await line(run, /^admin on (\S+) /))[1]!;
      });

      after(async () => {
        await stop(run);
        await db?.drop();
      });

      it('answers /live and /ready with 200 and JSON naming every check', async () => {
        const live = await fetch(`${admin}/live`);
        expect(live.status).to.equal(200);
        const ready = await fetch(`${admin}/ready`);
        expect(ready.status).to.equal(200);
        expect(ready.headers.get('content-type')).to.equal('application/json');
        expect(await ready.json()).to.deep.equal({
          ready: true,
          checks: { catalogue: 'ok', primary: 'ok', draining: 'ok' },
          failed: [],
        });
      });

      it('keeps the admin paths off the API port, and the API off the admin port', async () => {
        for (const path of ['/live', '/ready', '/metrics']) {
          const r = await fetch(`${origin}${path}`);
          const text = await r.text();
          expect(text).not.to.contain('colapi_http_request_duration_seconds');
          expect(text).not.to.contain('"checks"');
        }
        expect((await fetch(`${admin}/api/tag`)).status).to.equal(404);
      });

      it('counts requests by collection from the registry, operation, method and status class; statements by outcome', async () => {
        const get = (path: string) => fetch(`${origin}${path}`, { headers: { accept: JSONAPI } });
        for (let i = 0; i < 3; i++) expect((await get('/api/tag')).status).to.equal(200);
        expect((await get('/api/tag/987654')).status).to.equal(404);
        expect((await get('/api/no_such_collection/12345')).status).to.equal(404);
        const create = () =>
          fetch(`${origin}/api/tag`, {
            method: 'POST',
            headers: { 'content-type': JSONAPI, accept: JSONAPI },
            body: JSON.stringify({ data: { type: 'tag', attributes: { name: 'twice' } } }),
          });
        expect((await create()).status).to.equal(201);
        expect((await create()).status).to.equal(409);
        const r = await fetch(`${admin}/metrics`);
        expect(r.status).to.equal(200);
        expect(r.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
        const text = await r.text();
        const count = (labels: Record<string, string>) =>
          sample(text, 'colapi_http_request_duration_seconds_count', labels);
        expect(count({ collection: 'tag', operation: 'list', method: 'GET', status_class: '2xx' })).to.equal(3);
        expect(count({ collection: 'tag', operation: 'fetch', method: 'GET', status_class: '4xx' })).to.equal(1);
        expect(count({ collection: 'tag', operation: 'create', method: 'POST', status_class: '2xx' })).to.equal(1);
        expect(count({ collection: 'tag', operation: 'create', method: 'POST', status_class: '4xx' })).to.equal(1);
        // The unknown collection is not a label value, and no id is.
        expect(count({ collection: 'none', operation: 'none', method: 'GET', status_class: '4xx' })).to.equal(1);
        expect(text).not.to.contain('no_such_collection');
        expect(text).not.to.contain('987654');
        expect(sample(text, 'colapi_http_requests_in_flight')).to.equal(0);
        expect(sample(text, 'colapi_statements_total', { outcome: 'ok' })).to.be.greaterThan(3);
        expect(sample(text, 'colapi_statements_total', { outcome: 'unique-violation' })).to.equal(1);
        expect(sample(text, 'colapi_statement_timeouts_total')).to.equal(0);
        expect(sample(text, 'colapi_transaction_retries_total')).to.equal(0);
        // A connection the statements hold between them (SQLite's) counts as in use.
        const open =
          sample(text, 'colapi_pool_connections_in_use', { pool: 'primary' })! +
          sample(text, 'colapi_pool_connections_idle', { pool: 'primary' })!;
        expect(open).to.be.at.least(1);
        expect(sample(text, 'colapi_pool_acquires_waiting', { pool: 'primary' })).to.equal(0);
        expect(sample(text, 'colapi_catalogue_reloads_total', { outcome: 'ok' })).to.equal(undefined);
        expect(sample(text, 'process_cpu_user_seconds_total')).to.be.a('number');
      });

      it('counts a catalogue reload', async () => {
        const before = run!.stdout.split('\n').filter((l) => l.startsWith('reloaded:')).length;
        run!.child.kill('SIGHUP');
        await line(run!, /^reloaded:/, before + 1);
        const text = await (await fetch(`${admin}/metrics`)).text();
        expect(sample(text, 'colapi_catalogue_reloads_total', { outcome: 'ok' })).to.equal(1);
        // The new generation's pool is the one reported, and the old one's statements stay counted.
        expect(sample(text, 'colapi_pool_connections_idle', { pool: 'primary' })).to.be.a('number');
        expect((await fetch(`${admin}/ready`)).status).to.equal(200);
      });

      it('on SIGTERM: /ready 503 at once, every request under load answered through the grace period and the close, exit 0', async () => {
        const statuses: number[] = [];
        const failures: unknown[] = [];
        let loading = true;
        const loop = async () => {
          while (loading) {
            try {
              const r = await fetch(`${origin}/api/tag`, { headers: { accept: JSONAPI } });
              await r.arrayBuffer();
              statuses.push(r.status);
            } catch (error) {
              failures.push(error);
            }
          }
        };
        const loops = [loop(), loop(), loop(), loop()];
        await sleep(300);
        const signalled = performance.now();
        run!.child.kill('SIGTERM');
        // At once: the first probe after the signal that finds the process draining, well inside the grace.
        let ready: Response;
        for (;;) {
          ready = await fetch(`${admin}/ready`);
          if (ready.status === 503 || performance.now() - signalled > 1000) break;
          await sleep(20);
        }
        expect(ready.status).to.equal(503);
        const body = (await ready.json()) as { ready: boolean; failed: string[]; checks: Record<string, string> };
        expect(body.ready).to.equal(false);
        expect(body.failed).to.deep.equal(['draining']);
        expect(body.checks.primary).to.equal('ok');
        // A request that begins before the listener closes (at `grace`) and ends after it.
        await sleep(Math.max(0, grace * 1000 - 1000 - (performance.now() - signalled)));
        const slowMs = 2500;
        const slow = slowCreate(origin, 'slow', slowMs);
        // The load goes on through most of the grace period (a load balancer takes a moment to notice).
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
        // Within grace + the longest request, with a margin for a loaded machine.
        expect(exitedAfter).to.be.at.least(grace);
        expect(exitedAfter).to.be.below(grace + answered.took / 1000 + 2);
      });
    });
  }
});
