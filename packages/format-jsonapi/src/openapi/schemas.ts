import type { CollectionSchema, RelationshipSchema } from '@colapi/schema';
import { compositeIdDescription } from '@colapi/query-ast';
import { columnSchema, componentName, inputSchema } from '@colapi/openapi';
import type { DescriptionContext, JsonSchema } from '@colapi/wire-format';
import { attributeNames } from '../resource-object.js';

/** Component schemas of Format A: resource objects, documents and request bodies of each collection. */

const name = (...parts: string[]) => componentName('jsonapi', ...parts);
// No `uri` format: JSON:API links keep the brackets of page[number] unencoded, which RFC 3986 does not allow.
const url: JsonSchema = { type: 'string', description: 'An absolute URL.' };
const nullableUrl: JsonSchema = {
  type: ['string', 'null'],
  description: 'An absolute URL, or null when there is no such page.',
};

/** The stored attributes of a collection: the resource object's attributes that are columns. */
function attributeColumns(collection: CollectionSchema) {
  return attributeNames(collection).flatMap((name) => collection.columns.get(name) ?? []);
}

/**
 * The `jsonapi` member: "1.0", or "1.1" with the extensions and profiles a document applies (an atomic
 * request's answers, a page by cursor and its errors).
 */
export function version(ctx: DescriptionContext): JsonSchema {
  const uris = { type: 'array', items: { type: 'string', format: 'uri' } };
  return ctx.schema(name('jsonapi'), () => ({
    type: 'object',
    properties: { version: { enum: ['1.0', '1.1'] }, ext: uris, profile: uris },
  }));
}

export function errorDocument(ctx: DescriptionContext): JsonSchema {
  return ctx.schema(name('error-document'), () => ({
    type: 'object',
    required: ['errors'],
    properties: {
      jsonapi: version(ctx),
      errors: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            status: { type: 'string', description: 'The HTTP status, as a string.' },
            title: { type: 'string' },
            detail: { type: 'string' },
            source: {
              type: 'object',
              properties: {
                parameter: { type: 'string', description: 'The query parameter at fault.' },
                pointer: { type: 'string', description: 'A JSON pointer to the member of the request body at fault.' },
                header: {
                  type: 'string',
                  description: 'The request header at fault (If-Match, If-None-Match, Colapi-Read-From).',
                },
              },
            },
          },
        },
      },
    },
  }));
}

/** `{type, id}` of a collection, or of any type when the collection is not given. */
export function identifier(ctx: DescriptionContext, target?: CollectionSchema): JsonSchema {
  return ctx.schema(target ? name(target.name, 'identifier') : name('identifier'), () => ({
    type: 'object',
    required: ['type', 'id'],
    properties: { type: target ? { const: target.name } : { type: 'string' }, id: { type: 'string' } },
  }));
}

/** The `data` of a relationship: one identifier or null, or a list of them. */
export function linkage(ctx: DescriptionContext, rel: RelationshipSchema): JsonSchema {
  const one = identifier(ctx, ctx.registry.target(rel));
  return rel.cardinality === 'one' ? { anyOf: [one, { type: 'null' }] } : { type: 'array', items: one };
}

export function resource(ctx: DescriptionContext, collection: CollectionSchema): JsonSchema {
  return ctx.schema(name(collection.name, 'resource'), () => {
    const attributes: Record<string, JsonSchema> = {};
    for (const c of attributeColumns(collection)) attributes[c.name] = columnSchema(c);
    for (const v of collection.virtualAttributes.keys())
      attributes[v] = { readOnly: true, description: 'Computed by the server.' };
    const relationships: Record<string, JsonSchema> = {};
    for (const rel of collection.relationships.values()) {
      relationships[rel.name] = {
        type: 'object',
        properties: { data: linkage(ctx, rel), links: { type: 'object', properties: { self: url, related: url } } },
      };
    }
    const properties: Record<string, JsonSchema> = { type: { const: collection.name }, id: idString(collection) };
    // Sparse fieldsets may leave out any attribute or relationship, so none is required.
    if (Object.keys(attributes).length) properties.attributes = { type: 'object', properties: attributes };
    if (Object.keys(relationships).length) properties.relationships = { type: 'object', properties: relationships };
    properties.links = { type: 'object', properties: { self: url } };
    properties.meta = { type: 'object' };
    properties.jsonapi = version(ctx);
    return { type: 'object', required: ['type', 'id'], properties };
  });
}

/** Any resource object, as found in `included`. */
function anyResource(ctx: DescriptionContext): JsonSchema {
  return ctx.schema(name('resource'), () => ({
    type: 'object',
    required: ['type', 'id'],
    properties: {
      type: { type: 'string' },
      id: { type: 'string' },
      attributes: { type: 'object' },
      relationships: { type: 'object' },
      links: { type: 'object' },
    },
  }));
}

export function resourceDocument(ctx: DescriptionContext, collection: CollectionSchema, nullable = false): JsonSchema {
  return ctx.schema(name(collection.name, nullable ? 'nullable-document' : 'document'), () => {
    const data = resource(ctx, collection);
    return {
      type: 'object',
      required: ['data'],
      properties: {
        jsonapi: version(ctx),
        data: nullable ? { anyOf: [data, { type: 'null' }] } : data,
        links: { type: 'object', properties: { self: url } },
        included: { type: 'array', items: anyResource(ctx) },
      },
    };
  });
}

export function collectionDocument(ctx: DescriptionContext, collection: CollectionSchema): JsonSchema {
  return ctx.schema(name(collection.name, 'collection-document'), () => {
    const one = resource(ctx, collection);
    return {
      type: 'object',
      required: ['data'],
      properties: {
        jsonapi: version(ctx),
        data: {
          description: 'The resources of the page; one resource object with filter[single]=1.',
          anyOf: [{ type: 'array', items: one }, one],
        },
        links: {
          type: 'object',
          properties: { self: url, first: url, last: nullableUrl, prev: nullableUrl, next: nullableUrl },
        },
        meta: {
          type: 'object',
          properties: { total: { type: 'integer', description: 'Resources matching the request, over all pages.' } },
        },
        included: { type: 'array', items: anyResource(ctx) },
      },
    };
  });
}

/** Whether a create must give a column: NOT NULL, and neither generated nor with a default. */
/** The `id` of a resource object: a string; for a composite key, one that says how its parts are spelled. */
function idString(collection: CollectionSchema): JsonSchema {
  const { keyColumns } = collection.model;
  return keyColumns.length > 1
    ? { type: 'string', description: compositeIdDescription(keyColumns) }
    : { type: 'string' };
}

function mustBeGiven(collection: CollectionSchema, name: string): boolean {
  const c = collection.model.columns.get(name);
  return c !== undefined && !c.nullable && !c.generated && !c.hasDefault;
}

/** The body of POST (create) or PATCH (update) of a resource. */
export function writeDocument(
  ctx: DescriptionContext,
  collection: CollectionSchema,
  mode: 'create' | 'update',
): JsonSchema {
  return ctx.schema(name(collection.name, mode), () => {
    const attributes: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const c of attributeColumns(collection)) {
      // A column the database computes is never written (400 naming it).
      if (c.readOnly) continue;
      attributes[c.name] = inputSchema(c);
      // A column the database fills (a default) is never required.
      if (mode === 'create' && mustBeGiven(collection, c.name)) required.push(c.name);
    }
    const relationships: Record<string, JsonSchema> = {};
    const requiredRelationships: string[] = [];
    for (const rel of collection.relationships.values()) {
      // A to-one relationship on a NOT NULL foreign key without a default: a create names its target.
      const needed = mode === 'create' && rel.join.kind === 'belongs-to' && mustBeGiven(collection, rel.join.ownColumn);
      const data = needed ? identifier(ctx, ctx.registry.target(rel)) : linkage(ctx, rel);
      relationships[rel.name] = { type: 'object', required: ['data'], properties: { data } };
      if (needed) requiredRelationships.push(rel.name);
    }
    // An id the database does not give (no generated key, no default) is the client's to send.
    const idNeeded =
      mode === 'create' && collection.allowClientGeneratedIds && mustBeGiven(collection, collection.model.key);
    const data: JsonSchema = {
      type: 'object',
      required: [
        'type',
        ...(mode === 'update' || idNeeded ? ['id'] : []),
        ...(required.length ? ['attributes'] : []),
        ...(requiredRelationships.length ? ['relationships'] : []),
      ],
      properties: {
        type: { const: collection.name },
        ...(mode === 'update' || collection.allowClientGeneratedIds ? { id: idString(collection) } : {}),
        attributes: {
          type: 'object',
          properties: attributes,
          ...(required.length ? { required } : {}),
          additionalProperties: false,
        },
        relationships: {
          type: 'object',
          properties: relationships,
          ...(requiredRelationships.length ? { required: requiredRelationships } : {}),
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    };
    return { type: 'object', required: ['data'], properties: { data } };
  });
}

/** The document of a relationship endpoint: linkage, in requests and responses alike. */
export function linkageDocument(
  ctx: DescriptionContext,
  collection: CollectionSchema,
  rel: RelationshipSchema,
): JsonSchema {
  return ctx.schema(name(collection.name, rel.name, 'linkage'), () => ({
    type: 'object',
    required: ['data'],
    properties: { data: linkage(ctx, rel), links: { type: 'object', properties: { self: url, related: url } } },
  }));
}

/** The answer to a GET of a relationship: its linkage, and the resources `include` asked for. */
export function linkageReadDocument(
  ctx: DescriptionContext,
  collection: CollectionSchema,
  rel: RelationshipSchema,
): JsonSchema {
  return ctx.schema(name(collection.name, rel.name, 'linkage-document'), () => ({
    type: 'object',
    required: ['data'],
    properties: {
      jsonapi: version(ctx),
      data: linkage(ctx, rel),
      links: { type: 'object', properties: { self: url, related: url } },
      included: { type: 'array', items: anyResource(ctx) },
    },
  }));
}

export function valuesDocument(ctx: DescriptionContext): JsonSchema {
  return ctx.schema(name('function-results'), () => ({
    type: 'object',
    required: ['data'],
    properties: {
      data: {
        type: 'array',
        description: 'One result per function object, in the order of the request.',
        items: { type: ['number', 'string', 'null'] },
      },
    },
  }));
}
