import { foreignKeyColumns, type CollectionSchema, type RelationshipSchema } from '@colapi/schema';
import {
  ApiError,
  decodeWriteValues,
  pathRelationship,
  parseKey,
  shownValue,
  type Operation,
  type RelatedRef,
  type RelationshipWrite,
  type ResourceWrite,
} from '@colapi/query-ast';
import type { DecodeContext, HttpRequest } from '@colapi/wire-format';
import { parseJsonApiQuery } from './parse-query.js';
import { attributeNames } from './resource-object.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const bad = (detail: string, pointer: string) => ApiError.badRequest(detail, { pointer });
/** A member name as one reference token of a JSON Pointer (RFC 6901 §3): `~` is `~0`, `/` is `~1`. */
const token = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');

/** The top-level `data` member of a request document. */
function primaryData(body: unknown): unknown {
  if (!isObject(body)) throw bad('the request body must be a JSON:API document (an object with data)', '');
  if (!('data' in body)) throw bad('the document has no data member', '/data');
  return body.data;
}

/** One resource identifier object; its type must be the relationship's target type. */
function identifier(json: unknown, target: CollectionSchema, pointer: string): RelatedRef {
  if (!isObject(json)) throw bad('a resource identifier must be an object {type, id}', pointer);
  if (typeof json.type !== 'string') throw bad('a resource identifier needs a type', `${pointer}/type`);
  if (typeof json.id !== 'string') throw bad('a resource identifier needs an id, as a string', `${pointer}/id`);
  if (json.type !== target.name)
    throw ApiError.conflict(`type "${json.type}" does not match the relationship's type "${target.name}"`, {
      pointer: `${pointer}/type`,
    });
  return { kind: 'existing', id: validId(json.id, target, `${pointer}/id`) };
}

/** An id of a body, as the strict key parser reads it: 400 when it cannot be a key of the collection. */
function validId(id: string, collection: CollectionSchema, pointer: string): string {
  const parsed = parseKey(collection.model, id);
  if (!parsed.ok) throw bad(`${shownValue(id)} is not a valid id of ${collection.name}: ${parsed.reason}`, pointer);
  return id;
}

/** The linkage of a relationship object or a relationship endpoint body. */
export function linkageChange(
  data: unknown,
  rel: RelationshipSchema,
  target: CollectionSchema,
  pointer: string,
  mode: 'replace' | 'add' | 'remove',
): RelationshipWrite {
  if (rel.cardinality === 'one') {
    if (mode !== 'replace')
      throw new ApiError(
        405,
        'Method Not Allowed',
        `${rel.name} is a to-one relationship: change it with PATCH`,
        undefined,
        { allow: 'GET, PATCH' },
      );
    return { mode: 'set', target: data === null ? null : identifier(data, target, pointer) };
  }
  if (!Array.isArray(data))
    throw bad(`${rel.name} is a to-many relationship: data must be a list of resource identifiers`, pointer);
  return { mode, targets: data.map((d, i) => identifier(d, target, `${pointer}/${i}`)) };
}

const RESOURCE_MEMBERS = new Set(['type', 'id', 'attributes', 'relationships', 'links', 'meta']);

/** The attributes and relationships of a resource object in a POST or PATCH body. */
function resourceWrite(
  data: Record<string, unknown>,
  collection: CollectionSchema,
  ctx: DecodeContext,
  update: boolean,
): ResourceWrite {
  const unknown = Object.keys(data).find((k) => !RESOURCE_MEMBERS.has(k));
  if (unknown) throw bad(`"${unknown}" is not a member of a resource object`, `/data/${token(unknown)}`);
  const attributes = data.attributes ?? {};
  if (!isObject(attributes)) throw bad('attributes must be an object', '/data/attributes');
  const keyColumns = collection.model.keyColumns;
  // A composite key's columns are attributes a create gives (or its id does); an update changes none of them.
  const writable = new Set(
    attributeNames(collection).filter((n) => !(update && keyColumns.length > 1 && keyColumns.includes(n))),
  );
  const fks = foreignKeyColumns(collection.model);
  const values = decodeWriteValues(collection, attributes, {
    writable,
    sourceOf: (name) => ({ pointer: `/data/attributes/${token(name)}` }),
    hint: (name) => {
      if (name === collection.model.key)
        return `"${name}" is the resource's identity: it goes in data.id, never in attributes`;
      if (keyColumns.length > 1 && keyColumns.includes(name))
        return `"${name}" is part of the id of ${collection.name}, which does not change`;
      const rel = [...collection.relationships.values()].find(
        (r) => r.join.kind === 'belongs-to' && r.join.ownColumn === name,
      );
      if (fks.has(name) && rel) return `"${name}" is set through the relationship "${rel.name}"`;
      if (collection.relationships.has(name)) return `"${name}" is a relationship: give it under relationships`;
      return undefined;
    },
  });
  const relationships: Record<string, RelationshipWrite> = {};
  const rels = data.relationships ?? {};
  if (!isObject(rels)) throw bad('relationships must be an object', '/data/relationships');
  for (const [name, value] of Object.entries(rels)) {
    const pointer = `/data/relationships/${token(name)}`;
    const rel = collection.relationships.get(name);
    if (!rel) throw bad(`"${name}" is not a relationship of ${collection.name}`, pointer);
    if (!isObject(value) || !('data' in value)) throw bad('a relationship must be an object with data', pointer);
    // JSON:API: a server that refuses full replacement of a to-many relationship refuses it here too, whole.
    if (update && rel.cardinality === 'many' && !collection.allowToManyReplacement) {
      throw ApiError.forbidden(`${collection.name} does not allow replacing all of ${rel.name}`, { pointer });
    }
    relationships[name] = linkageChange(value.data, rel, ctx.registry.target(rel), `${pointer}/data`, 'replace');
  }
  return { values, relationships };
}

function checkType(data: Record<string, unknown>, collection: CollectionSchema): void {
  if (data.type === undefined) throw bad('the resource object needs a type', '/data/type');
  if (data.type !== collection.name) {
    throw ApiError.conflict(`type ${shownValue(data.type)} does not match the collection "${collection.name}"`, {
      pointer: '/data/type',
    });
  }
}

/** Decodes POST, PATCH and DELETE of Format A into write operations. */
export function decodeWrite(request: HttpRequest, collection: CollectionSchema, ctx: DecodeContext): Operation {
  const { route, method } = request;
  const query = () => parseJsonApiQuery(request.url.searchParams, collection, ctx, 'single');
  if (route.relationships && route.relation !== undefined) {
    const rel = pathRelationship(collection, route.relation);
    const mode = method === 'POST' ? 'add' : method === 'DELETE' ? 'remove' : 'replace';
    // Before the body is read: whatever it holds, a to-one relationship is only ever replaced.
    if (rel.cardinality === 'one' && mode !== 'replace') {
      const allow = (['GET', 'PATCH'] as const).filter((m) => collection.methods.has(m)).join(', ');
      throw new ApiError(
        405,
        'Method Not Allowed',
        `${rel.name} is a to-one relationship: change it with PATCH`,
        undefined,
        { allow },
      );
    }
    if (rel.cardinality === 'many' && mode === 'replace' && !collection.allowToManyReplacement) {
      throw ApiError.forbidden(`${collection.name} does not allow replacing all of ${rel.name}`);
    }
    if (rel.cardinality === 'many' && mode === 'remove' && !collection.allowToManyRemoval) {
      throw ApiError.forbidden(`${collection.name} does not allow removing from ${rel.name}`);
    }
    const change = linkageChange(primaryData(request.body), rel, ctx.registry.target(rel), '/data', mode);
    return { kind: 'update-linkage', collection, id: route.id!, relation: rel.name, change };
  }
  if (route.id === undefined && method === 'POST') {
    const data = primaryData(request.body);
    if (!isObject(data)) throw bad('data must be a resource object', '/data');
    checkType(data, collection);
    if (data.id !== undefined) {
      if (!collection.allowClientGeneratedIds)
        throw ApiError.forbidden(`${collection.name} does not accept client-generated ids`, { pointer: '/data/id' });
      if (typeof data.id !== 'string') throw bad('id must be a string', '/data/id');
      validId(data.id, collection, '/data/id');
    }
    const write = resourceWrite(data, collection, ctx, false);
    return {
      kind: 'create',
      collection,
      write,
      query: query(),
      ...(typeof data.id === 'string' ? { id: data.id } : {}),
    };
  }
  if (route.id !== undefined && route.relation === undefined && method === 'PATCH') {
    const data = primaryData(request.body);
    if (!isObject(data)) throw bad('data must be a resource object', '/data');
    checkType(data, collection);
    if (data.id === undefined) throw bad('the resource object needs an id', '/data/id');
    if (typeof data.id !== 'string') throw bad('id must be a string', '/data/id');
    if (data.id !== route.id)
      throw ApiError.conflict(`id "${String(data.id)}" does not match the URL's id "${route.id}"`, {
        pointer: '/data/id',
      });
    return {
      kind: 'update',
      collection,
      id: route.id,
      write: resourceWrite(data, collection, ctx, true),
      query: query(),
    };
  }
  if (route.id !== undefined && route.relation === undefined && method === 'DELETE') {
    return { kind: 'delete', collection, id: route.id };
  }
  throw new ApiError(405, 'Method Not Allowed', `${method} is not allowed on this path`);
}
