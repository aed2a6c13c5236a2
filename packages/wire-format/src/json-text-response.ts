import type { HttpResponse } from './http-message.js';

/** The text of each response written as text, while its body is unread: a copy of a response has none. */
const texts = new WeakMap<HttpResponse, () => string | undefined>();

/**
 * A response whose body a format wrote as JSON text, as it goes out. `body` is that text parsed, the
 * first time something reads it (a response hook, JSONP, a test); a body nobody reads goes out as the
 * text, never built as objects nor serialised again. Once `body` has been read it may have been changed
 * in place, so from then on the text is no longer offered (`jsonTextOf` answers undefined) and the body
 * is serialised as any other.
 *
 * `body` is an own enumerable property, so `{ ...response, headers }` carries the body along (parsed);
 * the text is kept beside the response, not on it, so a copy never offers a text its body may contradict.
 */
export function jsonTextResponse(
  status: number,
  headers: Readonly<Record<string, string>>,
  text: string,
): HttpResponse {
  let body: unknown;
  let unread = true;
  // An object literal, whose accessor V8 keeps in one shape for all responses (defineProperty on each cost more).
  const response: HttpResponse = {
    status,
    headers,
    get body() {
      if (unread) {
        body = JSON.parse(text);
        unread = false;
      }
      return body;
    },
  };
  texts.set(response, () => (unread ? text : undefined));
  return response;
}

/** The JSON text of a response's body, when a format wrote it so and nothing has read the body since. */
export function jsonTextOf(response: HttpResponse): string | undefined {
  return texts.get(response)?.();
}

/** The response with more headers, keeping its body's text when it has one. */
export function withHeaders(response: HttpResponse, headers: Readonly<Record<string, string>>): HttpResponse {
  const merged = { ...response.headers, ...headers };
  const text = jsonTextOf(response);
  return text === undefined ? { ...response, headers: merged } : jsonTextResponse(response.status, merged, text);
}
