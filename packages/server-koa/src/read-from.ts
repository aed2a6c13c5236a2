import { ApiError } from '@colapi/query-ast';
import type { HttpRequest } from '@colapi/wire-format';

/**
 * The request header a client sends to read from the primary, where the server has read replicas: to read
 * its own write at once, before replication may have carried it. `primary` asks for the primary; `any`, like
 * no header, lets a replica answer.
 */
export const READ_FROM_HEADER = 'colapi-read-from';

/** True when the request asks to be read from the primary; another value is a 400 naming the header. */
export function readsFromPrimary(request: HttpRequest): boolean {
  const value = request.headers[READ_FROM_HEADER];
  if (value === undefined) return false;
  const wanted = value.trim().toLowerCase();
  if (wanted === 'primary') return true;
  if (wanted === 'any') return false;
  throw ApiError.badRequest(`the Colapi-Read-From header must be primary or any, not "${value.slice(0, 40)}"`);
}
