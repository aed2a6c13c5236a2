import { ApiError, type HttpResponse } from '@colapi/query-ast';

const IDENTIFIER_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;

/** Checks a JSONP callback name: only a plain JavaScript identifier path can reach the response. */
export function jsonpCallback(params: URLSearchParams): string | undefined {
  const names = params.getAll('callback');
  if (names.length === 0) return undefined;
  // With two names there is no telling which one the page expects: refuse rather than guess.
  if (names.length > 1) throw ApiError.badRequest('query parameter callback is given more than once', { parameter: 'callback' });
  const name = names[0]!;
  if (name.length > 128 || !IDENTIFIER_PATH.test(name)) {
    throw ApiError.badRequest('callback must be a JavaScript identifier path such as handle or app.handle', { parameter: 'callback' });
  }
  return name;
}

/** Parses a Link header into `{url, rel, …}` objects. */
export function parseLinkHeader(header: string): Record<string, string>[] {
  const links: Record<string, string>[] = [];
  for (const part of header.split(/,(?=\s*<)/)) {
    const m = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!m) continue;
    const link: Record<string, string> = { url: m[1]! };
    for (const p of m[2]!.split(';')) {
      const kv = /^\s*([^=\s]+)\s*=\s*"?([^"]*)"?\s*$/.exec(p);
      if (kv) link[kv[1]!.toLowerCase()] = kv[2]!;
    }
    links.push(link);
  }
  return links;
}

/**
 * Wraps a response for JSONP: `callback({meta: {status, headers}, data})` served as JavaScript with status
 * 200, so that the browser runs it whatever happened; the real status is in `meta.status`.
 */
export function wrapJsonp(callback: string, response: HttpResponse): HttpResponse {
  const headers: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(response.headers)) {
    if (k === 'content-type') continue;
    headers[k] = k === 'link' ? parseLinkHeader(v) : v;
  }
  const payload = JSON.stringify({ meta: { status: response.status, headers }, data: response.body ?? null })
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return {
    status: 200,
    headers: { ...response.headers, 'content-type': 'application/javascript; charset=utf-8', 'x-content-type-options': 'nosniff' },
    body: `/**/${callback}(${payload});`,
  };
}
