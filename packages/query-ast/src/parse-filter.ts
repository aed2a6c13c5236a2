import type { CollectionSchema, ColumnSchema, ColumnType, Registry, RelationshipSchema } from '@colapi/schema';
import { ApiError, type ErrorSource } from './api-error.js';
import type { FieldRef, Filter, ScalarValue } from './filter.js';
import {
  type BinaryOperator,
  LIKE_OPERATORS,
  LIST_OPERATORS,
  NETWORK_OPERATORS,
  OPERATORS,
  type OperatorInfo,
  type OperatorSet,
  type RelationOperator,
} from './operators.js';
import { operatorMismatch, takesColumnValue } from './operator-types.js';
import { coercePattern, coerceValue } from './values.js';
import { keyParts, parseKey } from './keys.js';

export interface FilterContext {
  readonly registry: Registry;
  /** The error source of the whole filter, e.g. `{parameter: 'filter[objects]'}`. */
  readonly source: ErrorSource;
  /** The operator spellings this format accepts. */
  readonly operators: OperatorSet;
  /** Format B lets a name reach a related field as `relation__field`. */
  readonly relationSeparator?: string;
  /** Deepest nesting of and/or/has/any accepted. */
  readonly maxDepth: number;
  /** Most filter objects accepted in one request. */
  readonly maxNodes: number;
  /** Why the database cannot run an operator, or undefined when it can. */
  readonly unsupportedOperator?: (op: BinaryOperator) => string | undefined;
}

/** The comparison inside `relation__field` with has/any: equality, whatever spellings the format accepts. */
const EQUALITY: OperatorInfo = OPERATORS.get('eq')!;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Column types that compare with each other: numbers of any kind (an interval is seconds), else the same type. */
const typeFamily = (type: ColumnType): string =>
  type === 'integer' || type === 'number' || type === 'interval' ? 'number' : type;

class FilterParser {
  #nodes = 0;
  constructor(readonly ctx: FilterContext) {}

  fail(path: string, detail: string): never {
    throw ApiError.badRequest(`${path}: ${detail}`, this.ctx.source);
  }

  /** A list of filter objects, all of which must hold. */
  list(json: unknown, collection: CollectionSchema, path: string): Filter | undefined {
    if (!Array.isArray(json)) this.fail(path, 'must be a list of filter objects');
    const filters = json.map((f, i) => this.node(f, collection, `${path}[${i}]`, 1));
    if (filters.length === 0) return undefined;
    return filters.length === 1 ? filters[0] : { kind: 'and', filters };
  }

  node(json: unknown, collection: CollectionSchema, path: string, depth: number): Filter {
    this.enter(path, depth);
    if (!isObject(json)) this.fail(path, 'a filter must be an object');
    if ('or' in json || 'and' in json) return this.junction(json, collection, path, depth);
    const { name, op } = json;
    if (typeof name !== 'string' || name === '') this.fail(`${path}.name`, 'must name a field');
    if (typeof op !== 'string') this.fail(`${path}.op`, `must be the operator applied to "${name}"`);
    const unknown = Object.keys(json).filter((k) => !['name', 'op', 'val', 'field'].includes(k));
    if (unknown.length)
      this.fail(path, `unknown member "${unknown[0]}" in the filter on "${name}" (expected name, op, val or field)`);
    const info = this.ctx.operators.has(op) ? OPERATORS.get(op) : undefined;
    if (!info) this.fail(`${path}.op`, `unknown operator "${op}" on "${name}"`);
    return this.named(json, name, op, info, collection, path, depth);
  }

  /** Counts one more filter object, `depth` levels deep, against the limits. */
  enter(path: string, depth: number): void {
    if (depth > this.ctx.maxDepth) this.fail(path, `filters nest deeper than ${this.ctx.maxDepth} levels`);
    if (++this.#nodes > this.ctx.maxNodes) this.fail(path, `more than ${this.ctx.maxNodes} filter objects`);
  }

  /** A filter object whose operator is known: `name` is resolved in `collection`. */
  named(
    json: Record<string, unknown>,
    name: string,
    op: string,
    info: OperatorInfo,
    collection: CollectionSchema,
    path: string,
    depth: number,
  ): Filter {
    const separator = this.ctx.relationSeparator;
    const viaSeparator = separator !== undefined && !collection.columns.has(name) && name.includes(separator);
    if (info.arity === 'relation') {
      return viaSeparator && !collection.relationships.has(name)
        ? this.relationField(json, name, op, info.canonical, separator, collection, path, depth)
        : this.relation(json, name, op, info.canonical, collection, path, depth);
    }
    if (viaSeparator) return this.viaRelation(json, name, op, info, separator, collection, path, depth);
    if (name === collection.model.key && collection.model.keyColumns.length > 1)
      return this.compositeId(json, name, op, info, collection, path);
    const column = this.column(collection, name, `${path}.name`, op);
    const field: FieldRef = { relations: [], column: name };
    if (info.arity === 'unary') {
      if ('field' in json) this.fail(`${path}.field`, `"${op}" on "${name}" takes no field`);
      if ('val' in json && json.val !== null) this.fail(`${path}.val`, `"${op}" on "${name}" takes no value`);
      return { kind: 'null-check', field, op: info.canonical as 'is_null' | 'is_not_null' };
    }
    const canonical = info.canonical as BinaryOperator;
    const mismatch = operatorMismatch(column, canonical);
    if (mismatch) this.fail(`${path}.op`, `"${op}" ${mismatch}; "${name}" is ${column.type}`);
    const unsupported = this.ctx.unsupportedOperator?.(canonical);
    if (unsupported) this.fail(`${path}.op`, `"${op}" on "${name}": ${unsupported}`);
    if ('field' in json) return this.compareField(json, column, op, canonical, collection, path);
    if (!('val' in json)) this.fail(path, `"${op}" on "${name}" needs a val or a field`);
    const valuePath = `${path}.val`;
    if (json.val === null) {
      if (canonical === 'eq') return { kind: 'null-check', field, op: 'is_null' };
      if (canonical === 'ne') return { kind: 'null-check', field, op: 'is_not_null' };
      this.fail(valuePath, `"${op}" cannot compare "${name}" with null; use is_null or is_not_null`);
    }
    if (LIST_OPERATORS.has(canonical)) {
      if (!Array.isArray(json.val)) this.fail(valuePath, `"${op}" on "${name}" takes a list of values`);
      if (json.val.length > this.ctx.maxNodes * 5)
        this.fail(valuePath, `lists hold at most ${this.ctx.maxNodes * 5} values (field "${name}")`);
      const values = json.val.map((v, i) => this.value(column, v, `${valuePath}[${i}]`));
      return { kind: 'compare', field, op: canonical, value: values };
    }
    if (takesColumnValue(canonical))
      return { kind: 'compare', field, op: canonical, value: this.value(column, json.val, valuePath) };
    if (Array.isArray(json.val)) this.fail(valuePath, `"${op}" on "${name}" takes one value, not a list`);
    const value = LIKE_OPERATORS.has(canonical)
      ? coercePattern(json.val, { source: this.ctx.source, path: valuePath }, name)
      : this.value(column, json.val, valuePath);
    return { kind: 'compare', field, op: canonical, value };
  }

  /**
   * `id` of a composite key, which no column holds: `eq`/`ne` one id, `in`/`not_in` a list of them, each read
   * strictly (parseKey). It becomes the comparisons of its parts (`eq "1,2"` is `order_id = 1 and line_no =
   * 2`), which every statement and dialect already compiles, and which none of the parts' nulls can upset (a
   * key's columns hold none).
   */
  compositeId(
    json: Record<string, unknown>,
    name: string,
    op: string,
    info: OperatorInfo,
    collection: CollectionSchema,
    path: string,
  ): Filter {
    const canonical = info.canonical;
    if (canonical !== 'eq' && canonical !== 'ne' && canonical !== 'in' && canonical !== 'not_in')
      this.fail(
        `${path}.op`,
        `"${op}" on "${name}": the id of ${collection.name} (a key of several columns) takes eq, ne, in or not_in`,
      );
    if ('field' in json) this.fail(`${path}.field`, `"${op}" on "${name}" compares with a value in val, not a field`);
    const list = canonical === 'in' || canonical === 'not_in';
    const val = json.val;
    if (list !== Array.isArray(val))
      this.fail(`${path}.val`, list ? `"${op}" on "${name}" takes a list of ids` : `"${op}" on "${name}" takes one id`);
    const model = collection.model;
    const ids = (list ? (val as unknown[]) : [val]).map((v, i) => {
      const at = list ? `${path}.val[${i}]` : `${path}.val`;
      const parsed = parseKey(model, v);
      if (!parsed.ok) this.fail(at, `not an id of ${collection.name}: ${parsed.reason}`);
      return keyParts(model, parsed.key);
    });
    if (ids.length === 0) {
      // No id at all: `in []` matches nothing and `not_in []` everything, as for a column.
      const first: FieldRef = { relations: [], column: model.keyColumns[0]! };
      return { kind: 'compare', field: first, op: canonical as 'in' | 'not_in', value: [] };
    }
    // One id is all its parts equal; not that id, any part different (De Morgan; the parts are never null).
    const positive = canonical === 'eq' || canonical === 'in';
    const each = ids.map(
      (parts): Filter => ({
        kind: positive ? 'and' : 'or',
        filters: model.keyColumns.map((c, i) => ({
          kind: 'compare',
          field: { relations: [], column: c },
          op: positive ? 'eq' : 'ne',
          value: parts[i]!,
        })),
      }),
    );
    return each.length === 1 ? each[0]! : { kind: positive ? 'or' : 'and', filters: each };
  }

  /** `has` / `any` on a relationship, with an optional nested filter on the related resources. */
  relation(
    json: Record<string, unknown>,
    name: string,
    op: string,
    canonical: string,
    collection: CollectionSchema,
    path: string,
    depth: number,
  ): Filter {
    const relationship = collection.relationships.get(name);
    if (!relationship) {
      const what = collection.columns.has(name)
        ? 'a field, not a relationship'
        : `not a relationship of ${collection.name}`;
      this.fail(`${path}.name`, `"${name}" is ${what}; "${op}" applies to relationships`);
    }
    const expected = this.relationOperator(relationship, op, canonical, path);
    if ('field' in json) this.fail(`${path}.field`, `"${op}" on "${name}" takes a nested filter in val, not a field`);
    const val = json.val;
    if (val !== undefined && val !== null && !isObject(val))
      this.fail(`${path}.val`, `"${op}" on "${name}" takes one filter object in val`);
    const target = this.ctx.registry.target(relationship);
    const nested = val === undefined || val === null ? undefined : this.node(val, target, `${path}.val`, depth + 1);
    return { kind: 'relation', relation: name, op: expected, ...(nested ? { filter: nested } : {}) };
  }

  /** `{name, op, field}`: two columns of the same row, of comparable types. */
  compareField(
    json: Record<string, unknown>,
    column: ColumnSchema,
    op: string,
    canonical: BinaryOperator,
    collection: CollectionSchema,
    path: string,
  ): Filter {
    const name = column.name;
    if ('val' in json) this.fail(path, `give either val or field for "${name}", not both`);
    const other = json.field;
    if (typeof other !== 'string' || other === '')
      this.fail(`${path}.field`, `must name the field "${name}" is compared with`);
    if (LIST_OPERATORS.has(canonical)) this.fail(`${path}.op`, `"${op}" on "${name}" takes a list in val, not a field`);
    if (LIKE_OPERATORS.has(canonical) || NETWORK_OPERATORS.has(canonical)) {
      this.fail(`${path}.op`, `"${op}" on "${name}" takes a value in val, not a field`);
    }
    const otherColumn = this.column(collection, other, `${path}.field`, op);
    if (typeFamily(column.type) !== typeFamily(otherColumn.type)) {
      this.fail(`${path}.field`, `"${name}" (${column.type}) cannot be compared with "${other}" (${otherColumn.type})`);
    }
    return {
      kind: 'compare-field',
      field: { relations: [], column: name },
      op: canonical,
      other: { relations: [], column: other },
    };
  }

  /** `has` for a to-one relationship, `any` for a to-many one: the other is a 400 naming the right one. */
  relationOperator(relationship: RelationshipSchema, op: string, canonical: string, path: string): RelationOperator {
    const expected = relationship.cardinality === 'one' ? 'has' : 'any';
    if (canonical !== expected) {
      this.fail(
        `${path}.op`,
        `use "${expected}" with the to-${relationship.cardinality} relationship "${relationship.name}", not "${op}"`,
      );
    }
    return expected;
  }

  /** The relationship before the first separator of `relation__rest`, and the rest. */
  splitRelation(
    name: string,
    sep: string,
    collection: CollectionSchema,
    path: string,
  ): { relationship: RelationshipSchema; rest: string } {
    const at = name.indexOf(sep);
    const relationName = name.slice(0, at);
    const relationship = collection.relationships.get(relationName);
    if (!relationship) this.fail(`${path}.name`, `"${relationName}" is not a relationship of ${collection.name}`);
    return { relationship, rest: name.slice(at + sep.length) };
  }

  /** `author__name` in Format B: the same as a has/any filter on the relationship. */
  viaRelation(
    json: Record<string, unknown>,
    name: string,
    op: string,
    info: OperatorInfo,
    sep: string,
    collection: CollectionSchema,
    path: string,
    depth: number,
  ): Filter {
    const { relationship, rest } = this.splitRelation(name, sep, collection, path);
    this.enter(path, depth + 1);
    const nested = this.named(json, rest, op, info, this.ctx.registry.target(relationship), path, depth + 1);
    return {
      kind: 'relation',
      relation: relationship.name,
      op: relationship.cardinality === 'one' ? 'has' : 'any',
      filter: nested,
    };
  }

  /**
   * `{name: "author__name", op: "has", val: "Mary"}` in Format B, as Flask-Restless 0.17 reads it: the
   * related resource (has) or any of them (any) whose field equals val. The operator must fit the
   * relationship before the separator; the rest is a field path of its target, compared with `==`.
   */
  relationField(
    json: Record<string, unknown>,
    name: string,
    op: string,
    canonical: string,
    sep: string,
    collection: CollectionSchema,
    path: string,
    depth: number,
  ): Filter {
    const { relationship, rest } = this.splitRelation(name, sep, collection, path);
    const expected = this.relationOperator(relationship, op, canonical, path);
    const target = this.ctx.registry.target(relationship);
    if (target.relationships.has(rest) && !target.columns.has(rest)) {
      this.fail(
        `${path}.name`,
        `"${rest}" is a relationship of ${target.name}, not a field; "${op}" on "${name}" compares a field with val`,
      );
    }
    if ('field' in json) this.fail(`${path}.field`, `"${op}" on "${name}" compares with a value in val, not a field`);
    if (!('val' in json)) this.fail(path, `"${op}" on "${name}" needs a val, the value "${rest}" must equal`);
    if (typeof json.val === 'object' && json.val !== null) {
      this.fail(
        `${path}.val`,
        `"${op}" on "${name}" takes one value of "${rest}", not ${Array.isArray(json.val) ? 'a list' : 'an object'}`,
      );
    }
    this.enter(path, depth + 1);
    const nested = this.named(json, rest, op, EQUALITY, target, path, depth + 1);
    return { kind: 'relation', relation: relationship.name, op: expected, filter: nested };
  }

  junction(json: Record<string, unknown>, collection: CollectionSchema, path: string, depth: number): Filter {
    const keys = Object.keys(json);
    if (keys.length !== 1) this.fail(path, 'an "and" or "or" object has that one member only');
    const kind = keys[0] as 'and' | 'or';
    const members = json[kind];
    if (!Array.isArray(members)) this.fail(`${path}.${kind}`, 'must be a list of filter objects');
    const filters = members.map((f, i) => this.node(f, collection, `${path}.${kind}[${i}]`, depth + 1));
    return { kind, filters };
  }

  column(collection: CollectionSchema, name: string, path: string, op: string): ColumnSchema {
    const column = collection.columns.get(name);
    if (column) return column;
    if (collection.virtualAttributes.has(name))
      this.fail(path, `"${name}" is computed, not stored, and cannot be filtered on`);
    const relationship = collection.relationships.get(name);
    if (relationship) {
      const use = relationship.cardinality === 'one' ? 'has' : 'any';
      this.fail(path, `"${name}" is a relationship: "${op}" does not apply to it, use "${use}" with a nested filter`);
    }
    return this.fail(path, `"${name}" is not a field of ${collection.name}`);
  }

  value(column: ColumnSchema, value: unknown, path: string): ScalarValue {
    if (value === null) this.fail(path, `null is not allowed here (field "${column.name}")`);
    return coerceValue(column, value, { source: this.ctx.source, path });
  }
}

/** Parses and validates a JSON list of filter objects against a collection. */
export function parseFilterList(
  json: unknown,
  collection: CollectionSchema,
  ctx: FilterContext,
  path: string,
): Filter | undefined {
  return new FilterParser(ctx).list(json, collection, path);
}

/** Parses and validates one filter object. */
export function parseFilterObject(
  json: unknown,
  collection: CollectionSchema,
  ctx: FilterContext,
  path: string,
): Filter {
  return new FilterParser(ctx).node(json, collection, path, 1);
}

/** Parses the JSON text of a query parameter, with a 400 naming the parameter when it is not JSON. */
export function parseJsonParameter(text: string, parameter: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw ApiError.badRequest(`${parameter} is not valid JSON`, { parameter });
  }
}
