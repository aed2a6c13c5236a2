import type { CollectionSchema, ColumnSchema, Registry } from '@colapi/schema';
import { ApiError, type ErrorSource } from './api-error.js';
import type { FieldRef, Filter, ScalarValue } from './filter.js';
import { type BinaryOperator, LIKE_OPERATORS, LIST_OPERATORS, NETWORK_OPERATORS, OPERATORS, type OperatorSet } from './operators.js';
import { coercePattern, coerceValue } from './values.js';

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

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

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
    if (depth > this.ctx.maxDepth) this.fail(path, `filters nest deeper than ${this.ctx.maxDepth} levels`);
    if (++this.#nodes > this.ctx.maxNodes) this.fail(path, `more than ${this.ctx.maxNodes} filter objects`);
    if (!isObject(json)) this.fail(path, 'a filter must be an object');
    if ('or' in json || 'and' in json) return this.junction(json, collection, path, depth);
    const { name, op } = json;
    if (typeof name !== 'string' || name === '') this.fail(`${path}.name`, 'must name a field');
    if (typeof op !== 'string') this.fail(`${path}.op`, 'must be an operator');
    const unknown = Object.keys(json).filter((k) => !['name', 'op', 'val', 'field'].includes(k));
    if (unknown.length) this.fail(path, `unknown member "${unknown[0]}" (expected name, op, val or field)`);
    const info = this.ctx.operators.has(op) ? OPERATORS.get(op) : undefined;
    if (!info) this.fail(`${path}.op`, `unknown operator "${op}"`);

    const relationship = collection.relationships.get(name);
    if (info.arity === 'relation') {
      if (!relationship) this.fail(`${path}.name`, `"${name}" is not a relationship of ${collection.name}`);
      const expected = relationship.cardinality === 'one' ? 'has' : 'any';
      if (info.canonical !== expected) {
        this.fail(`${path}.op`, `use "${expected}" with the to-${relationship.cardinality} relationship "${name}"`);
      }
      if ('field' in json) this.fail(`${path}.field`, `"${op}" takes a nested filter in val`);
      const target = this.ctx.registry.target(relationship);
      const nested = json.val === undefined || json.val === null ? undefined : this.node(json.val, target, `${path}.val`, depth + 1);
      return { kind: 'relation', relation: name, op: expected, ...(nested ? { filter: nested } : {}) };
    }

    const separator = this.ctx.relationSeparator;
    if (separator && !collection.columns.has(name) && name.includes(separator)) {
      return this.viaRelation(json, name, separator, collection, path, depth);
    }
    const column = this.column(collection, name, `${path}.name`);
    const field: FieldRef = { relations: [], column: name };
    if (info.arity === 'unary') {
      if ('val' in json && json.val !== null) this.fail(`${path}.val`, `"${op}" takes no value`);
      return { kind: 'null-check', field, op: info.canonical as 'is_null' | 'is_not_null' };
    }
    const canonical = info.canonical as Exclude<typeof info.canonical, 'has' | 'any' | 'is_null' | 'is_not_null'>;
    if (LIKE_OPERATORS.has(canonical) && column.type !== 'string') {
      this.fail(`${path}.op`, `"${op}" applies to text fields; "${name}" is ${column.type}`);
    }
    if (NETWORK_OPERATORS.has(canonical) && column.type !== 'inet') {
      this.fail(`${path}.op`, `"${op}" applies to network address fields; "${name}" is ${column.type}`);
    }
    const unsupported = this.ctx.unsupportedOperator?.(canonical);
    if (unsupported) this.fail(`${path}.op`, `"${op}": ${unsupported}`);
    if ('field' in json) {
      if ('val' in json) this.fail(path, 'give either val or field, not both');
      if (typeof json.field !== 'string') this.fail(`${path}.field`, 'must name a field');
      if (LIST_OPERATORS.has(canonical)) this.fail(`${path}.op`, `"${op}" takes a list in val, not a field`);
      this.column(collection, json.field, `${path}.field`);
      return { kind: 'compare-field', field, op: canonical, other: { relations: [], column: json.field } };
    }
    if (!('val' in json)) this.fail(path, `"${op}" needs a val or a field`);
    const valuePath = `${path}.val`;
    if (json.val === null) {
      if (canonical === 'eq') return { kind: 'null-check', field, op: 'is_null' };
      if (canonical === 'ne') return { kind: 'null-check', field, op: 'is_not_null' };
      this.fail(valuePath, `"${op}" cannot compare with null`);
    }
    if (LIST_OPERATORS.has(canonical)) {
      if (!Array.isArray(json.val)) this.fail(valuePath, `"${op}" takes a list`);
      if (json.val.length > this.ctx.maxNodes * 5) this.fail(valuePath, `lists hold at most ${this.ctx.maxNodes * 5} values`);
      const values = json.val.map((v, i) => this.value(column, v, `${valuePath}[${i}]`));
      return { kind: 'compare', field, op: canonical, value: values };
    }
    const value = LIKE_OPERATORS.has(canonical)
      ? coercePattern(json.val, { source: this.ctx.source, path: valuePath })
      : this.value(column, json.val, valuePath);
    return { kind: 'compare', field, op: canonical, value };
  }

  /** `author__name` in Format B: the same as a has/any filter on the relationship. */
  viaRelation(json: Record<string, unknown>, name: string, sep: string, collection: CollectionSchema, path: string, depth: number): Filter {
    const at = name.indexOf(sep);
    const relationName = name.slice(0, at);
    const rest = name.slice(at + sep.length);
    const relationship = collection.relationships.get(relationName);
    if (!relationship) this.fail(`${path}.name`, `"${relationName}" is not a relationship of ${collection.name}`);
    const target = this.ctx.registry.target(relationship);
    const nested = this.node({ ...json, name: rest }, target, path, depth + 1);
    return { kind: 'relation', relation: relationName, op: relationship.cardinality === 'one' ? 'has' : 'any', filter: nested };
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

  column(collection: CollectionSchema, name: string, path: string): ColumnSchema {
    const column = collection.columns.get(name);
    if (column) return column;
    if (collection.virtualAttributes.has(name)) this.fail(path, `"${name}" is computed, not stored, and cannot be filtered on`);
    if (collection.relationships.has(name)) this.fail(path, `"${name}" is a relationship: use "has" or "any"`);
    return this.fail(path, `"${name}" is not a field of ${collection.name}`);
  }

  value(column: ColumnSchema, value: unknown, path: string): ScalarValue {
    if (value === null) this.fail(path, 'null is not allowed here');
    return coerceValue(column, value, { source: this.ctx.source, path });
  }
}

/** Parses and validates a JSON list of filter objects against a collection. */
export function parseFilterList(json: unknown, collection: CollectionSchema, ctx: FilterContext, path: string): Filter | undefined {
  return new FilterParser(ctx).list(json, collection, path);
}

/** Parses and validates one filter object. */
export function parseFilterObject(json: unknown, collection: CollectionSchema, ctx: FilterContext, path: string): Filter {
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
