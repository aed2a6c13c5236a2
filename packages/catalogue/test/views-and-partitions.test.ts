import { connect, disconnect, type Database } from '@colapi/sql-compiler';
import { testDatabaseOrSkip, testedKinds, type TestDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { readCatalogue, registryFromCatalogue, type Catalogue, type CatalogueTable } from '../src/index.js';

/** Views every database has: over one table, over a join, a union, an aggregate. */
const VIEWS = [
  'create table maker (id integer primary key, name varchar(40) not null)',
  'create table gadget (code varchar(10) primary key, label varchar(40) not null, maker_id integer references maker (id))',
  // Over one table: the key under another name, filtered.
  "create view gadget_card as select code as ref, label from gadget where label <> ''",
  // A join repeats a gadget's code for every row it meets: never its key.
  'create view gadget_maker as select g.code, m.name from gadget g join maker m on m.id = g.maker_id',
  'create view coded as select code from gadget union all select code from gadget',
  'create view by_maker as select maker_id, count(*) as gadgets from gadget group by maker_id',
];

for (const kind of testedKinds()) {
  describe(`views: the key of the one table a view reads [${kind}]`, function () {
    this.timeout(60_000);
    let db: TestDatabase | undefined;
    let database: Database;
    let catalogue: Catalogue;
    const table = (name: string): CatalogueTable => catalogue.tables.find((x) => x.name === name)!;

    before(async function () {
      db = await testDatabaseOrSkip(this, kind);
      database = connect(db!.url, { pool: { min: 0, max: 2 } });
      for (const ddl of VIEWS) await database.knex.raw(ddl);
      catalogue = await readCatalogue(database);
    });
    after(async () => {
      if (database) await disconnect(database);
      await db?.drop();
    });

    it(
      kind === 'postgres'
        ? 'keys a view over one table by the column showing its key, under another name'
        : 'cannot tell which column of a view shows its base key: the view is left out, with a warning',
      () => {
        const { registry, warnings } = registryFromCatalogue(catalogue);
        if (kind === 'postgres') {
          expect(table('gadget_card').baseKeys).to.deep.equal(['ref']);
          expect(registry.collection('gadget_card')!.model.key).to.equal('ref');
          expect([...registry.collection('gadget_card')!.methods]).to.deep.equal(['GET']);
        } else {
          expect(table('gadget_card').baseKeys).to.equal(undefined);
          expect(registry.collection('gadget_card')).to.equal(undefined);
          expect(warnings).to.include(
            'gadget_card: a view without an id column, a unique index, or a column showing the key of the one table it reads: left out (name a unique column as tables.gadget_card.key to serve it)',
          );
        }
      },
    );

    it('never keys a view by a base key a join, a union or a grouping may repeat', () => {
      const { registry } = registryFromCatalogue(catalogue);
      for (const name of ['gadget_maker', 'coded', 'by_maker']) {
        expect(table(name).baseKeys, name).to.equal(undefined);
        expect(registry.collection(name), name).to.equal(undefined);
      }
    });
  });
}

if (testedKinds().includes('postgres')) {
  describe('views, materialized views and partitioned tables [postgres]', function () {
    this.timeout(60_000);
    let db: TestDatabase | undefined;
    let database: Database;
    let catalogue: Catalogue;
    const table = (name: string): CatalogueTable => {
      const t = catalogue.tables.find((x) => x.name === name);
      if (!t) throw new Error(`no table ${name}`);
      return t;
    };

    before(async function () {
      db = await testDatabaseOrSkip(this, 'postgres');
      database = connect(db!.url, { pool: { min: 0, max: 2 } });
      for (const ddl of [
        ...VIEWS,
        // Over one table, in shapes that keep its rows apart.
        'create view gadget_plain as select code, label from gadget',
        'create view gadget_distinct as select distinct code, upper(label) as shout from gadget order by code limit 100',
        // Names the stored query escapes, and one that looks like a field of it.
        `create view gadget_odd as select label as ":resno", code as "key (the {odd} \\one)" from gadget where label <> ') {x'`,
        'create view gadget_exists as select code from gadget g where exists (select 1 from maker m where m.id = g.maker_id)',
        // And shapes that do not, or that the rule does not follow.
        'create view gadget_two as select g.code from gadget g, maker m',
        'create view gadget_sub as select s.code from (select code from gadget) s',
        'create view gadget_view_of_view as select ref from gadget_card',
        'create view gadget_srf as select code, unnest(array[1, 2]) as n from gadget',
        'create view gadget_grouped as select code, count(*) as n from gadget group by code',
        "create view gadget_computed as select code || '' as code from gadget",
        // A unique not-null column is a key; a nullable one is not.
        'create table sku (n integer, tag varchar(10) not null unique, nick varchar(10) unique)',
        'create view sku_tags as select nick, tag from sku',
        'create view sku_nicks as select nick from sku',
        // A table with inheritance children: a read of it reads theirs, which its key does not cover.
        'create table animal (id integer primary key, name text)',
        'create table dog (breed text) inherits (animal)',
        'create view animal_names as select id, name from animal',
        'create view animal_only as select id, name from only animal',
        // Materialized views: keyed by a unique index, or like a view.
        'create materialized view maker_stats as select m.id as maker, count(g.code) as gadgets from maker m left join gadget g on g.maker_id = m.id group by m.id',
        'create unique index on maker_stats (maker)',
        'create materialized view gadget_snapshot as select code, label from gadget',
        'create materialized view gadget_pending as select code, label from gadget with no data',
        // A partitioned table with a key of its own, referred to by a foreign key.
        'create table reading (id integer primary key, maker_id integer references maker (id), value integer) partition by range (id)',
        'create table reading_low partition of reading for values from (minvalue) to (1000)',
        'create table reading_high partition of reading for values from (1000) to (maxvalue)',
        'create table note (id integer primary key, reading_id integer references reading (id), text text)',
        // Without one: its partitions' keys and foreign keys, one level down and two, one in another schema.
        'create table sale (id integer not null, sold_on date not null, gadget_code varchar(10) not null, amount numeric) partition by range (sold_on)',
        "create table sale_2024 partition of sale (primary key (id), foreign key (gadget_code) references gadget (code)) for values from ('2024-01-01') to ('2025-01-01')",
        "create table sale_2025 partition of sale (primary key (id), foreign key (gadget_code) references gadget (code)) for values from ('2025-01-01') to ('2026-01-01') partition by hash (id)",
        // Its key and foreign key are copied to its partitions.
        'create table sale_2025_a partition of sale_2025 for values with (modulus 2, remainder 0)',
        'create table sale_2025_b partition of sale_2025 for values with (modulus 2, remainder 1)',
        'create schema archive',
        "create table archive.sale_2023 partition of sale (primary key (id), foreign key (gadget_code) references gadget (code)) for values from ('2023-01-01') to ('2024-01-01')",
        // Partitions that do not agree on a key.
        'create table event (id integer not null, at date not null) partition by range (at)',
        "create table event_a partition of event (primary key (id)) for values from ('2024-01-01') to ('2025-01-01')",
        "create table event_b partition of event for values from ('2025-01-01') to ('2026-01-01')",
        // Partitions that key themselves by different columns share no key.
        'create table tally (a integer not null, b integer not null, at date not null) partition by range (at)',
        "create table tally_a partition of tally (primary key (a)) for values from ('2024-01-01') to ('2025-01-01')",
        "create table tally_b partition of tally (primary key (b)) for values from ('2025-01-01') to ('2026-01-01')",
      ]) {
        await database.knex.raw(ddl);
      }
      catalogue = await readCatalogue(database);
    });
    after(async () => {
      if (database) await disconnect(database);
      await db?.drop();
    });

    it('finds the key of the one table a view reads, through filters, DISTINCT, LIMIT and subqueries in WHERE', () => {
      expect(table('gadget_plain').baseKeys).to.deep.equal(['code']);
      expect(table('gadget_distinct').baseKeys).to.deep.equal(['code']);
      expect(table('gadget_exists').baseKeys).to.deep.equal(['code']);
      expect(table('gadget_odd').baseKeys).to.deep.equal(['key (the {odd} \\one)']);
      expect(table('sku_tags').baseKeys).to.deep.equal(['tag']);
      expect(table('animal_only').baseKeys).to.deep.equal(['id']);
    });

    it('finds none where rows may repeat or the rule does not follow the query', () => {
      for (const name of [
        'gadget_two',
        'gadget_sub',
        'gadget_view_of_view',
        'gadget_srf',
        'gadget_grouped',
        'gadget_computed',
        'sku_nicks',
        'animal_names',
        'maker_stats',
      ]) {
        expect(table(name).baseKeys, name).to.equal(undefined);
      }
    });

    it('reads materialized views as views: keyed by a unique index, or by the key of the one table they read', () => {
      expect(table('maker_stats')).to.include({ kind: 'view' });
      expect(table('maker_stats').uniques).to.deep.equal([['maker']]);
      expect(table('gadget_snapshot').baseKeys).to.deep.equal(['code']);
      const { registry } = registryFromCatalogue(catalogue);
      expect(registry.collection('maker_stats')!.model.key).to.equal('maker');
      expect([...registry.collection('maker_stats')!.methods]).to.deep.equal(['GET']);
      expect(registry.collection('gadget_snapshot')!.model.key).to.equal('code');
      expect(registry.collection('gadget_pending')!.model.key).to.equal('code');
    });

    it('reads a partitioned table as one table, with its partitions, and hides the partitions', () => {
      const names = catalogue.tables.map((t) => t.name);
      expect(names).to.include.members(['reading', 'sale', 'event', 'tally']);
      expect(names.filter((n) => /^(reading|sale|event|tally)_/.test(n))).to.deep.equal([]);
      expect(table('reading')).to.deep.include({
        kind: 'table',
        primaryKey: ['id'],
        partitions: ['reading_high', 'reading_low'],
        foreignKeys: [{ columns: ['maker_id'], table: 'maker', references: ['id'] }],
      });
      expect(table('sale').partitions).to.deep.equal([
        'archive.sale_2023',
        'sale_2024',
        'sale_2025',
        'sale_2025_a',
        'sale_2025_b',
      ]);
    });

    it('keys a partitioned table without a key of its own by the key every partition declares, and gives it their foreign keys', () => {
      expect(table('sale')).to.deep.include({
        primaryKey: [],
        partitionKeys: [['id']],
        foreignKeys: [{ columns: ['gadget_code'], table: 'gadget', references: ['code'] }],
      });
      // A partition that declares no key (Pagila's payment_p0000_default) does not veto the others' key.
      expect(table('event').partitionKeys).to.deep.equal([['id']]);
      expect(table('tally').partitionKeys).to.deep.equal([]);
      const { registry, warnings } = registryFromCatalogue(catalogue);
      expect(registry.collection('sale')!.model.key).to.equal('id');
      expect([...registry.collection('sale')!.model.relationships.keys()]).to.deep.equal(['gadget_code_gadget']);
      expect(registry.collection('event')!.model.key).to.equal('id');
      expect(registry.collection('tally')).to.equal(undefined);
      expect(warnings).to.include.members([
        'reading_high, reading_low: partitions of reading, served through it',
        'archive.sale_2023, sale_2024, sale_2025, sale_2025_a, sale_2025_b: partitions of sale, served through it; keyed by id, a key of each partition, which PostgreSQL holds unique within a partition only',
        'event_a, event_b: partitions of event, served through it; keyed by id, a key of each partition that declares one (event_b declares none), which PostgreSQL holds unique within a partition only',
        'tally: a partitioned table without a primary key or unique not-null column, whose partitions share no one-column key: left out (name a unique column as tables.tally.key to serve it)',
      ]);
      expect(warnings.join('\n')).not.to.match(/tally_a|tally_b/);
    });

    it('relates a partitioned table by the foreign keys to and from it, not to its partitions', () => {
      expect(table('note').foreignKeys).to.deep.equal([
        { columns: ['reading_id'], table: 'reading', references: ['id'] },
      ]);
      const { registry } = registryFromCatalogue(catalogue);
      const reading = registry.collection('reading')!.model;
      expect([...reading.relationships.keys()]).to.deep.equal(['maker', 'notes']);
      expect(registry.collection('note')!.model.relationships.get('reading')!.target).to.equal('Reading');
    });

    it("reads them without waiting behind a migration's lock on a partition, a view or its table, or a refresh", async () => {
      const holder = connect(db!.url, { pool: { min: 0, max: 1 } });
      try {
        await holder.knex.transaction(async (trx) => {
          for (const name of ['sale_2025_a', 'archive.sale_2023', 'reading_low', 'gadget', 'gadget_card'])
            await trx.raw(`lock table ${name} in access exclusive mode`);
          // A refresh holds its materialized view so until it commits.
          await trx.raw('refresh materialized view maker_stats');
          const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('waited'), 5000));
          const read = readCatalogue(database).then((c) => c.tables.find((t) => t.name === 'sale')?.partitionKeys);
          expect(await Promise.race([read, timeout])).to.deep.equal([['id']]);
        });
      } finally {
        await disconnect(holder);
      }
    });

    it('names at most ten partitions in the line, and counts the rest', async () => {
      const many: CatalogueTable = {
        ...table('reading'),
        partitions: Array.from({ length: 12 }, (_, i) => `reading_${String(i).padStart(2, '0')}`),
      };
      const { warnings } = registryFromCatalogue({ ...catalogue, tables: [many, table('maker'), table('note')] });
      expect(warnings).to.include(
        'reading_00, reading_01, reading_02, reading_03, reading_04, reading_05, reading_06, reading_07, reading_08, reading_09 and 2 more: partitions of reading, served through it',
      );
    });
  });
}
