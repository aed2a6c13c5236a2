import type { HttpRequest, Route } from '@colapi/wire-format';
import type Koa from 'koa';
import { requestOrigin, requestUrl } from '../request-origin.js';

/** Methods whose requests may carry a JSON body. */
export const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** Where links point: the configured base, or the request's own origin plus the prefix. */
export interface LinkBase {
  readonly prefix: string;
  readonly baseUrl?: string;
}

/**
 * Stage 1: the request as the format sees it, built once from Koa's context: its URL parsed once, its Host
 * checked (a bad one throws a 400), no body yet (`readBody` adds it after the method is allowed).
 */
export function requestHead(ctx: Koa.Context, route: Route, links: LinkBase): HttpRequest {
  const origin = requestOrigin(ctx);
  const { method, headers } = ctx.req;
  return {
    method: method!,
    url: requestUrl(ctx.originalUrl, origin),
    base: baseOf(links, origin),
    route,
    headers: headers as Record<string, string | undefined>,
    hasBody:
      BODY_METHODS.has(method!) && (Number(headers['content-length'] || 0) > 0 || !!headers['transfer-encoding']),
  };
}

/**
 * The request with its body: every member of the head, written out. `{ ...head, body }` (a spread, then a
 * member the head lacks) gets a map of its own from V8 on every call, so every read of the request after it
 * missed its inline caches and went through the runtime: about a microsecond per write request.
 */
export function withBody(head: HttpRequest, body: unknown): HttpRequest {
  const { method, url, base, route, headers, hasBody } = head;
  return { method, url, base, route, headers, hasBody, body };
}

/** Link bases by configuration and origin: a server sees few origins (see request-origin.ts). */
const bases = new WeakMap<LinkBase, Map<string, string>>();

/** Where the links of a response on `origin` start, without a trailing slash. */
function baseOf(links: LinkBase, origin: string): string {
  let byOrigin = bases.get(links);
  if (!byOrigin) bases.set(links, (byOrigin = new Map()));
  let base = byOrigin.get(origin);
  if (base === undefined) {
    base = (links.baseUrl ?? `${origin}${links.prefix}`).replace(/\/$/, '');
    // Bounded like the origins it is keyed by.
    if (byOrigin.size >= 256) byOrigin.clear();
    byOrigin.set(origin, base);
  }
  return base;
}

/** The request whose URL or Host did not parse: enough for the error to keep the format's shape. */
export function standInHead(ctx: Koa.Context, route: Route, links: LinkBase): HttpRequest {
  return {
    method: ctx.method,
    url: new URL('http://localhost/'),
    base: links.prefix,
    route,
    headers: {},
    hasBody: false,
  };
}
