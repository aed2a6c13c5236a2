import type { Knex } from 'knex';
import type { Dialect, Executed } from './dialect.js';

/** A statement compiled once: its text in the driver's own placeholders, and this run's values. */
export interface CompiledStatement {
  readonly sql: string;
  readonly bindings: readonly unknown[];
  /** knex's name of the kind of statement, for observers of the `query` event (`insert`, `select`, …). */
  readonly method: string;
}

/**
 * Runs a compiled statement on a connection of knex's pool (never inside a transaction) and answers its rows
 * (and an insert's generated key, where the driver tells it).
 *
 * knex's runner costs about as much CPU per statement as the driver itself (acquiring through its
 * promise chain, building the query object, processing the response by the builder's method), and for a
 * statement whose text is already compiled none of it is needed. The connection still comes from and goes
 * back to knex's pool (`client.acquireConnection`, part of knex's typed Client), so pooling, validation and
 * every connection's set-up stay knex's; and knex's `query`, `query-response` and `query-error` events are
 * emitted as for any other statement, so that logging and statement counts see it.
 */
export async function runStatement(knex: Knex, dialect: Dialect, statement: CompiledStatement): Promise<Executed> {
  const client = knex.client;
  const connection = (await client.acquireConnection()) as { __knexUid?: string };
  const event = { __knexUid: connection.__knexUid, method: statement.method, sql: statement.sql, bindings: statement.bindings, options: {} };
  client.emit('query', event);
  try {
    const executed = await dialect.execute(connection, statement.sql, statement.bindings);
    client.emit('query-response', executed.rows, event);
    return executed;
  } catch (error) {
    client.emit('query-error', error, event);
    throw error;
  } finally {
    await client.releaseConnection(connection);
  }
}
