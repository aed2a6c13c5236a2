import type { HttpRequest, HttpResponse } from '@colapi/wire-format';
import { conventionalHeaderName } from './header-name.js';
import { parseLinkHeader } from './parse-link-header.js';

/** The argument of a Format B JSONP callback: `{meta: {status, <Header>: value, …}, data: <body>}`. */
export interface LegacyJsonpPayload {
  readonly meta: Readonly<Record<string, unknown>> & { readonly status: number };
  readonly data: unknown;
}

/**
 * Format B wraps GET (and HEAD) answers only, as the specification says. `meta` holds the status and each
 * response header as a member of its own, named as HTTP spells it, as Flask-Restless 0.17 does
 * (`meta.update(headers)`); `Link` becomes its list of `{url, rel, …}` objects. `Content-Type` is left
 * out: it describes the JSON body, which the client receives as a script of another type.
 */
export function legacyJsonpPayload(request: HttpRequest, response: HttpResponse): LegacyJsonpPayload | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const meta: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    const header = conventionalHeaderName(name);
    if (header === 'Content-Type') continue;
    meta[header] = header === 'Link' ? parseLinkHeader(value) : value;
  }
  // Header names are capitalised, so none can be `status`.
  return { meta: { status: response.status, ...meta }, data: response.body ?? null };
}
