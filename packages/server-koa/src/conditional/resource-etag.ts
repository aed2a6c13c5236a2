import type { OperationResult } from '@colapi/query-ast';
import { withHeaders, type HttpResponse } from '@colapi/wire-format';
import { rowTag } from './row-tag.js';

/**
 * The header that carries the tag of a resource's own row: on a 2xx answer about one resource (a GET of it, of
 * one of its relationships, its create or update, a change of a relationship of it), whatever the answer
 * includes. It is the tag `If-Match` takes on a write; the `ETag` of a read stands for the bytes of that read.
 */
export const RESOURCE_ETAG = 'resource-etag';

/** The answer with the row tag of the one resource `result` is about, when there is one. */
export function withResourceTag(response: HttpResponse, result: OperationResult): HttpResponse {
  if (response.status < 200 || response.status >= 300) return response;
  const node = result.kind === 'resource' ? result.resource : result.kind === 'linkage' ? result.owner : undefined;
  if (!node) return response;
  return withHeaders(response, { [RESOURCE_ETAG]: rowTag(node.collection, node.values) });
}
