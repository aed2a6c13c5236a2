import { ApiError } from '@colapi/query-ast';
import type { HttpRequest } from '@colapi/wire-format';

export const JSON_MEDIA_TYPE = 'application/json';

/** The methods whose requests carry a body in Format B. */
const BODY_METHODS = new Set(['POST', 'PATCH', 'PUT']);

/**
 * A POST, PATCH or PUT must say `Content-Type: application/json` (parameters such as charset allowed),
 * whether or not it carries a body: the specification answers 415 to a missing header too.
 */
export function checkContentType(request: HttpRequest): void {
  if (!BODY_METHODS.has(request.method)) return;
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === JSON_MEDIA_TYPE) return;
  const detail = type
    ? `Content-Type must be ${JSON_MEDIA_TYPE}, not ${type}`
    : `a ${request.method} request must have Content-Type ${JSON_MEDIA_TYPE}`;
  throw new ApiError(415, 'Unsupported Media Type', detail);
}
