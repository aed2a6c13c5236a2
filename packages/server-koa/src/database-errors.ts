import { ApiError } from '@colapi/query-ast';
import type { DatabaseErrorKind } from '@colapi/sql-compiler';

const MESSAGES: Record<DatabaseErrorKind, [number, string, string]> = {
  'unique-violation': [409, 'Conflict', 'a resource with the same unique value exists already'],
  'not-null-violation': [400, 'Bad Request', 'a required field is missing or null'],
  'foreign-key-missing': [404, 'Not Found', 'a related resource does not exist'],
  'foreign-key-referenced': [409, 'Conflict', 'the resource is still referenced by other resources'],
  'check-violation': [400, 'Bad Request', 'a value breaks a constraint of the database'],
  'invalid-value': [400, 'Bad Request', 'a value is not valid for its field'],
  timeout: [503, 'Service Unavailable', 'the query took too long and was cancelled'],
  serialization: [503, 'Service Unavailable', 'the request conflicted with a concurrent one; retry it'],
  unavailable: [503, 'Service Unavailable', 'the database cannot be reached'],
};

/** 503 when no pooled connection came free within knex's `acquireConnectionTimeout`: the server is saturated. */
export const poolBusy = (): ApiError =>
  new ApiError(503, 'Service Unavailable', 'every database connection stayed busy; retry the request in a moment', undefined, { 'retry-after': '1' });

/** Whether an error is knex's timeout waiting for a pooled connection. */
export function isPoolTimeout(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'KnexTimeoutError';
}

/** The client-facing error of a classified database error; never carries SQL or driver text. */
export function databaseError(kind: DatabaseErrorKind): ApiError {
  const [status, title, detail] = MESSAGES[kind];
  return new ApiError(status, title, detail);
}
