import type { Dialect } from '@colapi/sql-compiler';
import type { Knex } from 'knex';
import { TABLES } from '../tables.js';

/** Empties every conformance table and restarts its ids, as the dialect does it. */
export async function resetTables(knex: Knex, dialect: Dialect): Promise<void> {
  await dialect.emptyTables(knex, TABLES);
}

export type SeedData = Partial<Record<(typeof TABLES)[number], Record<string, unknown>[]>>;

/** Replaces the contents of the tables with `data` (explicit ids), in foreign-key order. */
export async function seed(knex: Knex, dialect: Dialect, data: SeedData): Promise<void> {
  await resetTables(knex, dialect);
  for (const t of ['person', 'article', 'comment', 'tag', 'article_tag', 'network', 'task'] as const) {
    const rows = data[t];
    if (!rows?.length) continue;
    const prepared = rows.map((r) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(r)) out[k] = prepare(dialect, t, k, v, knex);
      return out;
    });
    for (let i = 0; i < prepared.length; i += 200) await knex(t).insert(prepared.slice(i, i + 200));
  }
  // Explicit ids: where keys come from a sequence (PostgreSQL), it must move past them.
  for (const t of ['person', 'article', 'comment', 'tag', 'network', 'task'] as const) {
    if (data[t]?.length) await dialect.advanceKey?.(knex, t, 'id');
  }
}

/** Stores wire-form values as each dialect expects (timestamps, intervals). */
function prepare(dialect: Dialect, table: string, column: string, value: unknown, knex: Knex): unknown {
  if (value === null || value === undefined) return value;
  if (table === 'task' && column === 'duration')
    return dialect.writeValue(knex, { name: column, type: 'interval', nullable: true }, value);
  if ((column === 'birth_datetime' || column === 'publishtime') && typeof value === 'string') {
    return dialect.writeValue(knex, { name: column, type: 'datetime', nullable: true }, value);
  }
  if (table === 'network' && column === 'address')
    return dialect.writeValue(knex, { name: column, type: 'inet', nullable: true }, value);
  return value;
}

/** A small dataset with every relationship kind, nulls, mixed case, fractions and edge values. */
export const STANDARD_DATA: SeedData = {
  person: [
    {
      id: 1,
      name: 'Alice',
      age: 25,
      other: 1.5,
      birthday: '1999-01-15',
      birth_datetime: '1999-01-15T08:30:00',
      bedtime: '22:30:00',
    },
    {
      id: 2,
      name: 'bob',
      age: 17,
      other: null,
      birthday: '2007-06-01',
      birth_datetime: '2007-06-01T12:00:00.25',
      bedtime: '21:00:00',
    },
    { id: 3, name: 'Carol', age: null, other: 3.25, birthday: null, birth_datetime: null, bedtime: null },
    {
      id: 4,
      name: 'dave',
      age: 40,
      other: -2,
      birthday: '1984-12-31',
      birth_datetime: '1984-12-31T23:59:59',
      bedtime: '23:15:30.5',
    },
    {
      id: 5,
      name: 'Eve',
      age: 18,
      other: 0,
      birthday: '2006-03-03',
      birth_datetime: '2006-03-03T00:00:00',
      bedtime: '20:00:00',
    },
  ],
  article: [
    { id: 1, title: 'Hello World', publishtime: '2020-01-01T10:00:00', author_id: 1 },
    { id: 2, title: 'hello again', publishtime: '2020-02-01T10:00:00', author_id: 1 },
    { id: 3, title: 'Databases 101', publishtime: '2021-05-05T09:30:00', author_id: 2 },
    { id: 4, title: 'Untitled', publishtime: null, author_id: null },
    { id: 5, title: '100% pure', publishtime: '2022-01-01T00:00:00', author_id: 4 },
  ],
  comment: [
    { id: 1, content: 'Great', article_id: 1, author_id: 2 },
    { id: 2, content: 'meh', article_id: 1, author_id: 3 },
    { id: 3, content: 'Nice', article_id: 3, author_id: 1 },
    { id: 4, content: 'orphan words', article_id: null, author_id: null },
  ],
  tag: [
    { id: 1, name: 'news' },
    { id: 2, name: 'tech' },
    { id: 3, name: 'life' },
  ],
  article_tag: [
    { article_id: 1, tag_id: 1 },
    { article_id: 1, tag_id: 2 },
    { article_id: 3, tag_id: 2 },
    { article_id: 5, tag_id: 3 },
  ],
  network: [
    { id: 1, address: '192.168.1.5' },
    { id: 2, address: '10.0.0.0/8' },
    { id: 3, address: '2001:db8::1' },
  ],
  task: [
    { id: 1, title: 'write', duration: 3600, due: '2024-01-01' },
    { id: 2, title: 'read', duration: 90, due: null },
    { id: 3, title: 'nap', duration: null, due: '2024-06-30' },
  ],
};
