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

/** A NUMERIC(10,2) column in each database's words, and how to read it back as the text it holds. */
const SCHEMA: Readonly<Record<DatabaseKind, { create: string; text: string }>> = {
  postgres: { create: 'create table price (id serial primary key, amount numeric(10,2))', text: 'amount::text' },
  mysql: {
    create: 'create table price (id int auto_increment primary key, amount decimal(10,2))',
    text: 'cast(amount as char)',
  },
  sqlite: { create: 'create table price (id integer primary key, amount numeric(10,2))', text: 'cast(amount as text)' },
};

for (const kind of testedKinds()) {
  describe(`colapi serve: a NUMERIC(10,2) column holds what it declares, on SQLite too [${kind}]`, function () {
    this.timeout(60_000);
    let db: TestDatabase | undefined;
    let sql: Database;
    let jsonapi: CatalogueServer | undefined;
    let legacy: CatalogueServer | undefined;
    let a: HttpClient;
    let b: HttpClient;
    const storedAmounts = async (): Promise<string[]> =>
      (
        await sql
          .knex('price')
          .orderBy('id')
          .select(sql.knex.raw(`${SCHEMA[kind]!.text} as t`))
      ).map((r: { t: string }) => r.t);

    before(async function () {
      db = await testDatabaseOrSkip(this, kind);
      sql = connect(db!.url, { pool: { min: 0, max: 1 } });
      await sql.knex.raw(SCHEMA[kind]!.create);
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

    it('serves it as an exact decimal with the precision and scale it declares', () => {
      const amount = jsonapi!.current().registry.collection('price')!.model.columns.get('amount')!;
      expect([amount.type, amount.precision, amount.scale]).to.deep.equal(['decimal', 10, 2]);
    });

    it('refuses more integer digits than it holds with a 400 naming the field, and writes nothing', async () => {
      for (const amount of [1e10, '1e10', '99999999.995', -123456789]) {
        const res = await a.post('/api/price', { data: { type: 'price', attributes: { amount } } });
        expect(res.status, String(amount)).to.equal(400);
        expect(res.body.errors[0].source).to.deep.equal({ pointer: '/data/attributes/amount' });
        expect(res.body.errors[0].detail).to.contain('"amount"');
        const legacyRes = await b.post('/api/price', { amount });
        expect(legacyRes.status, String(amount)).to.equal(400);
        expect(legacyRes.body.message).to.contain('"amount"');
      }
      expect(await storedAmounts()).to.deep.equal([]);
    });

    it('rounds to its scale half away from zero, as PostgreSQL does, and stores the rounded value', async () => {
      const amounts: string[] = [];
      for (const amount of [1.005, '-1.005', '2.344', 99999999.99]) {
        const res = await a.post('/api/price', { data: { type: 'price', attributes: { amount } } });
        expect(res.status, String(amount)).to.equal(201);
        amounts.push(String(res.body.data.attributes.amount));
      }
      expect(amounts).to.deep.equal(['1.01', '-1.01', '2.34', '99999999.99']);
      expect(await storedAmounts()).to.deep.equal(['1.01', '-1.01', '2.34', '99999999.99']);
      const patched = await b.patch('/api/price/1', { amount: '0.125' });
      expect(patched.status).to.equal(200);
      expect(String(patched.body.amount)).to.equal('0.13');
    });
  });
}
