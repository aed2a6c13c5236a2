import type { HttpRequest, Route } from '@colapi/wire-format';

export const ORIGIN = 'http://example.com';
export const BASE = `${ORIGIN}/api`;

/** The route of a path under `/api`, as server-koa's router reads it. */
export function routeOf(pathname: string): Route {
  const segments = pathname
    .replace(/^\/api\//, '')
    .split('/')
    .map(decodeURIComponent);
  if (segments[0] === 'eval' && segments.length === 2) return { collection: segments[1]!, evaluate: true };
  const [c, id, third, fourth] = segments as [string, string?, string?, string?];
  if (id === undefined) return { collection: c };
  if (third === undefined) return { collection: c, id };
  if (third === 'relationships' && fourth !== undefined)
    return { collection: c, id, relation: fourth, relationships: true };
  if (fourth === undefined) return { collection: c, id, relation: third };
  return { collection: c, id, relation: third, relatedId: fourth };
}

export interface RequestInit {
  readonly headers?: Record<string, string>;
  /** The parsed JSON body; a request has a body exactly when this is given. */
  readonly body?: unknown;
}

/** A request as the server hands it to the format: `target` is a path under /api with its query. */
export function request(method: string, target: string, init: RequestInit = {}): HttpRequest {
  const url = new URL(target, ORIGIN);
  const hasBody = 'body' in init;
  return {
    method,
    url,
    base: BASE,
    route: routeOf(url.pathname),
    headers: init.headers ?? {},
    ...(hasBody ? { body: init.body } : {}),
    hasBody,
  };
}
