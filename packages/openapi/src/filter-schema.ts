import type { CollectionSchema } from '@colapi/schema';
import { OPERATORS, type OperatorSet } from '@colapi/query-ast';
import type { DescriptionContext, JsonSchema } from '@colapi/wire-format';
import { componentName } from './json-schema.js';

/** The spellings of a set that have one arity, in catalogue order. */
function spellings(operators: OperatorSet, arity: 'binary' | 'unary' | 'relation'): string[] {
  return [...operators].filter((s) => OPERATORS.get(s)?.arity === arity);
}

export interface FilterSchemaOptions {
  /** Prefix of the component names, e.g. `jsonapi`. */
  readonly prefix: string;
  readonly operators: OperatorSet;
  /** Format B reaches fields of related models as `relation__field`. */
  readonly relationSeparator?: string;
}

/**
 * The filter object of a collection: unary, binary with a value or a field, a relation filter nesting the
 * target's own filter object, and `and`/`or` lists. Names are restricted to the collection's columns.
 */
export function filterSchema(
  collection: CollectionSchema,
  ctx: DescriptionContext,
  options: FilterSchemaOptions,
): JsonSchema {
  const name = componentName(options.prefix, collection.name, 'filter');
  return ctx.schema(name, () => {
    const columns = [...collection.columns.keys()];
    const own: JsonSchema = { enum: columns };
    const fieldName: JsonSchema = options.relationSeparator
      ? {
          anyOf: [
            own,
            {
              type: 'string',
              pattern: `^\\w+${options.relationSeparator}\\w+`,
              description: `A field of a related model: relation${options.relationSeparator}field.`,
            },
          ],
        }
      : own;
    const self = filterSchema(collection, ctx, options);
    const branches: JsonSchema[] = [
      {
        title: 'unary',
        type: 'object',
        required: ['name', 'op'],
        properties: { name: fieldName, op: { enum: spellings(options.operators, 'unary') } },
        additionalProperties: false,
      },
      {
        title: 'compare with a value',
        type: 'object',
        required: ['name', 'op', 'val'],
        properties: {
          name: fieldName,
          op: { enum: spellings(options.operators, 'binary') },
          val: { description: "A value of the field's type; a list for in and not_in; a pattern for like." },
        },
        additionalProperties: false,
      },
      {
        title: 'compare with another field',
        type: 'object',
        required: ['name', 'op', 'field'],
        properties: { name: own, op: { enum: spellings(options.operators, 'binary') }, field: own },
        additionalProperties: false,
      },
    ];
    const relationOps = spellings(options.operators, 'relation');
    if (options.relationSeparator && relationOps.length > 0) {
      const sep = options.relationSeparator;
      branches.push({
        title: `has or any on relation${sep}field`,
        type: 'object',
        required: ['name', 'op', 'val'],
        properties: {
          name: {
            type: 'string',
            pattern: `^\\w+${sep}\\w+`,
            description: `relation${sep}field, with has for a to-one relation and any for a to-many one.`,
          },
          op: { enum: relationOps },
          val: {
            description:
              'The value the field of the related instance (has) or of any related instance (any) equals; null: the field is null.',
          },
        },
        additionalProperties: false,
      });
    }
    for (const rel of collection.relationships.values()) {
      const target = ctx.registry.target(rel);
      branches.push({
        title: `${rel.name} (${rel.cardinality === 'one' ? 'to-one' : 'to-many'})`,
        type: 'object',
        required: ['name', 'op'],
        properties: {
          name: { const: rel.name },
          op: { const: rel.cardinality === 'one' ? 'has' : 'any' },
          val: filterSchema(target, ctx, options),
        },
        additionalProperties: false,
      });
    }
    branches.push(
      {
        title: 'or',
        type: 'object',
        required: ['or'],
        properties: { or: { type: 'array', items: self } },
        additionalProperties: false,
      },
      {
        title: 'and',
        type: 'object',
        required: ['and'],
        properties: { and: { type: 'array', items: self } },
        additionalProperties: false,
      },
    );
    return { description: `A filter object of ${collection.name}.`, anyOf: branches };
  });
}

/** A `{name, field}` function object of function evaluation. */
export function functionSchema(collection: CollectionSchema, names: readonly string[]): JsonSchema {
  return {
    type: 'object',
    required: ['name', 'field'],
    properties: { name: { enum: [...names] }, field: { enum: [...collection.columns.keys()] } },
    additionalProperties: false,
  };
}
