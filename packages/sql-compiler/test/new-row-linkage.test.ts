import { expect } from 'chai';
import { newRowEmptyRelations, type ForeignKey } from '../src/index.js';
import { eachDialect } from './support/each-dialect.js';
import { model, registry } from './support/library.js';

const LIBRARY_KEYS: ForeignKey[] = [
  { table: 'article', column: 'author_id', refTable: 'person', refColumn: 'id' },
  { table: 'comment', column: 'article_id', refTable: 'article', refColumn: 'id' },
  { table: 'article_tag', column: 'article_id', refTable: 'article', refColumn: 'id' },
  { table: 'article_tag', column: 'tag_id', refTable: 'tag', refColumn: 'id' },
];

const sorted = (keys: readonly ForeignKey[]) =>
  [...keys]
    .map(({ table, column, refTable, refColumn }) => ({ table, column, refTable, refColumn }))
    .sort((a, b) => `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`));

describe('newRowEmptyRelations', () => {
  it('proves empty the has and join-table relationships whose rows point at the key through a foreign key', () => {
    expect([...newRowEmptyRelations(registry, model('person'), LIBRARY_KEYS)]).to.deep.equal(['articles']);
    expect([...newRowEmptyRelations(registry, model('article'), LIBRARY_KEYS)]).to.have.members(['comments', 'tags']);
    expect([...newRowEmptyRelations(registry, model('tag'), LIBRARY_KEYS)]).to.deep.equal(['articles']);
  });

  it('proves nothing without the foreign key, for a join on another column, or for a belongs-to', () => {
    expect([...newRowEmptyRelations(registry, model('person'), [])]).to.deep.equal([]);
    // person.edited joins article.editor_name to person.name: even a foreign key there proves nothing of the key.
    const onName = [{ table: 'article', column: 'editor_name', refTable: 'person', refColumn: 'name' }];
    expect([...newRowEmptyRelations(registry, model('person'), onName)]).to.deep.equal([]);
    // A foreign key to another table's key says nothing of this one's rows.
    const elsewhere = [{ table: 'article', column: 'author_id', refTable: 'tag', refColumn: 'id' }];
    expect([...newRowEmptyRelations(registry, model('person'), elsewhere)]).to.deep.equal([]);
    expect([...newRowEmptyRelations(registry, model('comment'), LIBRARY_KEYS)]).to.deep.equal([]);
  });
});

eachDialect('Dialect.enforcedForeignKeys', (t) => {
  it('reads the foreign keys of one column the database enforces, none of two columns (none at all on SQLite)', async () => {
    const { dialect, knex } = t().database;
    if (!dialect.enforcedForeignKeys) {
      // Each SQLite connection chooses whether it checks foreign keys: rows another wrote may point anywhere.
      expect(dialect.name).to.equal('sqlite');
      return;
    }
    await knex.schema.createTable('pair_parent', (tb) => {
      tb.integer('a').notNullable();
      tb.integer('b').notNullable();
      tb.primary(['a', 'b']);
    });
    await knex.schema.createTable('pair_child', (tb) => {
      tb.integer('a');
      tb.integer('b');
      tb.foreign(['a', 'b']).references(['a', 'b']).inTable('pair_parent');
    });
    try {
      expect(sorted(await dialect.enforcedForeignKeys(knex))).to.deep.equal(sorted(LIBRARY_KEYS));
    } finally {
      await knex.schema.dropTable('pair_child');
      await knex.schema.dropTable('pair_parent');
    }
  });

  it('leaves out a foreign key the database does not check', async () => {
    const { dialect, knex } = t().database;
    const read = dialect.enforcedForeignKeys?.bind(dialect);
    if (dialect.name === 'sqlite') {
      expect(read).to.equal(undefined);
      return;
    }
    const unchecked = async () => (await read!(knex)).filter((k) => k.table === 'unchecked');
    if (dialect.name === 'mysql') {
      // MyISAM accepts a FOREIGN KEY clause and checks nothing: no foreign key is kept.
      await knex.raw(
        'create table unchecked (id integer primary key, person_id integer, foreign key (person_id) references person (id)) engine = MyISAM',
      );
      try {
        expect(await unchecked()).to.deep.equal([]);
      } finally {
        await knex.raw('drop table unchecked');
      }
      return;
    }
    // PostgreSQL: NOT VALID leaves the rows already there unchecked; disabled triggers check nothing.
    await knex.raw('create table unchecked (id serial primary key, person_id integer, tag_id integer)');
    await knex.raw('alter table unchecked add foreign key (person_id) references person (id) not valid');
    try {
      expect(await unchecked()).to.deep.equal([]);
      await knex.raw('alter table unchecked validate constraint unchecked_person_id_fkey');
      await knex.raw('alter table unchecked add foreign key (tag_id) references tag (id)');
      await knex.raw('alter table tag disable trigger all');
      const later = await unchecked();
      await knex.raw('alter table tag enable trigger all');
      expect(sorted(later)).to.deep.equal([
        { table: 'unchecked', column: 'person_id', refTable: 'person', refColumn: 'id' },
      ]);
    } finally {
      await knex.raw('alter table tag enable trigger all');
      await knex.raw('drop table unchecked');
    }
  });
});
