import { expect } from 'chai';
import { emptyReadQuery } from '@colapi/query-ast';
import { defineModel, Registry } from '@colapi/schema';
import { runList, runStatement, SqlCompiler, type Database, type Relations, type Statement } from '../src/index.js';
import { scratchDatabaseOrSkip, TESTED_DIALECTS, type ScratchDatabase } from './support/scratch-database.js';
import { tenant } from './support/tenants.js';

/**
 * A to-one under a scope on its target, whose key is text: the linkage is the row's foreign key, shown only
 * where a probe of the target by that key finds it in scope (row-linkage.ts). City 2 (tenant 1) lies in
 * country DE (tenant 2), which tenant 1 cannot read.
 */
const tenantColumn = { name: 'tenant_id', type: 'integer', nullable: false } as const;
const country = defineModel({
  name: 'Country',
  table: 'tk_country',
  key: 'code',
  columns: [
    { name: 'code', type: 'string', nullable: false },
    { name: 'name', type: 'string', nullable: false },
    tenantColumn,
  ],
  relationships: [],
});
const city = defineModel({
  name: 'City',
  table: 'tk_city',
  columns: [
    { name: 'id', type: 'integer', nullable: false, generated: true },
    { name: 'name', type: 'string', nullable: false },
    tenantColumn,
    { name: 'country_code', type: 'string', nullable: true },
  ],
  relationships: [
    {
      name: 'country',
      cardinality: 'one',
      target: 'Country',
      join: { kind: 'belongs-to', ownColumn: 'country_code', targetColumn: 'code' },
    },
  ],
});
const registry = new Registry([
  { model: country, options: { name: 'country' } },
  { model: city, options: { name: 'city' } },
]);
const cities = registry.collection('city')!;
const showing: Relations = { shown: [...cities.relationships.values()], included: new Set() };

for (const name of TESTED_DIALECTS) {
  describe(`a scoped to-one with a text key [${name}]`, () => {
    let scratch: ScratchDatabase | undefined;
    let database: Database;
    let scoped: SqlCompiler;
    const run = <T>(statement: Statement<T>) => runStatement(database.knex, database.dialect, statement);

    before(async function () {
      this.timeout(30_000);
      scratch = await scratchDatabaseOrSkip(this, name);
      database = scratch.database;
      const { knex } = database;
      await knex.schema.createTable('tk_country', (t) => {
        t.string('code', 2).primary();
        t.string('name').notNullable();
        t.integer('tenant_id').notNullable();
      });
      await knex.schema.createTable('tk_city', (t) => {
        t.increments('id');
        t.string('name').notNullable();
        t.integer('tenant_id').notNullable();
        t.string('country_code', 2).references('tk_country.code');
      });
      await knex('tk_country').insert([
        { code: 'FR', name: 'France', tenant_id: 1 },
        { code: 'DE', name: 'Germany', tenant_id: 2 },
      ]);
      await knex('tk_city').insert([
        { name: 'Paris', tenant_id: 1, country_code: 'FR' },
        { name: 'Aachen', tenant_id: 1, country_code: 'DE' },
        { name: 'Nowhere', tenant_id: 1, country_code: null },
      ]);
      scoped = new SqlCompiler(knex, database.dialect, registry).scoped({ read: () => tenant(1) });
    });
    after(async () => {
      await scratch?.drop();
    });

    it('shows a readable country, and no key of a hidden one, by key and on a first page', async () => {
      const linkageOf = async (id: number) => Object.fromEntries((await run(scoped.row(city, id, showing)))!.linkage);
      expect(await linkageOf(1)).to.deep.equal({ country: 'FR' });
      expect(await linkageOf(2)).to.deep.equal({ country: null });
      expect(await linkageOf(3)).to.deep.equal({ country: null });
      const page = await runList(
        database.knex,
        database.dialect,
        scoped.list({
          collection: cities,
          query: { ...emptyReadQuery(), paging: { offset: 0, limit: 10 } },
          relations: showing,
        }),
      );
      expect(page.rows.map((r) => [r.values.id, r.linkage.get('country')])).to.deep.equal([
        [1, 'FR'],
        [2, null],
        [3, null],
      ]);
    });

    it('reads it by a probe of the country by key, not by a list of keys', () => {
      const { sql } = scoped.row(city, 1, showing);
      expect(sql).to.match(/exists \(select 1 from ["`]tk_country["`]/i);
      expect(sql).to.not.match(/group_concat|array\(|array_to_string/i);
    });

    it('a create answers the readable country, and is refused for a hidden one', async function () {
      const { dialect, knex } = database;
      if (!dialect.returning && !(await dialect.returnsInsertedRows?.(knex))) this.skip();
      const created = await run(
        scoped.insertReturning(city, { name: 'Lyon', tenant_id: 1, country_code: 'FR' }, showing),
      );
      expect(Object.fromEntries(created.linkage)).to.deep.equal({ country: 'FR' });
      const refused = await run(
        scoped.insertReturning(city, { name: 'Bonn', tenant_id: 1, country_code: 'DE' }, showing),
      ).then(
        () => undefined,
        (e: unknown) => (e as { cause?: unknown }).cause,
      );
      expect(dialect.refused!(refused)).to.equal(true);
      expect(await knex('tk_city').where({ name: 'Bonn' }).first()).to.equal(undefined);
    });
  });
}
