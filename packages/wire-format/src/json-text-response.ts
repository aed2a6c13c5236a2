import type { HttpResponse } from './http-message.js';

const TEXT = Symbol('colapi.jsonText');

interface WithText extends HttpResponse {
  readonly [TEXT]?: () => string | undefined;
}

/**
 * A response whose body a format wrote as JSON text, as it goes out. `body` is that text parsed, the
 * first time something reads it (a response hook, JSONP, a test); a body nobody reads goes out as the
 * text, never built as objects nor serialised again. Once `body` has been read it may have been changed
 * in place, so from then on the text is no longer offered (`jsonTextOf` answers undefined) and the body
 * is serialised as any other.
 *
 * `body` is an own enumerable property, so `{ ...response, headers }` carries the body along (parsed);
 * the text is not enumerable, so a copy never carries a text its body may contradict.
 */
export function jsonTextResponse(
  status: number,
  headers: Readonly<Record<string, string>>,
  text: string,
): HttpResponse {
  let body: unknown;
  let unread = true;
  const response = { status, headers } as HttpResponse;
  Object.defineProperty(response, 'body', {
    enumerable: true,
    get() {
      if (unread) {
        body = JSON.parse(text);
        unread = false;
      }
      return body;
    },
  });
  Object.defineProperty(response, TEXT, { value: () => (unread ? text : undefined) });
  return response;
}

/** The JSON text of a response's body, when a format wrote it so and nothing has read the body since. */
export function jsonTextOf(response: HttpResponse): string | undefined {
  return (response as WithText)[TEXT]?.();
}

/** The response with more headers, keeping its body's text when it has one. */
export function withHeaders(response: HttpResponse, headers: Readonly<Record<string, string>>): HttpResponse {
  const merged = { ...response.headers, ...headers };
  const text = jsonTextOf(response);
  return text === undefined ? { ...response, headers: merged } : jsonTextResponse(response.status, merged, text);
}
