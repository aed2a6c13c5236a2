import type { HttpResponse } from './http-message.js';

/**
 * A response whose body a format wrote as JSON text: `body` is that text and `jsonText` says so, so the
 * server sends it as it is, never building the document as objects nor serialising it again. Whatever
 * wants the document itself (a test, JSONP) reads it with `documentOf`; a response hook is given a
 * `readableResponse`.
 *
 * A plain object holding a string, not a lazily parsed accessor: a closure on every response made each
 * one outlive the young generation (about 2 KB promoted per request, see docs/performance.md), so the
 * accessor is built only where a hook is installed.
 */
export function jsonTextResponse(
  status: number,
  headers: Readonly<Record<string, string>>,
  text: string,
): HttpResponse {
  return { status, headers, body: text, jsonText: true };
}

/** The JSON text of a response's body, when a format wrote it so. */
export function jsonTextOf(response: HttpResponse): string | undefined {
  return response.jsonText === true ? (response.body as string) : undefined;
}

/** A response's document as a JSON value: its text parsed when it was written as text. */
export function documentOf(response: HttpResponse): unknown {
  return response.jsonText === true ? JSON.parse(response.body as string) : response.body;
}

/** The text of each readable response, while its body is unread; a copy of one has none. */
const unread = new WeakMap<HttpResponse, () => string | undefined>();

/**
 * The response with its document as a JSON value, for code that may read or change it (a response
 * hook): `body` is the text parsed on first read. Until it is read, `sendableResponse` turns the
 * response (or `withHeaders` of it) back into its text, so a hook that only adds headers costs no parse.
 * `body` is an own enumerable property, so `{ ...response, headers }` copies it (parsed).
 */
export function readableResponse(response: HttpResponse): HttpResponse {
  if (response.jsonText !== true) return response;
  const text = response.body as string;
  let body: unknown;
  let read = false;
  const readable: HttpResponse = {
    status: response.status,
    headers: response.headers,
    get body() {
      if (!read) {
        body = JSON.parse(text);
        read = true;
      }
      return body;
    },
  };
  unread.set(readable, () => (read ? undefined : text));
  return readable;
}

/** A readable response whose body nobody read back as its text; any other response as it is. */
export function sendableResponse(response: HttpResponse): HttpResponse {
  const text = unread.get(response)?.();
  return text === undefined ? response : jsonTextResponse(response.status, response.headers, text);
}

/** The response with more headers; a body written as text stays text, and a readable one stays unread. */
export function withHeaders(response: HttpResponse, headers: Readonly<Record<string, string>>): HttpResponse {
  const merged = { ...response.headers, ...headers };
  const text = unread.get(response)?.();
  if (text !== undefined) return readableResponse(jsonTextResponse(response.status, merged, text));
  return { ...response, headers: merged };
}
