import type { Dialect } from '@colapi/sql-compiler';
import type { Knex } from 'knex';

type Build = (table: Knex.CreateTableBuilder, type: (t: Parameters<Dialect['ddlType']>[0]) => string) => void;

const reference = (table: Knex.CreateTableBuilder, column: string, target: string, nullable = true) => {
  const c = table.integer(column).unsigned();
  if (!nullable) c.notNullable();
  // No cascade: deleting an author who still has books answers 409, which the API should show.
  table.foreign(column).references('id').inTable(target);
  // Relationship reads look rows up by this column; PostgreSQL and SQLite do not index a foreign key themselves.
  table.index([column]);
};

/** The bookshop's tables in foreign-key order, with column types from the dialect (dates as text on SQLite). */
export const TABLES: readonly (readonly [string, Build])[] = [
  [
    'publishers',
    (t, _type) => {
      t.increments('id');
      t.string('name', 100).notNullable();
      t.string('city', 100);
      t.integer('founded');
    },
  ],
  [
    'authors',
    (t, type) => {
      t.increments('id');
      t.string('first_name', 100);
      t.string('last_name', 100).notNullable();
      t.specificType('born', type('date'));
      t.string('country', 100);
    },
  ],
  [
    'books',
    (t, type) => {
      t.increments('id');
      t.string('title', 200).notNullable();
      t.string('isbn', 20);
      t.specificType('published_on', type('date'));
      t.integer('pages');
      t.specificType('price', type('number'));
      t.specificType('in_print', type('boolean'));
      reference(t, 'author_id', 'authors');
      reference(t, 'publisher_id', 'publishers');
    },
  ],
  [
    'reviews',
    (t, type) => {
      t.increments('id');
      reference(t, 'book_id', 'books');
      t.string('reviewer', 100);
      t.integer('rating').notNullable();
      t.text('body');
      t.specificType('created_at', type('datetime'));
    },
  ],
  [
    'tags',
    (t) => {
      t.increments('id');
      t.string('name', 50).notNullable().unique();
    },
  ],
  [
    'book_tags',
    (t) => {
      reference(t, 'book_id', 'books', false);
      reference(t, 'tag_id', 'tags', false);
      t.primary(['book_id', 'tag_id']);
    },
  ],
];

/** Creates the tables that are missing; never drops or empties one, so a restart keeps the data. */
export async function createTables(knex: Knex, dialect: Dialect): Promise<void> {
  const type = (t: Parameters<Dialect['ddlType']>[0]) => dialect.ddlType(t);
  for (const [name, build] of TABLES) {
    if (!(await knex.schema.hasTable(name))) await knex.schema.createTable(name, (table) => build(table, type));
  }
}
