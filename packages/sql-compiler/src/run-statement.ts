import type { Knex } from 'knex';
import type { Dialect, Executed } from './dialect.js';
import { HeldConnections } from './held-connections.js';
import { StatementError } from './statement-error.js';
import { failStatementSpan, startStatementSpan } from './statement-span.js';
import type { Statement } from './statement.js';

interface PooledConnection {
  readonly __knexUid?: string;
  /** Set by knex on the connection of an open transaction. */
  readonly __knexTxId?: string;
}

/**
 * The one way a compiled statement reaches the database, on a pool (the primary's or a replica's) or in a
 * transaction (`db` a knex transaction): answers the statement's decoded result, or throws a
 * StatementError whose `kind` the dialect gave knowing the statement.
 *
 * The connection comes from `db`'s client: one the statements hold between them (held-connections.ts), else
 * knex's typed `acquireConnection`: from the pool, with its validation and each connection's set-up; or, for a
 * transaction, its own connection. knex's `query`,
 * `query-response` and `query-error` events are emitted as knex emits them (a transaction's also reach
 * its parent), so logging and statement counts see every statement. knex's runner itself is skipped: for
 * a statement whose text is compiled, its promise chain, query object and response processing cost
 * about as much CPU as the driver.
 */
export async function runStatement<T>(db: Knex, dialect: Dialect, statement: Statement<T>): Promise<T> {
  // As knex refuses it: a finished transaction's connection may serve another request by now.
  if (db.isTransaction && (db as Knex.Transaction).isCompleted())
    throw new Error('a statement was sent on a transaction that is over');
  const client = db.client;
  // Started before the connection is taken, so that a wait for the pool shows in the statement's time.
  const span = startStatementSpan(dialect, statement);
  const held = db.isTransaction ? undefined : HeldConnections.of(client);
  let connection: PooledConnection;
  try {
    connection = ((held?.take() as PooledConnection | undefined) ??
      (await client.acquireConnection())) as PooledConnection;
  } catch (error) {
    span.end();
    throw error;
  }
  const { sql, bindings, method } = statement;
  const event = {
    __knexUid: connection.__knexUid,
    __knexTxId: connection.__knexTxId,
    method,
    sql,
    bindings,
    options: {},
  };
  client.emit('query', event);
  let answer: Executed;
  try {
    answer = await dialect.execute(connection, sql, bindings, statement.planEach === true);
  } catch (error) {
    release(client, held, connection);
    client.emit('query-error', error, event);
    const failure = new StatementError(statement, dialect.classifyError(error, statement), error);
    failStatementSpan(span, failure);
    throw failure;
  }
  span.end();
  // Released before the answer is decoded, so that a request waiting for a connection gets it at once.
  release(client, held, connection);
  client.emit('query-response', answer.rows, event);
  return statement.decode(answer);
}

/**
 * To the held connections, or back to the pool: knex's releaseConnection hands it over at once and answers a
 * promise already resolved (it cannot fail): not awaited, it costs no turn of the microtask queue.
 */
function release(client: Knex.Client, held: HeldConnections | undefined, connection: unknown): void {
  if (held) held.give(connection);
  else void client.releaseConnection(connection);
}
