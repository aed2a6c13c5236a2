import { connect, disconnect, type Database } from '@colapi/sql-compiler';
import {
  type DatabaseKind,
  HttpClient,
  testDatabaseOrSkip,
  testedKinds,
  type TestDatabase,
} from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { serveCatalogue, type CatalogueServer } from '../src/index.js';

/** Columns keeping 0, 3 and 6 fraction digits of a second, and a time keeping none, in each database's words. */
const SCHEMA: Readonly<Record<DatabaseKind, string>> = {
  postgres:
    'create table stamp (id serial primary key, whole timestamp(0), milli timestamp(3), micro timestamp, clock time(0))',
  mysql:
    'create table stamp (id int auto_increment primary key, whole datetime, milli datetime(3), micro datetime(6), clock time)',
  sqlite:
    'create table stamp (id integer primary key, whole datetime(0), milli datetime(3), micro datetime, clock time(0))',
};

for (const kind of testedKinds()) {
  describe(`colapi serve: a timestamp keeps the fraction digits its column declares, rounded half up [${kind}]`, function () {
    this.timeout(60_000);
    let db: TestDatabase | undefined;
    let sql: Database;
    let jsonapi: CatalogueServer | undefined;
    let legacy: CatalogueServer | undefined;
    let a: HttpClient;
    let b: HttpClient;

    before(async function () {
      db = await testDatabaseOrSkip(this, kind);
      sql = connect(db!.url, { pool: { min: 0, max: 1 } });
      await sql.knex.raw(SCHEMA[kind]!);
      jsonapi = await serveCatalogue({ databaseUrl: db!.url, format: 'jsonapi' });
      legacy = await serveCatalogue({ databaseUrl: db!.url, format: 'legacy' });
      a = new HttpClient(jsonapi.origin, 'application/vnd.api+json');
      b = new HttpClient(legacy.origin, 'application/json');
    });
    after(async () => {
      await jsonapi?.close(500);
      await legacy?.close(500);
      if (sql) await disconnect(sql);
      await db?.drop();
    });

    const create = async (attributes: Record<string, string>) => {
      const res = await a.post('/api/stamp', { data: { type: 'stamp', attributes } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.data as { id: string; attributes: Record<string, unknown> };
    };

    it('reads the digits each column keeps from the catalogue', () => {
      const columns = jsonapi!.current().registry.collection('stamp')!.model.columns;
      expect([...columns.values()].map((c) => [c.name, c.fractionDigits])).to.deep.equal([
        ['id', undefined],
        ['whole', 0],
        ['milli', 3],
        ['micro', undefined],
        ['clock', 0],
      ]);
    });

    it('rounds a write to them, half up, and answers and stores the rounded value', async () => {
      const created = await create({
        whole: '2021-01-01T10:00:00.5',
        milli: '2021-01-01T10:00:00.1235',
        micro: '2021-01-01T10:00:00.123456',
        clock: '10:00:00.5',
      });
      const expected = {
        whole: '2021-01-01T10:00:01',
        milli: '2021-01-01T10:00:00.124',
        micro: '2021-01-01T10:00:00.123456',
        clock: '10:00:01',
      };
      expect(created.attributes).to.deep.equal(expected);
      expect((await a.get(`/api/stamp/${created.id}`)).body.data.attributes).to.deep.equal(expected);
      const lower = await create({ whole: '2021-01-01T10:00:00.4999', milli: '2021-01-01T10:00:00.1234' });
      expect(lower.attributes).to.deep.include({ whole: '2021-01-01T10:00:00', milli: '2021-01-01T10:00:00.123' });
    });

    it('carries a rounding into the seconds, minutes, days and years', async () => {
      const created = await create({
        whole: '2021-12-31T23:59:59.5',
        milli: '2020-02-28T23:59:59.9996',
        clock: '23:59:59.5',
      });
      expect(created.attributes).to.deep.include({
        whole: '2022-01-01T00:00:00',
        milli: '2020-02-29T00:00:00',
        // PostgreSQL's own rounding of time(0); the wire writes no later time.
        clock: '24:00:00',
      });
    });

    it('rounds an update alike (Format B), and a filter finds the row by the rounded value', async () => {
      const { id } = await create({ whole: '2021-03-01T00:00:00' });
      const patched = await b.patch(`/api/stamp/${id}`, {
        whole: '2021-03-01T12:00:00.75',
        milli: '2021-03-01T12:00:00.0005',
      });
      expect(patched.status).to.equal(200);
      expect(patched.body).to.deep.include({ whole: '2021-03-01T12:00:01', milli: '2021-03-01T12:00:00.001' });
      const q = JSON.stringify({ filters: [{ name: 'whole', op: 'eq', val: '2021-03-01T12:00:01' }] });
      const found = await b.get(`/api/stamp?q=${encodeURIComponent(q)}`);
      expect(found.body.objects.map((o: { id: number }) => String(o.id))).to.deep.equal([id]);
    });
  });
}
