import type { CollectionSchema, RelationshipSchema } from '@colapi/schema';
import { compositeIdDescription, type OperatorSet } from '@colapi/query-ast';
import { columnSchema, componentName, filterSchema, inputSchema } from '@colapi/openapi';
import type { DescriptionContext, JsonSchema } from '@colapi/wire-format';

/** Component schemas of Format B: plain objects, list objects, search objects and request bodies. */

const name = (...parts: string[]) => componentName('legacy', ...parts);

export function errorObject(ctx: DescriptionContext): JsonSchema {
  return ctx.schema(name('error'), () => ({
    type: 'object',
    required: ['message'],
    properties: { message: { type: 'string' } },
  }));
}

/** The field values of a collection (columns and virtual attributes), as a related instance shows them. */
export function fields(ctx: DescriptionContext, collection: CollectionSchema): JsonSchema {
  return ctx.schema(name(collection.name, 'fields'), () => {
    const properties: Record<string, JsonSchema> = {};
    for (const c of collection.columns.values()) properties[c.name] = columnSchema(c);
    for (const v of collection.virtualAttributes.keys())
      properties[v] = { readOnly: true, description: 'Computed by the server.' };
    return { type: 'object', required: [collection.model.key], properties };
  });
}

/** One instance: its fields, with related instances nested (to-one an object or null, to-many a list). */
export function object(ctx: DescriptionContext, collection: CollectionSchema): JsonSchema {
  return ctx.schema(name(collection.name, 'object'), () => {
    const related: Record<string, JsonSchema> = {};
    for (const rel of collection.relationships.values()) {
      const nested = fields(ctx, ctx.registry.target(rel));
      related[rel.name] =
        rel.cardinality === 'one' ? { anyOf: [nested, { type: 'null' }] } : { type: 'array', items: nested };
    }
    return { allOf: [fields(ctx, collection), { type: 'object', properties: related }] };
  });
}

export function list(ctx: DescriptionContext, collection: CollectionSchema): JsonSchema {
  return ctx.schema(name(collection.name, 'list'), () => ({
    type: 'object',
    required: ['num_results', 'total_pages', 'page', 'objects'],
    properties: {
      num_results: { type: 'integer', description: 'Instances matching the search, over all pages.' },
      total_pages: { type: 'integer' },
      page: { type: 'integer' },
      objects: { type: 'array', items: object(ctx, collection) },
    },
  }));
}

/** The search object `q`. */
export function search(ctx: DescriptionContext, collection: CollectionSchema, operators: OperatorSet): JsonSchema {
  return ctx.schema(name(collection.name, 'search'), () => {
    const field = { type: 'string', description: 'A field, or relation__field along to-one relationships.' };
    return {
      type: 'object',
      properties: {
        filters: {
          type: 'array',
          items: filterSchema(collection, ctx, { prefix: 'legacy', operators, relationSeparator: '__' }),
        },
        disjunction: {
          type: 'boolean',
          default: false,
          description: 'True: any filter suffices; false: all must match.',
        },
        limit: { type: 'integer', minimum: 1 },
        offset: { type: 'integer', minimum: 0 },
        order_by: {
          type: 'array',
          items: {
            type: 'object',
            required: ['field'],
            properties: { field, direction: { enum: ['asc', 'desc'] } },
            additionalProperties: false,
          },
        },
        group_by: {
          type: 'array',
          items: { type: 'object', required: ['field'], properties: { field }, additionalProperties: false },
        },
        single: {
          type: 'boolean',
          description: 'True: exactly one result is expected, and the response is that object.',
        },
      },
      additionalProperties: false,
    };
  });
}

/**
 * The only spelling of an integer key in text, as query-ast's strict key parser reads it: up to 19 digits, the
 * 64 bits of a key column; whether the value fits is the server's to say (400).
 */
const CANONICAL_INTEGER = '^(0|-?[1-9][0-9]{0,18})$';

/**
 * A key of `collection` in a body, as its strict key parser reads it: an integer key as a whole number or
 * its canonical text (`pattern` and the bounds apply to the one type each), any other key as its value's text.
 */
function keyValue(collection: CollectionSchema): JsonSchema {
  const { keyColumns } = collection.model;
  if (keyColumns.length > 1) return { type: 'string', description: compositeIdDescription(keyColumns) };
  const column = collection.model.columns.get(collection.model.key)!;
  if (column.type === 'integer')
    return {
      type: ['integer', 'string'],
      pattern: CANONICAL_INTEGER,
      minimum: Number.MIN_SAFE_INTEGER,
      maximum: Number.MAX_SAFE_INTEGER,
    };
  const value = columnSchema({ ...column, nullable: false });
  return value.type === 'string'
    ? { ...value, minLength: 1, ...(column.maxLength !== undefined ? { maxLength: column.maxLength } : {}) }
    : value;
}

/** `schema`, taking null as well. */
const orNull = (schema: JsonSchema): JsonSchema => ({
  ...schema,
  type: [schema.type as string | string[], 'null'].flat(),
  ...(Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {}),
});

/** The foreign key columns of a collection's to-one relationships, by column: the relationship that sets each. */
function foreignKeys(collection: CollectionSchema): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of collection.relationships.values())
    if (r.join.kind === 'belongs-to') out.set(r.join.ownColumn, r.name);
  return out;
}

/**
 * What a client may not give together: a foreign key column and the relationship that sets it, whatever
 * their values (null included). `not: {required: [both]}` per pair, the plain JSON Schema every validator
 * checks (its `properties` only name the two, for strict validators); generated clients that skip `not`
 * still show the two members' descriptions.
 */
function foreignKeyOrRelationship(collection: CollectionSchema): JsonSchema {
  const both = (pair: string[]) => ({ properties: Object.fromEntries(pair.map((k) => [k, true])), required: pair });
  const pairs = [...foreignKeys(collection)];
  return pairs.length
    ? { allOf: pairs.map((pair) => ({ not: both(pair), description: `${pair[0]} or ${pair[1]}, not both.` })) }
    : {};
}

/**
 * The field values of a body: every exposed column but the key (required ones listed when `required`,
 * less the column the relationship itself fills), and the relationships, described by `relationships`.
 */
function writeFields(
  collection: CollectionSchema,
  required: boolean,
  relationships: Record<string, JsonSchema>,
  filled?: string,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const needed: string[] = [];
  // A required foreign key column may be given as itself or through the relationship that sets it.
  const setBy = new Map(
    [...collection.relationships.values()].flatMap((r) =>
      r.join.kind === 'belongs-to' && r.name in relationships ? [[r.join.ownColumn, r.name] as const] : [],
    ),
  );
  const either: JsonSchema[] = [];
  for (const c of collection.columns.values()) {
    // A column the database computes is never written (400 naming it).
    if (c.name === collection.model.key || c.readOnly) continue;
    properties[c.name] = inputSchema(c);
    if (!required || c.nullable || c.generated || c.hasDefault || c.name === filled) continue;
    const rel = setBy.get(c.name);
    if (rel === undefined) needed.push(c.name);
    else either.push({ anyOf: [{ required: [c.name] }, { required: [rel] }], description: `${c.name} or ${rel}.` });
  }
  // A foreign key column says it excludes its relationship, for clients that skip `not`.
  for (const [column, rel] of foreignKeys(collection)) {
    const schema = properties[column];
    if (schema)
      properties[column] = { ...schema, description: `The key of the related ${rel}: give this or ${rel}, not both.` };
  }
  const exclusive = foreignKeyOrRelationship(collection);
  const all = [...((exclusive.allOf as JsonSchema[] | undefined) ?? []), ...either];
  return {
    type: 'object',
    properties: { ...properties, ...relationships },
    ...(needed.length ? { required: needed } : {}),
    additionalProperties: false,
    ...(all.length ? { allOf: all } : {}),
  };
}

/** The relationships of a nested instance, described loosely: they take what its own body takes. */
function nestedRelationships(collection: CollectionSchema): Record<string, JsonSchema> {
  return Object.fromEntries(
    [...collection.relationships.keys()].map((r) => [r, { description: `As in a body of ${collection.name}.` }]),
  );
}

/** An existing instance named by its key, optionally with new field values. */
function existing(ctx: DescriptionContext, target: CollectionSchema): JsonSchema {
  return ctx.schema(name(target.name, 'existing'), () => {
    const fields = writeFields(target, false, nestedRelationships(target));
    const key = target.model.key;
    return {
      ...fields,
      required: [key],
      properties: { [key]: keyValue(target), ...(fields.properties as object) },
      description: `An existing ${target.name}, by its ${key}, optionally with new field values.`,
    };
  });
}

/** A related instance in a write through `rel`: an existing one, or a new one (the join column set for it). */
function relatedInput(ctx: DescriptionContext, collection: CollectionSchema, rel: RelationshipSchema): JsonSchema {
  const target = ctx.registry.target(rel);
  return ctx.schema(name(collection.name, rel.name, 'related-input'), () => {
    const filled = rel.join.kind === 'has' ? rel.join.targetColumn : undefined;
    return {
      anyOf: [
        existing(ctx, target),
        { ...writeFields(target, true, nestedRelationships(target), filled), description: `A new ${target.name}.` },
      ],
    };
  });
}

/** An element of `remove`: the key of a related instance, and for a to-many relationship `__delete__`. */
function removal(target: CollectionSchema, toMany: boolean): JsonSchema {
  const key = target.model.key;
  return {
    type: 'object',
    required: [key],
    properties: {
      [key]: keyValue(target),
      ...(toMany ? { __delete__: { type: 'boolean', description: 'Delete it as well.' } } : {}),
    },
    additionalProperties: false,
  };
}

const oneOrListOfOne = (one: JsonSchema): JsonSchema => ({
  anyOf: [one, { type: 'array', items: one, minItems: 1, maxItems: 1 }],
});

/** `{"add": …}` or `{"remove": …}`: exactly one of the two. */
function relationshipOperation(
  ctx: DescriptionContext,
  collection: CollectionSchema,
  rel: RelationshipSchema,
): JsonSchema {
  const target = ctx.registry.target(rel);
  const one = relatedInput(ctx, collection, rel);
  const toMany = rel.cardinality === 'many';
  return {
    type: 'object',
    properties: {
      // A to-one add takes one object: a list, of one element too, is 400 (it is a to-many's).
      add: toMany ? { type: 'array', items: one } : one,
      remove: toMany ? { type: 'array', items: removal(target, true) } : oneOrListOfOne(removal(target, false)),
    },
    minProperties: 1,
    maxProperties: 1,
    additionalProperties: false,
    description: toMany
      ? 'Add these, or remove these.'
      : 'Set it to one object (add takes no list, of one element neither: 400), or unlink the one named (it must be the related one).',
  };
}

/** The body of a create (`new`) or of an update of one instance (`update`), relationship operations included. */
export function input(ctx: DescriptionContext, collection: CollectionSchema, mode: 'create' | 'update'): JsonSchema {
  return ctx.schema(name(collection.name, mode), () => {
    const relationships: Record<string, JsonSchema> = {};
    for (const rel of collection.relationships.values()) {
      const one = relatedInput(ctx, collection, rel);
      const value: JsonSchema =
        rel.cardinality === 'one' ? { anyOf: [one, { type: 'null' }] } : { type: 'array', items: one };
      const set = mode === 'create' ? value : { anyOf: [value, relationshipOperation(ctx, collection, rel)] };
      relationships[rel.name] =
        rel.join.kind === 'belongs-to'
          ? { ...set, description: `Sets ${rel.join.ownColumn}: give this or ${rel.join.ownColumn}, not both.` }
          : set;
    }
    const fields = writeFields(collection, mode === 'create', relationships);
    const key = collection.model.key;
    const keyColumn = collection.model.columns.get(key);
    // A key the database neither generates nor defaults is the client's to send.
    const keyNeeded = mode === 'create' && keyColumn !== undefined && !keyColumn.generated && !keyColumn.hasDefault;
    const withKey = { ...fields, properties: { [key]: idSchema(collection, mode), ...(fields.properties as object) } };
    return keyNeeded ? { ...withKey, required: [key, ...((fields.required as string[] | undefined) ?? [])] } : withKey;
  });
}

/**
 * The `id` member of a create or update body. An update takes only the URL's id (a schema cannot name it:
 * its description does); a create a client id where the collection takes them or does not generate its
 * ids, else none. null counts as absent in both, as the decoder reads it.
 */
function idSchema(collection: CollectionSchema, mode: 'create' | 'update'): JsonSchema {
  const key = collection.model.key;
  if (mode === 'update')
    return {
      ...orNull(keyValue(collection)),
      description: `Optional, and only the id in the URL (a number or its text): the ${key} cannot change, and another is 400. null counts as absent.`,
    };
  if (!collection.model.columns.get(key)?.generated)
    return { ...keyValue(collection), description: 'The id of the new one.' };
  if (collection.allowClientGeneratedIds)
    return {
      ...orNull(keyValue(collection)),
      description: 'A client-chosen id; null or left out: the database generates one.',
    };
  return {
    type: 'null',
    description: `${collection.name} generates its ids: leave ${key} out (null counts as absent).`,
  };
}

/** The body of a bulk update: field values, and an optional search naming the instances. */
export function bulkUpdate(ctx: DescriptionContext, collection: CollectionSchema, operators: OperatorSet): JsonSchema {
  return ctx.schema(name(collection.name, 'bulk-update'), () => {
    const base = writeFields(collection, false, {});
    return {
      ...base,
      properties: {
        ...(base.properties as Record<string, JsonSchema>),
        q: {
          type: 'object',
          description: 'The instances to update; all of them without it.',
          properties: {
            filters: {
              type: 'array',
              items: filterSchema(collection, ctx, { prefix: 'legacy', operators, relationSeparator: '__' }),
            },
            disjunction: { type: 'boolean' },
          },
          additionalProperties: false,
        },
      },
    };
  });
}

export function modified(ctx: DescriptionContext): JsonSchema {
  return ctx.schema(name('num-modified'), () => ({
    type: 'object',
    required: ['num_modified'],
    properties: { num_modified: { type: 'integer' } },
  }));
}

export function functionResults(ctx: DescriptionContext): JsonSchema {
  return ctx.schema(name('function-results'), () => ({
    type: 'object',
    description: 'One member per function, named <name>__<field>.',
    additionalProperties: { type: ['number', 'string', 'null'] },
  }));
}
