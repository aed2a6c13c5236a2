import { ApiError } from '@colapi/query-ast';
import { jsonTextResponse, withHeaders, type HttpRequest, type HttpResponse } from '@colapi/wire-format';
import { strongMatch, tagCondition, weakMatch } from './entity-tags.js';
import { representationTag } from './representation-tag.js';

/**
 * The size of the representation a 304 stands for, for compression(): whether the 200 would have been
 * compressed, and so tagged with its coding, depends on it.
 */
export const notModifiedBytes = new WeakMap<HttpResponse, number>();

/** Methods whose 200 answers carry the representation's ETag and honour If-None-Match with 304. */
const READS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * A read's answer under RFC 9110's preconditions: every 200 to GET or HEAD gets the strong `ETag` of its
 * bytes; then, in the order of §13.2.2, a false `If-Match` (strong comparison) is 412 and a false
 * `If-None-Match` (weak comparison) is 304 with the 200's headers (`ETag`, `Vary`, the rest) and no body.
 * Any other answer is left as it is: preconditions are ignored on a request that would not be 2xx (§13.2.1),
 * so a missing resource stays 404. The tag is of the document
 * the format wrote (its text, as it will be sent), taken before a response hook runs.
 */
export function conditionalRead(
  request: HttpRequest,
  response: HttpResponse,
  contentType: string,
  callback: string | undefined,
): HttpResponse {
  if (response.status !== 200 || !READS.has(request.method) || response.body === undefined) return response;
  // Text already (a document the format wrote as JSON text, or a page), or a JSON value serialised once here.
  const asText = typeof response.body === 'string';
  const text = asText ? (response.body as string) : JSON.stringify(response.body);
  const etag = representationTag(response.headers['content-type'] ?? contentType, callback, text);
  const ifMatch = tagCondition(request.headers['if-match'], 'If-Match');
  if (ifMatch !== undefined && !strongMatch(ifMatch, etag)) {
    throw new ApiError(412, 'Precondition Failed', `If-Match names no current entity-tag of this resource`, {
      header: 'If-Match',
    });
  }
  const ifNoneMatch = tagCondition(request.headers['if-none-match'], 'If-None-Match');
  const held = ifNoneMatch === undefined ? undefined : weakMatch(ifNoneMatch, etag);
  if (held !== undefined) {
    const { 'content-type': _type, ...headers } = response.headers;
    // The tag of the representation the client holds: a compressed one's carries its coding.
    const notModified: HttpResponse = { status: 304, headers: { ...headers, etag: held } };
    notModifiedBytes.set(notModified, Buffer.byteLength(text));
    return notModified;
  }
  if (asText) return withHeaders(response, { etag });
  // Sent as this text, never serialised again (json-text-response.ts).
  return jsonTextResponse(response.status, { ...response.headers, etag }, text);
}
