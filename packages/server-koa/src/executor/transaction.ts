import type { Dialect } from '@colapi/sql-compiler';
import type { Knex } from 'knex';

/**
 * Runs `work` in one transaction: all of it commits or none of it does. A serialization failure or a
 * deadlock is retried once, since the other transaction has usually finished by then.
 */
export async function inTransaction<T>(knex: Knex, dialect: Dialect, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  try {
    return await knex.transaction(work);
  } catch (error) {
    if (dialect.classifyError(error) !== 'serialization') throw error;
    return knex.transaction(work);
  }
}
