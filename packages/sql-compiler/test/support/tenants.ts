import { defineModel, Registry, type CollectionSchema, type ModelSchema } from '@colapi/schema';
import type { Filter } from '@colapi/query-ast';
import type { Knex } from 'knex';
import type { Dialect, RowScopes } from '../../src/index.js';

/**
 * Two tenants sharing tables, for row scopes: people write articles (`author`), articles have comments and
 * tags (a join table). Every row carries `tenant_id`, and links cross tenants on purpose, so that a leak of
 * tenant 2 through any path shows: article 3 (tenant 1) is by person 2 (tenant 2), article 4 (tenant 2) by
 * person 1, article 1 has a comment and a tag of tenant 2, tag 1 (tenant 1) tags article 4 (tenant 2).
 */
const tenantColumn = { name: 'tenant_id', type: 'integer', nullable: false } as const;

const person = defineModel({
  name: 'Person',
  table: 'rs_person',
  columns: [
    { name: 'id', type: 'integer', nullable: false, generated: true },
    { name: 'name', type: 'string', nullable: false },
    tenantColumn,
  ],
  relationships: [
    {
      name: 'articles',
      cardinality: 'many',
      target: 'Article',
      join: { kind: 'has', ownColumn: 'id', targetColumn: 'author_id' },
    },
  ],
});

const article = defineModel({
  name: 'Article',
  table: 'rs_article',
  columns: [
    { name: 'id', type: 'integer', nullable: false, generated: true },
    { name: 'title', type: 'string', nullable: false },
    tenantColumn,
    { name: 'author_id', type: 'integer', nullable: true },
  ],
  relationships: [
    {
      name: 'author',
      cardinality: 'one',
      target: 'Person',
      join: { kind: 'belongs-to', ownColumn: 'author_id', targetColumn: 'id' },
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
        through: { table: 'rs_article_tag', ownColumn: 'article_id', targetColumn: 'tag_id' },
      },
    },
  ],
});

const comment = defineModel({
  name: 'Comment',
  table: 'rs_comment',
  columns: [
    { name: 'id', type: 'integer', nullable: false, generated: true },
    { name: 'body', type: 'string', nullable: false },
    tenantColumn,
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
  table: 'rs_tag',
  columns: [
    { name: 'id', type: 'integer', nullable: false, generated: true },
    { name: 'name', type: 'string', nullable: false },
    tenantColumn,
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
        through: { table: 'rs_article_tag', ownColumn: 'tag_id', targetColumn: 'article_id' },
      },
    },
  ],
});

export const registry = new Registry([
  { model: person, options: { name: 'person' } },
  // Estimated: a scoped read must count exactly instead.
  { model: article, options: { name: 'article', total: 'estimated' } },
  { model: comment, options: { name: 'comment' } },
  { model: tag, options: { name: 'tag' } },
]);

export const collection = (name: string): CollectionSchema => registry.collection(name)!;
export const model = (name: string): ModelSchema => collection(name).model;
export const relationship = (collectionName: string, name: string) =>
  collection(collectionName).relationships.get(name)!;

/** `tenant_id = tenant`, a filter valid on every model here. */
export const tenant = (id: number): Filter => ({
  kind: 'compare',
  field: { relations: [], column: 'tenant_id' },
  op: 'eq',
  value: id,
});

/** FALSE: no row. */
export const NO_ROW: Filter = { kind: 'or', filters: [] };

/** Tenant 1's scope on every model; `update`/`delete` and per-model read overrides as given. */
export function tenantScopes(
  overrides: { read?: Record<string, Filter>; update?: Filter; delete?: Filter } = {},
): RowScopes {
  return {
    read: (m) => overrides.read?.[m.name] ?? tenant(1),
    ...(overrides.update ? { update: () => overrides.update } : {}),
    ...(overrides.delete ? { delete: () => overrides.delete } : {}),
  };
}

const TABLES = ['rs_article_tag', 'rs_comment', 'rs_tag', 'rs_article', 'rs_person'];

export async function createTables(knex: Knex): Promise<void> {
  await knex.schema.createTable('rs_person', (t) => {
    t.increments('id');
    t.string('name').notNullable();
    t.integer('tenant_id').notNullable();
  });
  await knex.schema.createTable('rs_article', (t) => {
    t.increments('id');
    t.string('title').notNullable();
    t.integer('tenant_id').notNullable();
    t.integer('author_id').unsigned().references('rs_person.id');
  });
  await knex.schema.createTable('rs_comment', (t) => {
    t.increments('id');
    t.string('body').notNullable();
    t.integer('tenant_id').notNullable();
    t.integer('article_id').unsigned().references('rs_article.id');
  });
  await knex.schema.createTable('rs_tag', (t) => {
    t.increments('id');
    t.string('name').notNullable();
    t.integer('tenant_id').notNullable();
  });
  await knex.schema.createTable('rs_article_tag', (t) => {
    t.integer('article_id').unsigned().notNullable().references('rs_article.id');
    t.integer('tag_id').unsigned().notNullable().references('rs_tag.id');
    t.unique(['article_id', 'tag_id']);
  });
}

/** Ids of tenant 2's rows, per table: none may ever appear under tenant 1's scope. */
export const TENANT_2 = { person: [2], article: [4, 5], comment: [2, 4], tag: [2] } as const;

export const ROWS: Readonly<Record<string, readonly Record<string, unknown>[]>> = {
  rs_person: [
    { id: 1, name: 'Alice', tenant_id: 1 },
    { id: 2, name: 'Bob', tenant_id: 2 },
    { id: 3, name: 'Carol', tenant_id: 1 },
  ],
  rs_article: [
    { id: 1, title: 'Hello', tenant_id: 1, author_id: 1 },
    { id: 2, title: 'again', tenant_id: 1, author_id: 3 },
    { id: 3, title: 'Bonjour', tenant_id: 1, author_id: 2 },
    { id: 4, title: 'Hidden', tenant_id: 2, author_id: 1 },
    { id: 5, title: 'Other', tenant_id: 2, author_id: 2 },
  ],
  rs_comment: [
    { id: 1, body: 'first', tenant_id: 1, article_id: 1 },
    { id: 2, body: 'secret', tenant_id: 2, article_id: 1 },
    { id: 3, body: 'third', tenant_id: 1, article_id: 2 },
    { id: 4, body: 'hidden', tenant_id: 2, article_id: 5 },
  ],
  rs_tag: [
    { id: 1, name: 'news', tenant_id: 1 },
    { id: 2, name: 'tech', tenant_id: 2 },
    { id: 3, name: 'misc', tenant_id: 1 },
  ],
  rs_article_tag: [
    { article_id: 1, tag_id: 1 },
    { article_id: 1, tag_id: 2 },
    { article_id: 2, tag_id: 3 },
    { article_id: 4, tag_id: 1 },
    { article_id: 5, tag_id: 2 },
  ],
};

/** Empties the tables and writes ROWS again, with every key generator past the keys written. */
export async function seed(knex: Knex, dialect: Dialect): Promise<void> {
  await dialect.emptyTables(knex, TABLES);
  for (const table of [...TABLES].reverse()) {
    await knex(table).insert(ROWS[table]!.map((r) => ({ ...r })));
    if (table !== 'rs_article_tag') await dialect.advanceKey?.(knex, table, 'id');
  }
}
