import { connect, disconnect, type Database } from '@colapi/sql-compiler';
import { HttpClient, testDatabaseOrSkip, testedKinds, type TestDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { serveCatalogue } from '../src/index.js';

if (testedKinds().includes('postgres')) {
  describe('colapi serve --schema (PostgreSQL)', function () {
    this.timeout(60_000);
    let db: TestDatabase | undefined;
    let sql: Database;

    before(async function () {
      db = await testDatabaseOrSkip(this, 'postgres');
      sql = connect(db!.url, { pool: { min: 0, max: 1 } });
      // A table of the same name in public, so that reading the wrong one would show.
      await sql.knex.raw('create table public.item (id serial primary key, other text)');
      await sql.knex.raw('create schema shop');
      await sql.knex.raw('create table shop.maker (id serial primary key, name text not null)');
      await sql.knex.raw(
        'create table shop.item (id serial primary key, label varchar(30) not null, maker_id integer references shop.maker (id))',
      );
      await sql.knex.raw("insert into shop.maker (name) values ('Acme')");
      await sql.knex.raw("insert into shop.item (label, maker_id) values ('anvil', 1)");
    });
    after(async () => {
      if (sql) await disconnect(sql);
      await db?.drop();
    });

    for (const [how, options] of [
      ['--schema', { schema: 'shop' }],
      ['the configuration', { config: { schema: 'shop' } }],
    ] as const) {
      it(`serves the tables of the schema named by ${how}, reading and writing there`, async () => {
        const served = await serveCatalogue({ databaseUrl: db!.url, ...options });
        try {
          expect([...served.current().registry.collections.keys()]).to.deep.equal(['item', 'maker']);
          const http = new HttpClient(served.origin, 'application/vnd.api+json');
          const items = await http.get('/api/item?include=maker');
          expect(items.body.data.map((r: { attributes: unknown }) => r.attributes)).to.deep.equal([{ label: 'anvil' }]);
          expect(items.body.included[0].attributes).to.deep.equal({ name: 'Acme' });
          const created = await http.post('/api/item', { data: { type: 'item', attributes: { label: 'rope' } } });
          expect(created.status).to.equal(201);
          const [{ n }] = (await sql.knex.raw('select count(*)::int as n from shop.item')).rows;
          expect(n).to.equal(2);
          await sql.knex.raw("delete from shop.item where label = 'rope'");
        } finally {
          await served.close(500);
        }
      });
    }
  });
}
