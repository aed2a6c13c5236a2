import { ApiError } from '@colapi/query-ast';
import type { HttpResponse } from '@colapi/wire-format';

const IDENTIFIER_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;

/** Checks a JSONP callback name: only a plain JavaScript identifier path can reach the response. */
export function jsonpCallback(params: URLSearchParams): string | undefined {
  const names = params.getAll('callback');
  if (names.length === 0) return undefined;
  // With two names there is no telling which one the page expects: refuse rather than guess.
  if (names.length > 1)
    throw ApiError.badRequest('query parameter callback is given more than once', { parameter: 'callback' });
  const name = names[0]!;
  if (name.length > 128 || !IDENTIFIER_PATH.test(name)) {
    throw ApiError.badRequest('callback must be a JavaScript identifier path such as handle or app.handle', {
      parameter: 'callback',
    });
  }
  return name;
}

/**
 * Writes a JSONP answer: `/**\/callback(<payload>);` served as JavaScript with status 200, so that the
 * browser runs it whatever happened. The payload, and so where the real status goes, is the wire format's
 * business (WireFormat.jsonpPayload). The comment prefix and nosniff defend against content sniffing.
 */
export function wrapJsonp(callback: string, response: HttpResponse, payload: object): HttpResponse {
  // U+2028 and U+2029 are valid in JSON strings but end a line in older JavaScript.
  const text = JSON.stringify(payload)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return {
    status: 200,
    headers: {
      ...response.headers,
      'content-type': 'application/javascript; charset=utf-8',
      'x-content-type-options': 'nosniff',
    },
    body: `/**/${callback}(${text});`,
  };
}
