import { ApiError } from '@colapi/query-ast';
import { jsonTextResponse, withHeaders, type HttpRequest, type HttpResponse } from '@colapi/wire-format';
import { strongMatch, tagCondition, weakMatch } from './entity-tags.js';
import { representationTag } from './representation-tag.js';

/**
 * The size of the representation a 304 stands for, for compression(): whether the 200 would have been
 * compressed, and so tagged with its coding, depends on it.
 */
export const notModifiedBytes = new WeakMap<HttpResponse, number>();

/**
 * The UTF-8 bytes of a large tagged answer's body, digested for its tag and then sent as they are
 * (writeResponse): the text is encoded once, where the digest, Koa's Content-Length and the socket each
 * encoded or measured it. Keyed by the answer object, so a later stage that replaces the answer (a response
 * hook, JSONP, Server-Timing) sends its own body, never these bytes.
 */
export const encodedBodies = new WeakMap<HttpResponse, Buffer>();

/**
 * From this length of text on, a body is encoded once and sent as bytes. Below it the text is sent as it is:
 * Node writes a string body in one chunk with the head, a Buffer in a second one, and that costs more than
 * encoding a short text three times (counted by `pnpm bench:instructions`: a single resource of ~0.7 KB
 * +1.9 % as bytes, a page of 4-5 KB -2.3 to -4.4 %).
 */
const ENCODE_ONCE_FROM = 2048;

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
  const bytes = text.length >= ENCODE_ONCE_FROM ? Buffer.from(text) : undefined;
  const etag = representationTag(response.headers['content-type'] ?? contentType, callback, bytes ?? text);
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
    notModifiedBytes.set(notModified, bytes?.length ?? Buffer.byteLength(text));
    return notModified;
  }
  // A JSON value is sent as this text, never serialised again (json-text-response.ts).
  const tagged = asText
    ? withHeaders(response, { etag })
    : jsonTextResponse(response.status, { ...response.headers, etag }, text);
  if (bytes !== undefined) encodedBodies.set(tagged, bytes);
  return tagged;
}
