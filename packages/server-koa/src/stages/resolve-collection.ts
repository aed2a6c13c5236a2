import { ApiError } from '@colapi/query-ast';
import type { CollectionSchema, HttpMethod, Registry } from '@colapi/schema';
import { routeKind, type Route, type WireFormat } from '@colapi/wire-format';

/** The collection a route names and the methods its path allows there. */
export interface Target {
  readonly collection: CollectionSchema;
  readonly methods: readonly HttpMethod[];
}

/**
 * Stage 2: the collection of the route, or 404; the methods the format routes on this kind of path and the
 * collection registered. Whether the request's method is among them is the caller's (OPTIONS answers them).
 */
export function resolveCollection(registry: Registry, format: WireFormat, route: Route, path: string): Target {
  if (route.collection === '') throw ApiError.notFound(`no resource lives at ${path}`);
  const collection = registry.collection(route.collection);
  if (!collection) throw ApiError.notFound(`there is no collection named "${route.collection}"`);
  // Said apart from a missing collection: the collection exists (its own URL answers), evaluation does not.
  if (route.evaluate && !collection.allowFunctions) {
    throw ApiError.notFound(`evaluation is off for the collection "${route.collection}" (allow_functions is not set)`);
  }
  return { collection, methods: format.methodsFor(routeKind(route)).filter((m) => collection.methods.has(m)) };
}

/** 405 with `Allow` unless `method` (HEAD counts as GET) is one of the target's methods. */
export function checkMethod(target: Target, method: string): void {
  if (target.methods.includes((method === 'HEAD' ? 'GET' : method) as HttpMethod)) return;
  throw new ApiError(
    405,
    'Method Not Allowed',
    `${method} is not allowed on this path of ${target.collection.name}`,
    undefined,
    {
      allow: target.methods.join(', '),
    },
  );
}
