import type { DatabaseErrorKind, Dialect } from './dialect.js';
import type { Statement } from './statement.js';

/**
 * A statement the database refused or failed, as the runner (runStatement) throws it: the driver's own
 * error as `cause`, the statement, and what the error means to a client, classified once by the dialect
 * with the statement in hand.
 */
export class StatementError extends Error {
  override readonly name = 'StatementError';

  constructor(
    readonly statement: Statement<unknown>,
    readonly kind: DatabaseErrorKind | undefined,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/**
 * What an error means to a client, however it arose: a failed statement's classification, or for any other
 * error (a COMMIT, a connection that could not be opened) the dialect's reading of it.
 */
export function errorKind(dialect: Dialect, error: unknown): DatabaseErrorKind | undefined {
  return error instanceof StatementError ? error.kind : dialect.classifyError(error);
}

/** The driver's error under a failed statement (the error itself otherwise), for the dialect hooks that read it. */
export function driverError(error: unknown): unknown {
  return error instanceof StatementError ? error.cause : error;
}
