import { defineModel, Registry } from '@colapi/schema';

/** A small multi-tenant API: projects of a tenant, owned by users, in teams, with tags; posts by users. */
const user = defineModel({
  name: 'User',
  table: 'users',
  columns: [
    { name: 'id', type: 'string', nullable: false },
    { name: 'name', type: 'string', nullable: false },
    { name: 'email', type: 'string', nullable: true },
  ],
  relationships: [
    {
      name: 'projects',
      cardinality: 'many',
      target: 'Project',
      join: { kind: 'has', ownColumn: 'id', targetColumn: 'owner_id' },
    },
  ],
});

const project = defineModel({
  name: 'Project',
  table: 'projects',
  columns: [
    { name: 'id', type: 'integer', nullable: false, generated: true },
    { name: 'name', type: 'string', nullable: false },
    { name: 'tenant_id', type: 'integer', nullable: false },
    { name: 'owner_id', type: 'string', nullable: true },
    { name: 'team_id', type: 'integer', nullable: true },
    { name: 'secret_note', type: 'string', nullable: true },
    { name: 'budget', type: 'number', nullable: true },
    { name: 'started_on', type: 'date', nullable: true },
    { name: 'archived', type: 'boolean', nullable: false, hasDefault: true },
    { name: 'address', type: 'inet', nullable: true },
  ],
  relationships: [
    {
      name: 'owner',
      cardinality: 'one',
      target: 'User',
      join: { kind: 'belongs-to', ownColumn: 'owner_id', targetColumn: 'id' },
    },
    {
      name: 'team',
      cardinality: 'one',
      target: 'Team',
      join: { kind: 'belongs-to', ownColumn: 'team_id', targetColumn: 'id' },
    },
    {
      name: 'tags',
      cardinality: 'many',
      target: 'Tag',
      join: {
        kind: 'through',
        ownColumn: 'id',
        targetColumn: 'id',
        through: { table: 'project_tags', ownColumn: 'project_id', targetColumn: 'tag_id' },
      },
    },
  ],
  virtualAttributes: [{ name: 'label', compute: (row) => String(row.name ?? '').toUpperCase() }],
});

const team = defineModel({
  name: 'Team',
  table: 'teams',
  columns: [
    { name: 'id', type: 'integer', nullable: false, generated: true },
    { name: 'name', type: 'string', nullable: false },
  ],
  relationships: [
    {
      name: 'members',
      cardinality: 'many',
      target: 'User',
      join: {
        kind: 'through',
        ownColumn: 'id',
        targetColumn: 'id',
        through: { table: 'team_members', ownColumn: 'team_id', targetColumn: 'user_id' },
      },
    },
  ],
});

const tag = defineModel({
  name: 'Tag',
  table: 'tags',
  columns: [
    { name: 'id', type: 'integer', nullable: false, generated: true },
    { name: 'name', type: 'string', nullable: false },
  ],
});

const post = defineModel({
  name: 'Post',
  table: 'posts',
  columns: [
    { name: 'id', type: 'integer', nullable: false, generated: true },
    { name: 'title', type: 'string', nullable: false },
    { name: 'published', type: 'boolean', nullable: false },
    { name: 'author_id', type: 'string', nullable: true },
  ],
  relationships: [
    {
      name: 'author',
      cardinality: 'one',
      target: 'User',
      join: { kind: 'belongs-to', ownColumn: 'author_id', targetColumn: 'id' },
    },
  ],
});

export const registry = new Registry([
  { model: project, options: { additional_attributes: ['label'] } },
  { model: user },
  { model: team },
  { model: tag },
  { model: post },
]);
