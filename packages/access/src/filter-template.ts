import {
  ALL_OPERATOR_SPELLINGS,
  type BinaryOperator,
  type FieldRef,
  type Filter,
  type FilterContext,
  isApiError,
  LIKE_OPERATORS,
  LIST_OPERATORS,
  OPERATORS,
  parseFilterList,
  parseFilterObject,
  type RelationOperator,
  type ScalarValue,
} from '@colapi/query-ast';
import type { CollectionSchema, ColumnSchema, ColumnType, Registry } from '@colapi/schema';
import { ClaimRef, isPlainObject, parseClaim } from './claims.js';
import type { Identity } from './identity.js';
import { indexPath, memberPath } from './json-path.js';
import type { Fail } from './rules-error.js';

/**
 * A rule's filter, checked, waiting for an identity. Subtrees without claims are parsed once into query-ast
 * Filters (`static`); a comparison with a claim keeps its field, operator and column, and takes its value
 * from the token per request.
 */
export type Template =
  | { readonly kind: 'static'; readonly filter: Filter | undefined }
  | { readonly kind: 'and' | 'or'; readonly parts: readonly Template[] }
  | { readonly kind: 'relation'; readonly relation: string; readonly op: RelationOperator; readonly filter: Template }
  | {
      readonly kind: 'claim';
      readonly field: FieldRef;
      readonly op: BinaryOperator;
      readonly column: ColumnSchema;
      /** A like pattern, not a value of the column. */
      readonly like: boolean;
      readonly claim: ClaimRef;
    }
  | {
      readonly kind: 'claim-list';
      readonly field: FieldRef;
      readonly op: BinaryOperator;
      readonly column: ColumnSchema;
      /** A list with claims among its values, or one claim whose value is the whole list. */
      readonly items: readonly (ScalarValue | ClaimRef)[] | ClaimRef;
    }
  | {
      readonly kind: 'function';
      readonly fn: (identity: Identity) => unknown;
      /** Checks what the function returned: throws AccessRulesError naming `path(identity)`. */
      readonly compile: (json: unknown) => Template;
    };

/** Where claims were in one comparison of the substituted JSON. */
type LeafClaims = { readonly scalar: ClaimRef } | { readonly whole: ClaimRef } | { readonly items: readonly unknown[] };

/**
 * A value of each column type that query-ast accepts. A claim stands in the JSON as its column's sentinel
 * while query-ast's parser checks the filter: names, operators, nesting, the other values, exactly as it
 * checks a client's filter. The sentinels never reach a scope: the comparisons that hold them are rebuilt
 * with their claims.
 */
const SENTINELS: Readonly<Record<ColumnType, string | number | boolean>> = Object.freeze({
  integer: 0,
  number: 0,
  interval: 0,
  string: 'claim',
  json: 'claim',
  boolean: true,
  date: '2000-01-01',
  time: '00:00:00',
  datetime: '2000-01-01T00:00:00',
  inet: '127.0.0.1',
  uuid: '00000000-0000-0000-0000-000000000000',
  decimal: '0',
  binary: '',
  // An enum's sentinel must be one of its values: parseFilter is given a column whose values it is.
  enum: 'claim',
  set: 'claim',
  datetimetz: '2000-01-01T00:00:00Z',
  array: 'claim',
});

/** Filters of rules are trusted configuration: nest and grow far more than a client's. */
const RULE_FILTER_LIMITS = { maxDepth: 32, maxNodes: 10_000 } as const;

/** Compiles the filters of rules (Format A filter objects, or lists of them, with claims) into Templates. */
export class FilterCompiler {
  readonly #ctx: FilterContext;

  constructor(
    readonly registry: Registry,
    readonly fail: Fail,
  ) {
    this.#ctx = Object.freeze({
      registry,
      source: {},
      operators: ALL_OPERATOR_SPELLINGS,
      ...RULE_FILTER_LIMITS,
    });
  }

  /** A filter object or a list of them (all must hold), at `path` in the rules. */
  compile(json: unknown, collection: CollectionSchema, path: string): Template {
    const run = new TemplateRun(this.registry, this.#ctx, this.fail);
    const substituted = Array.isArray(json)
      ? json.map((f, i) => run.substitute(f, collection, indexPath(path, i)))
      : run.substitute(json, collection, path);
    const parsed = run.parse(() =>
      Array.isArray(substituted)
        ? parseFilterList(substituted, collection, this.#ctx, path)
        : parseFilterObject(substituted, collection, this.#ctx, path),
    );
    if (!Array.isArray(substituted)) return run.build(substituted, collection, path, parsed);
    const parts = substituted.map((f, i) => run.build(f, collection, indexPath(path, i)));
    if (parts.length === 0) return { kind: 'static', filter: undefined };
    return parts.length === 1 ? parts[0]! : { kind: 'and', parts };
  }
}

/** One compile: the substituted JSON's claim sites, then the Template built from them. */
class TemplateRun {
  /** Substituted nodes with a claim somewhere below. */
  readonly #withClaims = new WeakSet<object>();
  /** Substituted comparisons holding sentinels, and what they stand for. */
  readonly #leaves = new WeakMap<object, LeafClaims>();

  constructor(
    readonly registry: Registry,
    readonly ctx: FilterContext,
    readonly fail: Fail,
  ) {}

  /** Runs query-ast's parser; its 400 becomes an AccessRulesError at the path the parser names. */
  parse<T>(run: () => T): T {
    try {
      return run();
    } catch (e) {
      if (!isApiError(e)) throw e;
      // The parser's details read `<path>: <what>`, the path being ours with its own steps appended.
      const at = e.detail.indexOf(': ');
      return at > 0 ? this.fail(e.detail.slice(0, at), e.detail.slice(at + 2)) : this.fail('', e.detail);
    }
  }

  /** The filter JSON with each claim replaced by its column's sentinel; claim objects are checked here. */
  substitute(json: unknown, collection: CollectionSchema, path: string): unknown {
    if (!isPlainObject(json)) return json;
    if ('and' in json || 'or' in json) {
      const out: Record<string, unknown> = { ...json };
      for (const kind of ['and', 'or'] as const) {
        const members = json[kind];
        if (!Array.isArray(members)) continue;
        const substituted = members.map((m, i) => this.substitute(m, collection, indexPath(memberPath(path, kind), i)));
        out[kind] = substituted;
        if (substituted.some((m) => typeof m === 'object' && m !== null && this.#withClaims.has(m)))
          this.#withClaims.add(out);
      }
      return out;
    }
    const info = typeof json.op === 'string' ? OPERATORS.get(json.op) : undefined;
    // Without a known operator or a val there is no claim to place; the parser names what is wrong.
    if (!info || !('val' in json) || info.arity === 'unary') return json;
    const val = json.val;
    const valPath = memberPath(path, 'val');
    if (info.arity === 'relation') {
      if (!isPlainObject(val)) return json;
      if ('claim' in val) this.fail(valPath, `"${json.op}" takes a nested filter in val, not a claim`);
      const relationship = typeof json.name === 'string' ? collection.relationships.get(json.name) : undefined;
      if (!relationship) return json;
      const nested = this.substitute(val, this.registry.target(relationship), valPath);
      if (!this.#withClaims.has(nested as object)) return json;
      return this.#mark({ ...json, val: nested });
    }
    const canonical = info.canonical as BinaryOperator;
    const column = typeof json.name === 'string' ? collection.columns.get(json.name) : undefined;
    const sentinel = LIKE_OPERATORS.has(canonical) || !column ? 'claim' : SENTINELS[column.type];
    if (isPlainObject(val)) {
      const claim = parseClaim(val, valPath, this.fail);
      const list = LIST_OPERATORS.has(canonical);
      return this.#mark({ ...json, val: list ? [sentinel] : sentinel }, list ? { whole: claim } : { scalar: claim });
    }
    if (Array.isArray(val) && val.some(isPlainObject)) {
      const items = val.map((v, i) => (isPlainObject(v) ? parseClaim(v, indexPath(valPath, i), this.fail) : v));
      return this.#mark({ ...json, val: val.map((v) => (isPlainObject(v) ? sentinel : v)) }, { items });
    }
    return json;
  }

  #mark(node: Record<string, unknown>, leaf?: LeafClaims): Record<string, unknown> {
    this.#withClaims.add(node);
    if (leaf) this.#leaves.set(node, leaf);
    return node;
  }

  /**
   * The Template of one substituted filter object the parser has accepted. `parsed` is its Filter when the
   * caller has it already.
   */
  build(json: unknown, collection: CollectionSchema, path: string, parsed?: Filter): Template {
    if (!isPlainObject(json) || !this.#withClaims.has(json)) {
      return { kind: 'static', filter: deepFreeze(parsed ?? parseFilterObject(json, collection, this.ctx, path)) };
    }
    if ('and' in json || 'or' in json) {
      const kind = 'and' in json ? 'and' : 'or';
      const members = json[kind] as unknown[];
      return { kind, parts: members.map((m, i) => this.build(m, collection, indexPath(memberPath(path, kind), i))) };
    }
    const leaf = this.#leaves.get(json);
    if (!leaf) {
      // has / any with a claim below.
      const relationship = collection.relationships.get(json.name as string)!;
      const op = relationship.cardinality === 'one' ? 'has' : 'any';
      const target = this.registry.target(relationship);
      return {
        kind: 'relation',
        relation: relationship.name,
        op,
        filter: this.build(json.val, target, memberPath(path, 'val')),
      };
    }
    const filter = parsed ?? parseFilterObject(json, collection, this.ctx, path);
    if (filter.kind !== 'compare') throw new Error(`a comparison with a claim parsed to ${filter.kind}`);
    const column = collection.columns.get(filter.field.column)!;
    const { field, op } = filter;
    if ('scalar' in leaf) return { kind: 'claim', field, op, column, like: LIKE_OPERATORS.has(op), claim: leaf.scalar };
    if ('whole' in leaf) return { kind: 'claim-list', field, op, column, items: leaf.whole };
    // The parser coerced each value of the list in order: keep its values, put the claims back.
    const values = filter.value as readonly ScalarValue[];
    const items = leaf.items.map((item, i) => (item instanceof ClaimRef ? item : values[i]!));
    return { kind: 'claim-list', field, op, column, items: Object.freeze(items) };
  }
}

/** Freezes a parsed filter shared by every request. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
