import { connect, disconnect, type Database } from '@colapi/sql-compiler';
import { createLibrary, testDatabaseOrSkip, testedKinds, type TestDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { readCatalogue, registryFromCatalogue, type Catalogue, type CatalogueTable } from '../src/index.js';

for (const kind of testedKinds()) {
  describe(`readCatalogue on a schema made with DDL [${kind}]`, function () {
    this.timeout(60_000);
    let db: TestDatabase | undefined;
    let database: Database;
    let catalogue: Catalogue;
    const table = (name: string): CatalogueTable => {
      const t = catalogue.tables.find((x) => x.name === name);
      if (!t) throw new Error(`no table ${name}`);
      return t;
    };
    const column = (t: string, c: string) => table(t).columns.find((x) => x.name === c)!;

    before(async function () {
      db = await testDatabaseOrSkip(this, kind);
      database = connect(db!.url, { pool: { min: 0, max: 2 } });
      await createLibrary(database.knex, kind);
      catalogue = await readCatalogue(database);
    });
    after(async () => {
      if (database) await disconnect(database);
      await db?.drop();
    });

    it('lists the tables and the view, in name order, and no system table', () => {
      expect(catalogue.dialect).to.equal(kind);
      expect(catalogue.tables.map((t) => `${t.name}:${t.kind}`)).to.deep.equal([
        'author:table',
        'book:table',
        'book_summary:view',
        'book_tag:table',
        'category:table',
        'edition:table',
        'profile:table',
        'tag:table',
      ]);
    });

    it('reads columns in order, with their types, nullability, defaults and lengths', () => {
      expect(table('book').columns.map((c) => [c.name, c.type, c.nullable])).to.deep.equal([
        ['id', 'integer', false],
        ['title', 'string', false],
        ['author_id', 'integer', false],
        ['editor_id', 'integer', true],
        ['category_id', 'integer', true],
        ['published_on', 'date', true],
        ['price', 'decimal', true],
        ['pages', 'integer', true],
        ['added_at', 'datetime', false],
      ]);
      expect(column('book', 'title').maxLength).to.equal(200);
      expect(column('book', 'id').autoIncrement).to.equal(true);
      expect(column('book', 'title').autoIncrement).to.equal(false);
      expect(column('book', 'added_at').hasDefault).to.equal(true);
      expect(column('book', 'pages').hasDefault).to.equal(false);
      expect(column('author', 'active')).to.include({ type: 'boolean', nullable: false });
      expect(column('author', 'active').hasDefault).to.equal(true);
      expect(column('author', 'email').hasDefault).to.equal(false);
    });

    it('reads bytes, arrays and decimals with what their types need, and which columns are computed', () => {
      expect(column('author', 'photo').type).to.equal('binary');
      expect(column('book', 'price').detail).to.deep.equal({ precision: 8, scale: 2 });
      expect(column('author', 'name_length').computed).to.equal(true);
      expect(column('author', 'name').computed).to.equal(false);
      if (kind === 'postgres')
        expect(column('author', 'nicknames')).to.deep.include({
          type: 'array',
          sqlType: 'text[]',
          detail: { items: 'string', sqlType: 'text[]' },
        });
    });

    it('reads primary keys, unique constraints and foreign keys', () => {
      expect(table('book_tag').primaryKey).to.deep.equal(['book_id', 'tag_id']);
      expect(table('edition').primaryKey).to.deep.equal(['book_id', 'number']);
      expect(table('author').uniques).to.deep.equal([['email']]);
      expect(table('tag').uniques).to.deep.equal([['name']]);
      expect(table('book').foreignKeys).to.deep.equal([
        { columns: ['author_id'], table: 'author', references: ['id'] },
        { columns: ['editor_id'], table: 'author', references: ['id'] },
        { columns: ['category_id'], table: 'category', references: ['id'] },
      ]);
      expect(table('category').foreignKeys).to.deep.equal([
        { columns: ['parent_id'], table: 'category', references: ['id'] },
      ]);
    });

    it('reads a view without keys, with the types of the columns it shows', () => {
      const view = table('book_summary');
      expect(view.primaryKey).to.deep.equal([]);
      expect(view.columns.map((c) => [c.name, c.type])).to.deep.equal([
        ['id', 'integer'],
        ['title', 'string'],
        ['pages', 'integer'],
        ['author_name', 'string'],
      ]);
    });

    it('derives the relationships, and warns of what it leaves out', () => {
      const { registry, warnings } = registryFromCatalogue(catalogue);
      expect([...registry.collections.keys()]).to.deep.equal([
        'author',
        'book',
        'book_summary',
        'category',
        'edition',
        'profile',
        'tag',
      ]);
      const rels = (c: string) =>
        [...registry.collection(c)!.relationships.values()].map((r) => `${r.name}:${r.cardinality}:${r.target}`);
      expect(rels('author')).to.deep.equal([
        'books_by_author:many:Book',
        'books_by_editor:many:Book',
        'profile:one:Profile',
      ]);
      expect(rels('book')).to.deep.equal([
        'author:one:Author',
        'editor:one:Author',
        'category:one:Category',
        'editions:many:Edition',
        'tags:many:Tag',
      ]);
      expect(rels('category')).to.deep.equal(['parent:one:Category', 'books:many:Book', 'categories:many:Category']);
      expect(rels('tag')).to.deep.equal(['books:many:Book']);
      expect(registry.collection('book_summary')!.methods).to.deep.equal(new Set(['GET']));
      // Bytes are served (base64), a computed column read-only: neither is left out.
      expect(warnings.filter((w) => w.startsWith('author.'))).to.deep.equal([]);
      expect(registry.collection('author')!.columns.get('photo')).to.include({ type: 'binary' });
      expect(registry.collection('author')!.columns.get('name_length')).to.include({ readOnly: true });
      expect(warnings.filter((w) => w.startsWith('edition'))).to.deep.equal([]);
      expect(registry.collection('edition')!.model.keyColumns).to.deep.equal(['book_id', 'number']);
      expect(warnings.filter((w) => w.startsWith('book_tag'))).to.deep.equal([]);
    });

    if (kind === 'postgres') {
      it('reads a key by its key columns only, not the columns an index INCLUDEs (Pagila actor)', async () => {
        await database.knex.raw(
          'create table stocked (id integer, code text not null, note text, constraint stocked_pkey primary key (id) include (note), constraint stocked_code unique (code) include (note, id))',
        );
        try {
          const t = (await readCatalogue(database)).tables.find((x) => x.name === 'stocked')!;
          expect(t.primaryKey).to.deep.equal(['id']);
          expect(t.uniques).to.deep.include(['code']);
        } finally {
          await database.knex.raw('drop table stocked');
        }
      });
    }

    it('reads a table added later (what a reload sees)', async () => {
      await database.knex.raw('create table shelf (id integer primary key, label varchar(20))');
      const again = await readCatalogue(database);
      expect(again.tables.map((t) => t.name)).to.include('shelf');
      await database.knex.raw('drop table shelf');
    });
  });
}
