import { defineModel, Registry, type CollectionSchema } from '@colapi/schema';
import type { Knex } from 'knex';
import type { Dialect } from '../../src/index.js';

/**
 * A small library: people write articles (a foreign key on the article, `author`), edit them (joined on
 * the person's name, not its key), articles have comments and tags (a join table). Every join kind the
 * compiler knows, and a join on a column other than the key.
 */
const person = defineModel({
  name: 'Person',
  table: 'person',
  columns: [
    { name: 'id', type: 'integer', nullable: false, generated: true },
    { name: 'name', type: 'string', nullable: false },
    { name: 'age', type: 'integer', nullable: true },
  ],
  relationships: [
    {
      name: 'articles',
      cardinality: 'many',
      target: 'Article',
      join: { kind: 'has', ownColumn: 'id', targetColumn: 'author_id' },
    },
    {
      name: 'edited',
      cardinality: 'many',
      target: 'Article',
      join: { kind: 'has', ownColumn: 'name', targetColumn: 'editor_name' },
    },
  ],
});

const article = defineModel({
  name: 'Article',
  table: 'article',
  columns: [
    { name: 'id', type: 'integer', nullable: false, generated: true },
    { name: 'title', type: 'string', nullable: false },
    { name: 'author_id', type: 'integer', nullable: true },
    { name: 'editor_name', type: 'string', nullable: true },
  ],
  relationships: [
    {
      name: 'author',
      cardinality: 'one',
      target: 'Person',
      join: { kind: 'belongs-to', ownColumn: 'author_id', targetColumn: 'id' },
    },
    {
      name: 'editor',
      cardinality: 'one',
      target: 'Person',
      join: { kind: 'belongs-to', ownColumn: 'editor_name', targetColumn: 'name' },
    },
    {
      name: 'comments',
      cardinality: 'many',
      target: 'Comment',
      join: { kind: 'has', ownColumn: 'id', targetColumn: 'article_id' },
    },
    {
      name: 'tags',
      cardinality: 'many',
      target: 'Tag',
      join: {
        kind: 'through',
        ownColumn: 'id',
        targetColumn: 'id',
        through: { table: 'article_tag', ownColumn: 'article_id', targetColumn: 'tag_id' },
      },
    },
  ],
});

const comment = defineModel({
  name: 'Comment',
  table: 'comment',
  columns: [
    { name: 'id', type: 'integer', nullable: false, generated: true },
    { name: 'body', type: 'string', nullable: false },
    { name: 'article_id', type: 'integer', nullable: true },
  ],
  relationships: [
    {
      name: 'article',
      cardinality: 'one',
      target: 'Article',
      join: { kind: 'belongs-to', ownColumn: 'article_id', targetColumn: 'id' },
    },
  ],
});

const tag = defineModel({
  name: 'Tag',
  table: 'tag',
  columns: [
    { name: 'id', type: 'integer', nullable: false, generated: true },
    { name: 'name', type: 'string', nullable: false },
  ],
  relationships: [
    {
      name: 'articles',
      cardinality: 'many',
      target: 'Article',
      join: {
        kind: 'through',
        ownColumn: 'id',
        targetColumn: 'id',
        through: { table: 'article_tag', ownColumn: 'tag_id', targetColumn: 'article_id' },
      },
    },
  ],
});

export const registry = new Registry([
  { model: person },
  { model: article, options: { total: 'estimated' } },
  { model: comment },
  { model: tag },
]);

export const collection = (name: string): CollectionSchema => registry.collection(name)!;
export const model = (name: string) => collection(name).model;
export const relationship = (collectionName: string, name: string) =>
  collection(collectionName).relationships.get(name)!;

const TABLES = ['article_tag', 'comment', 'tag', 'article', 'person'];

export async function createTables(knex: Knex): Promise<void> {
  await knex.schema.createTable('person', (t) => {
    t.increments('id');
    t.string('name').notNullable().unique();
    t.integer('age');
  });
  await knex.schema.createTable('article', (t) => {
    t.increments('id');
    t.string('title').notNullable();
    t.integer('author_id').unsigned().references('person.id');
    t.string('editor_name');
  });
  await knex.schema.createTable('comment', (t) => {
    t.increments('id');
    t.string('body').notNullable();
    t.integer('article_id').unsigned().references('article.id');
  });
  await knex.schema.createTable('tag', (t) => {
    t.increments('id');
    t.string('name').notNullable().unique();
  });
  await knex.schema.createTable('article_tag', (t) => {
    t.integer('article_id').unsigned().notNullable().references('article.id');
    t.integer('tag_id').unsigned().notNullable().references('tag.id');
    t.unique(['article_id', 'tag_id']);
  });
}

/** The rows every test starts from. */
export const ROWS: Readonly<Record<string, readonly Record<string, unknown>[]>> = {
  person: [
    { id: 1, name: 'Alice', age: 30 },
    { id: 2, name: 'Bob', age: null },
    { id: 3, name: 'Carol', age: 25 },
  ],
  article: [
    { id: 1, title: 'Hello', author_id: 1, editor_name: 'Bob' },
    { id: 2, title: 'again', author_id: 1, editor_name: null },
    { id: 3, title: 'Bonjour', author_id: 2, editor_name: 'Bob' },
    { id: 4, title: 'orphan', author_id: null, editor_name: null },
  ],
  comment: [
    { id: 1, body: 'first', article_id: 1 },
    { id: 2, body: 'second', article_id: 1 },
    { id: 3, body: 'third', article_id: 3 },
  ],
  tag: [
    { id: 1, name: 'news' },
    { id: 2, name: 'tech' },
    { id: 3, name: 'misc' },
  ],
  article_tag: [
    { article_id: 1, tag_id: 1 },
    { article_id: 1, tag_id: 2 },
    { article_id: 2, tag_id: 2 },
    { article_id: 3, tag_id: 3 },
  ],
};

/** Empties the tables and writes ROWS again, with every key generator past the keys written. */
export async function seed(knex: Knex, dialect: Dialect): Promise<void> {
  await dialect.emptyTables(knex, TABLES);
  for (const table of [...TABLES].reverse()) {
    await knex(table).insert(ROWS[table]!.map((r) => ({ ...r })));
    // Awaiting the Raw runs it.
    if (table !== 'article_tag') await dialect.advanceKey?.(knex, table, 'id');
  }
}
