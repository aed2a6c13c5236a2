import type { CollectionSchema, RelationshipSchema } from '@colapi/schema';
import {
  ApiError,
  decodeWriteValues,
  pathRelationship,
  parseJsonParameter,
  parseKey,
  shownValue,
  type ErrorSource,
  type Operation,
  type OperatorSet,
  type RelationshipWrite,
} from '@colapi/query-ast';
import type { DecodeContext, HttpRequest } from '@colapi/wire-format';
import { parseLegacySearch } from './parse-query.js';
import { objectQuery } from './decode-read.js';
import { bad, bodyId, isObject, resourceWrite, writeHint } from './resource-write.js';

/** The body of a POST, PATCH or PUT: always a JSON object of field values. */
function bodyObject(request: HttpRequest): Record<string, unknown> {
  if (!isObject(request.body)) throw bad('Unable to decode data: the body must be a JSON object of field values', '');
  return request.body;
}

/** The registration options that may refuse some relationship changes on an existing resource. */
function checkAllowed(collection: CollectionSchema, rel: RelationshipSchema, change: RelationshipWrite): void {
  if (rel.cardinality !== 'many') return;
  if (change.mode === 'replace' && !collection.allowToManyReplacement) {
    throw ApiError.forbidden(`${collection.name} does not allow replacing all of ${rel.name}`);
  }
  if ((change.mode === 'remove' || change.mode === 'unlink') && !collection.allowToManyRemoval) {
    throw ApiError.forbidden(`${collection.name} does not allow removing from ${rel.name}`);
  }
}

function decodeCreate(request: HttpRequest, collection: CollectionSchema, ctx: DecodeContext): Operation {
  const body = bodyObject(request);
  const key = collection.model.key;
  const given = body[key];
  let id: string | undefined;
  if (given !== undefined && given !== null) {
    // Format B names no option of its own; the registration's allow_client_generated_ids decides for both.
    if (!collection.allowClientGeneratedIds && collection.model.columns.get(key)?.generated) {
      throw bad(`${collection.name} generates its ids: leave out "${key}"`, `/${key}`);
    }
    id = bodyId(given, collection, `/${key}`);
  }
  const write = resourceWrite(body, collection, ctx, '', 0, new Set([key]));
  return {
    kind: 'create',
    collection,
    write,
    query: objectQuery(collection, ctx.registry),
    ...(id !== undefined ? { id } : {}),
  };
}

function decodeUpdate(request: HttpRequest, collection: CollectionSchema, id: string, ctx: DecodeContext): Operation {
  const body = bodyObject(request);
  const key = collection.model.key;
  const given = body[key];
  // Sending back the object just read, id included, is fine; changing the id is not.
  // Only a number or a string can name the same resource; any other value changes nothing but is refused.
  const same = (typeof given === 'number' || typeof given === 'string') && String(given) === id;
  if (given !== undefined && given !== null && !same) {
    throw bad(`"${key}" is ${id} in the URL and cannot be changed to ${shownValue(given)}`, `/${key}`);
  }
  const write = resourceWrite(body, collection, ctx, '', 0, new Set([key]));
  for (const [name, change] of Object.entries(write.relationships))
    checkAllowed(collection, collection.relationships.get(name)!, change);
  return { kind: 'update', collection, id, write, query: objectQuery(collection, ctx.registry) };
}

/** `q` given as JSON text; 400 "q is not valid JSON" at its place (`/q` in the body, the parameter in the URL). */
function parseJsonText(text: string, source: ErrorSource): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw ApiError.badRequest('q is not valid JSON', source);
  }
}

/** A bulk update takes only these members of its search: limits and ordering make no sense for it. */
const BULK_MEMBERS: ReadonlySet<string> = new Set(['filters', 'disjunction']);

/** `PATCH /api/<collection>` with field values and `q` in the body, or `q` in the query string. */
function decodeUpdateMany(
  request: HttpRequest,
  collection: CollectionSchema,
  ctx: DecodeContext,
  operators?: OperatorSet,
): Operation {
  const { q: inBody, ...fields } = bodyObject(request);
  const inUrl = request.url.searchParams.get('q');
  if (inBody !== undefined && inUrl !== null) throw bad('give q in the body or in the query string, not both', '/q');
  const source = inBody !== undefined ? { pointer: '/q' } : { parameter: 'q' };
  let search: unknown = inBody ?? (inUrl === null ? {} : parseJsonParameter(inUrl, 'q'));
  // JSON text, in the body or (doubly encoded) in the query string: an error names where it came from.
  if (typeof search === 'string') search = parseJsonText(search, source);
  const { filter } = parseLegacySearch(search, collection, ctx, {
    source,
    path: 'q',
    members: BULK_MEMBERS,
    ...(operators ? { operators } : {}),
  });
  const values = decodeWriteValues(collection, fields, {
    sourceOf: (name) => ({ pointer: `/${name}` }),
    hint: (name) =>
      collection.relationships.has(name)
        ? `"${name}" is a relationship; a bulk update sets field values only`
        : writeHint(collection, name),
  });
  return { kind: 'update-many', collection, values, ...(filter ? { filter } : {}) };
}

/**
 * `DELETE /api/<collection>/<id>/<relation>/<related_id>`: the related instance leaves the relation, and lives
 * on. It must be a valid key of the related collection (400) and be related now (404): anything else changes nothing.
 */
function decodeUnlink(
  collection: CollectionSchema,
  id: string,
  relation: string,
  relatedId: string,
  ctx: DecodeContext,
): Operation {
  const rel = pathRelationship(collection, relation);
  const target = ctx.registry.target(rel);
  const parsed = parseKey(target.model, relatedId);
  if (!parsed.ok)
    throw ApiError.badRequest(`${shownValue(relatedId)} is not a valid id of ${target.name}: ${parsed.reason}`);
  const change: RelationshipWrite = { mode: 'unlink', id: String(parsed.key) };
  checkAllowed(collection, rel, change);
  return { kind: 'update-linkage', collection, id, relation: rel.name, change };
}

/** Decodes POST, PATCH, PUT (an alias of PATCH everywhere) and DELETE of Format B into write operations. */
export function decodeWrite(
  request: HttpRequest,
  collection: CollectionSchema,
  ctx: DecodeContext,
  operators?: OperatorSet,
): Operation {
  const { route, method } = request;
  if (route.id === undefined) {
    if (method === 'POST') return decodeCreate(request, collection, ctx);
    if (method === 'PATCH' || method === 'PUT') return decodeUpdateMany(request, collection, ctx, operators);
  } else if (route.relation === undefined) {
    if (method === 'DELETE') return { kind: 'delete', collection, id: route.id };
    if (method === 'PATCH' || method === 'PUT') return decodeUpdate(request, collection, route.id, ctx);
  } else if (route.relatedId !== undefined && method === 'DELETE') {
    return decodeUnlink(collection, route.id, route.relation, route.relatedId, ctx);
  }
  throw new ApiError(405, 'Method Not Allowed', `${method} is not allowed on this path`);
}
