import type { Knex } from 'knex';

/** Counts the SQL statements knex sends while `fn` runs (knex's `query` event). */
export async function countQueries<T>(
  knex: Knex,
  fn: () => Promise<T>,
): Promise<{ result: T; count: number; sql: string[] }> {
  const sql: string[] = [];
  const listener = (q: { sql: string }) => sql.push(q.sql);
  knex.on('query', listener);
  try {
    const result = await fn();
    return { result, count: sql.length, sql };
  } finally {
    knex.removeListener('query', listener);
  }
}
