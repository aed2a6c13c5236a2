import type { CollectionSchema } from '@colapi/schema';
import type { OperatorSet } from '@colapi/query-ast';
import { columnSchema, componentName, filterSchema, inputSchema } from '@colapi/openapi';
import type { DescriptionContext, JsonSchema } from '@colapi/wire-format';

/** Component schemas of Format B: plain objects, list objects, search objects and request bodies. */

const name = (...parts: string[]) => componentName('legacy', ...parts);

export function errorObject(ctx: DescriptionContext): JsonSchema {
  return ctx.schema(name('error'), () => ({ type: 'object', required: ['message'], properties: { message: { type: 'string' } } }));
}

/** The field values of a collection (columns and virtual attributes), as a related instance shows them. */
export function fields(ctx: DescriptionContext, collection: CollectionSchema): JsonSchema {
  return ctx.schema(name(collection.name, 'fields'), () => {
    const properties: Record<string, JsonSchema> = {};
    for (const c of collection.columns.values()) properties[c.name] = columnSchema(c);
    for (const v of collection.virtualAttributes.keys()) properties[v] = { readOnly: true, description: 'Computed by the server.' };
    return { type: 'object', required: [collection.model.key], properties };
  });
}

/** One instance: its fields, with related instances nested (to-one an object or null, to-many a list). */
export function object(ctx: DescriptionContext, collection: CollectionSchema): JsonSchema {
  return ctx.schema(name(collection.name, 'object'), () => {
    const related: Record<string, JsonSchema> = {};
    for (const rel of collection.relationships.values()) {
      const nested = fields(ctx, ctx.registry.target(rel));
      related[rel.name] = rel.cardinality === 'one' ? { anyOf: [nested, { type: 'null' }] } : { type: 'array', items: nested };
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
        filters: { type: 'array', items: filterSchema(collection, ctx, { prefix: 'legacy', operators, relationSeparator: '__' }) },
        disjunction: { type: 'boolean', default: false, description: 'True: any filter suffices; false: all must match.' },
        limit: { type: 'integer', minimum: 1 },
        offset: { type: 'integer', minimum: 0 },
        order_by: {
          type: 'array',
          items: { type: 'object', required: ['field'], properties: { field, direction: { enum: ['asc', 'desc'] } }, additionalProperties: false },
        },
        group_by: { type: 'array', items: { type: 'object', required: ['field'], properties: { field }, additionalProperties: false } },
        single: { type: 'boolean', description: 'True: exactly one result is expected, and the response is that object.' },
      },
      additionalProperties: false,
    };
  });
}

/** A related instance in a write: `{id}` of an existing one, or the fields of a new one. */
function relatedInput(ctx: DescriptionContext, target: CollectionSchema): JsonSchema {
  return ctx.schema(name(target.name, 'related-input'), () => ({
    anyOf: [
      { type: 'object', required: ['id'], properties: { id: {}, __delete__: { type: 'boolean' } }, description: 'An existing instance, optionally with new field values.' },
      { ...writeFields(target), description: 'A new instance.' },
    ],
  }));
}

function writeFields(collection: CollectionSchema, required = false): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const needed: string[] = [];
  for (const c of collection.columns.values()) {
    if (c.name === collection.model.key) continue;
    properties[c.name] = inputSchema(c);
    if (required && !c.nullable && !c.generated && !c.hasDefault) needed.push(c.name);
  }
  return { type: 'object', properties, ...(needed.length ? { required: needed } : {}) };
}

/** The body of a create (`new`) or of an update of one instance (`update`), relationship operations included. */
export function input(ctx: DescriptionContext, collection: CollectionSchema, mode: 'create' | 'update'): JsonSchema {
  return ctx.schema(name(collection.name, mode), () => {
    const base = writeFields(collection, mode === 'create');
    const properties = { ...(base.properties as Record<string, JsonSchema>) };
    for (const rel of collection.relationships.values()) {
      const one = relatedInput(ctx, ctx.registry.target(rel));
      const many: JsonSchema = { type: 'array', items: one };
      const value: JsonSchema = rel.cardinality === 'one' ? { anyOf: [one, { type: 'null' }] } : many;
      properties[rel.name] =
        mode === 'create'
          ? value
          : {
              anyOf: [
                value,
                { type: 'object', properties: { add: rel.cardinality === 'one' ? one : many, remove: many }, additionalProperties: false },
              ],
            };
    }
    return { ...base, properties };
  });
}

/** The body of a bulk update: field values, and an optional search naming the instances. */
export function bulkUpdate(ctx: DescriptionContext, collection: CollectionSchema, operators: OperatorSet): JsonSchema {
  return ctx.schema(name(collection.name, 'bulk-update'), () => {
    const base = writeFields(collection);
    return {
      type: 'object',
      properties: {
        ...(base.properties as Record<string, JsonSchema>),
        q: {
          type: 'object',
          description: 'The instances to update; all of them without it.',
          properties: {
            filters: { type: 'array', items: filterSchema(collection, ctx, { prefix: 'legacy', operators, relationSeparator: '__' }) },
            disjunction: { type: 'boolean' },
          },
          additionalProperties: false,
        },
      },
    };
  });
}

export function modified(ctx: DescriptionContext): JsonSchema {
  return ctx.schema(name('num-modified'), () => ({ type: 'object', required: ['num_modified'], properties: { num_modified: { type: 'integer' } } }));
}

export function functionResults(ctx: DescriptionContext): JsonSchema {
  return ctx.schema(name('function-results'), () => ({
    type: 'object',
    description: 'One member per function, named <name>__<field>.',
    additionalProperties: { type: ['number', 'string', 'null'] },
  }));
}
