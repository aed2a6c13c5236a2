import { defineModel } from '@colapi/schema';

/**
 * The models the unit tests of the formats register: people write articles, articles have comments and
 * tags (a join table); a person has a computed attribute, a tag is keyed by its name.
 */
export const person = defineModel({
  name: 'Person',
  table: 'person',
  columns: [
    { name: 'id', type: 'integer', nullable: false, generated: true },
    { name: 'name', type: 'string', nullable: false, maxLength: 10 },
    { name: 'age', type: 'integer', nullable: true },
    { name: 'born', type: 'date', nullable: true },
  ],
  relationships: [
    {
      name: 'articles',
      cardinality: 'many',
      target: 'Article',
      join: { kind: 'has', ownColumn: 'id', targetColumn: 'author_id' },
    },
  ],
  virtualAttributes: [{ name: 'initial', compute: (row) => String(row.name ?? '').slice(0, 1) }],
});

export const article = defineModel({
  name: 'Article',
  table: 'article',
  columns: [
    { name: 'id', type: 'integer', nullable: false, generated: true },
    { name: 'title', type: 'string', nullable: false },
    { name: 'author_id', type: 'integer', nullable: true },
    { name: 'published', type: 'datetime', nullable: true },
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
        targetColumn: 'name',
        through: { table: 'article_tag', ownColumn: 'article_id', targetColumn: 'tag_name' },
      },
    },
  ],
});

export const comment = defineModel({
  name: 'Comment',
  table: 'comment',
  columns: [
    { name: 'id', type: 'integer', nullable: false, generated: true },
    { name: 'body', type: 'string', nullable: true },
    { name: 'article_id', type: 'integer', nullable: true },
    { name: 'author_id', type: 'integer', nullable: true },
  ],
  relationships: [
    {
      name: 'article',
      cardinality: 'one',
      target: 'Article',
      join: { kind: 'belongs-to', ownColumn: 'article_id', targetColumn: 'id' },
    },
    {
      name: 'author',
      cardinality: 'one',
      target: 'Person',
      join: { kind: 'belongs-to', ownColumn: 'author_id', targetColumn: 'id' },
    },
  ],
});

/** A model keyed by a short string the client chooses: its key is not generated. */
export const tag = defineModel({
  name: 'Tag',
  table: 'tag',
  key: 'name',
  columns: [
    { name: 'name', type: 'string', nullable: false, maxLength: 8 },
    { name: 'color', type: 'string', nullable: true },
  ],
});
