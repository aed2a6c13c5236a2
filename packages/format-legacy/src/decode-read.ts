import type { CollectionSchema, Registry } from '@colapi/schema';
import {
  ApiError,
  emptyReadQuery,
  parseFunctionCalls,
  parseJsonParameter,
  pathRelationship,
  type Operation,
  type OperatorSet,
  type ReadQuery,
} from '@colapi/query-ast';
import type { DecodeContext, HttpRequest } from '@colapi/wire-format';
import { parseLegacyQuery, parseLegacySearch } from './parse-query.js';

/**
 * What a Format B object shows besides its fields: every relationship, one level deep. Asking for them as
 * includes lets the executor load each relationship for a whole page in one query. The empty field lists
 * of the related collections stop it from also loading the linkage of the nested instances, which Format B
 * does not show.
 */
export function nestedView(collection: CollectionSchema, registry: Registry): Pick<ReadQuery, 'include' | 'fields'> {
  const relationships = [...collection.relationships.values()];
  const fields: Record<string, readonly string[]> = {};
  for (const rel of relationships) fields[registry.target(rel).name] = [];
  return { include: relationships.map((r) => [r.name]), fields };
}

/** The read query of one object: no search, only the nested view. */
export function objectQuery(collection: CollectionSchema, registry: Registry): ReadQuery {
  return { ...emptyReadQuery(), ...nestedView(collection, registry) };
}

function listQuery(
  request: HttpRequest,
  collection: CollectionSchema,
  ctx: DecodeContext,
  operators: OperatorSet | undefined,
): ReadQuery {
  const query = parseLegacyQuery(request.url.searchParams, collection, ctx, operators ? { operators } : {});
  return { ...query, ...nestedView(collection, ctx.registry) };
}

/**
 * Decodes a GET of Format B: a collection (with `q`, `page`, `results_per_page`), one object, the related
 * instances of an object (always a list object, to-one relationships included), or one related instance.
 */
export function decodeRead(
  request: HttpRequest,
  collection: CollectionSchema,
  ctx: DecodeContext,
  operators?: OperatorSet,
): Operation {
  const { route } = request;
  if (route.id === undefined)
    return { kind: 'list', collection, query: listQuery(request, collection, ctx, operators) };
  if (route.relation === undefined)
    return { kind: 'fetch', collection, id: route.id, query: objectQuery(collection, ctx.registry) };
  const rel = pathRelationship(collection, route.relation);
  const target = ctx.registry.target(rel);
  const scope = { owner: collection, ownerId: route.id, relation: rel.name };
  if (route.relatedId !== undefined) {
    return { kind: 'fetch', collection: target, id: route.relatedId, scope, query: objectQuery(target, ctx.registry) };
  }
  return { kind: 'list', collection: target, scope, query: listQuery(request, target, ctx, operators) };
}

/** The members of `q` function evaluation takes; `functions` is taken out before the search is parsed. */
const EVALUATE_MEMBERS: ReadonlySet<string> = new Set(['functions', 'filters', 'disjunction']);

/**
 * `GET /api/eval/<collection>?q={"functions": [{name, field}, …], "filters": […]}`. Without `q`, or with an
 * empty one, the request says nothing of what to evaluate: 400, as Flask-Restless 0.17 answers. An explicit
 * object without functions (`q={}`) asks for none, and is answered with the empty object.
 */
export function decodeEvaluate(
  request: HttpRequest,
  collection: CollectionSchema,
  ctx: DecodeContext,
  operators?: OperatorSet,
): Operation {
  const text = request.url.searchParams.get('q');
  const source = { parameter: 'q' };
  if (text === null || text.trim() === '') {
    throw ApiError.badRequest(
      'query parameter q is required: a JSON object such as {"functions": [{"name": "count", "field": "id"}]}',
      source,
    );
  }
  const json = parseJsonParameter(text, 'q');
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw ApiError.badRequest('q must be a JSON object', source);
  const { functions: calls, ...search } = json as Record<string, unknown>;
  const functions = calls === undefined ? [] : parseFunctionCalls(calls, collection, source, 'q.functions');
  const { filter } = parseLegacySearch(search, collection, ctx, {
    source,
    path: 'q',
    members: EVALUATE_MEMBERS,
    ...(operators ? { operators } : {}),
  });
  return { kind: 'evaluate', collection, functions, ...(filter ? { filter } : {}) };
}
