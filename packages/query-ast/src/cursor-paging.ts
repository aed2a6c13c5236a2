import type { FieldRef, Filter, ScalarValue } from './filter.js';
import type { SortKey } from './read-query.js';

/** One key of a cursor's order: a field of the collection, its direction, and whether it may hold NULL. */
export interface KeysetKey extends SortKey {
  readonly nullable: boolean;
}

/**
 * A page read by cursor (keyset pagination). The read query that carries it already holds the keyset
 * predicate in its filter and the order to read in its sort; this tells the executor how to finish the page.
 */
export interface CursorPaging {
  /** The rows a page holds; the read asks for one more, to tell whether the page is cut short. */
  readonly size: number;
  /** Read backwards (`page[before]` alone): the sort is the client's reversed, and the rows come back reversed. */
  readonly backwards: boolean;
  /** Both `page[after]` and `page[before]`: a range, which the size may cut short (`rangeTruncated`). */
  readonly range: boolean;
  /** The client's order, ending in the key: what each item's cursor holds. */
  readonly keys: readonly KeysetKey[];
  /** The client's own filter, without the keyset predicate: what a total counts. */
  readonly filter?: Filter;
  /**
   * Rows on the other side of the cursor the page starts from, that cursor's own row included: whether
   * the link pointing back leads anywhere. Absent for a first page, which has nothing behind it.
   */
  readonly behind?: Filter;
}

/** What the executor found of a page read by cursor. */
export interface CursorEnds {
  /** Some row matching the filter comes before the page's first row. */
  readonly before: boolean;
  /** Some row matching the filter comes after the page's last row. */
  readonly after: boolean;
  /** A range held more rows than the page size. */
  readonly truncated: boolean;
}

const compare = (field: FieldRef, op: 'eq' | 'gt' | 'lt' | 'ge' | 'le', value: ScalarValue): Filter => ({
  kind: 'compare',
  field,
  op,
  value,
});
const isNull = (field: FieldRef): Filter => ({ kind: 'null-check', field, op: 'is_null' });
const notNull = (field: FieldRef): Filter => ({ kind: 'null-check', field, op: 'is_not_null' });
const and = (filters: Filter[]): Filter => (filters.length === 1 ? filters[0]! : { kind: 'and', filters });
const or = (filters: Filter[]): Filter => (filters.length === 1 ? filters[0]! : { kind: 'or', filters });

/**
 * Rows whose value of `key` comes strictly later than `value` in the key's direction, NULL sorting before
 * every value (first ascending, last descending: Dialect.orderTerm's placement on every dialect).
 * Undefined when no row can (nothing comes after NULL descending).
 */
function later(key: KeysetKey, value: ScalarValue | null): Filter | undefined {
  if (!key.descending) return value === null ? notNull(key.field) : compare(key.field, 'gt', value);
  if (value === null) return undefined;
  const less = compare(key.field, 'lt', value);
  return key.nullable ? or([less, isNull(key.field)]) : less;
}

const same = (key: KeysetKey, value: ScalarValue | null): Filter =>
  value === null ? isNull(key.field) : compare(key.field, 'eq', value);

/** Rows whose value of `key` comes later than `value` or equals it; undefined when every row does. */
function notEarlier(key: KeysetKey, value: ScalarValue | null): Filter | undefined {
  if (!key.descending) return value === null ? undefined : compare(key.field, 'ge', value);
  if (value === null) return isNull(key.field);
  const most = compare(key.field, 'le', value);
  return key.nullable ? or([most, isNull(key.field)]) : most;
}

/**
 * The rows after (or, `inclusive`, at or after) the position `values` holds in the order `keys`, whose last
 * key is unique: `k1 later` or `k1 same and k2 later` or …, the form every dialect runs; inclusive, the last
 * term is `… and kn >= vn` (a range an index bounds, where a separate `kn = vn` term made SQLite scan). The
 * first key's bound is also given alone where it is a plain comparison (`k1 >= v1`), so that an index on
 * it bounds the scan; the disjunction alone would read every row the index holds.
 */
export function keysetFilter(
  keys: readonly KeysetKey[],
  values: readonly (ScalarValue | null)[],
  inclusive = false,
): Filter {
  const terms: Filter[] = [];
  const prefix: Filter[] = [];
  keys.forEach((key, i) => {
    const value = values[i] ?? null;
    const last = i === keys.length - 1;
    const step = last && inclusive ? notEarlier(key, value) : later(key, value);
    if (step) terms.push(and([...prefix, step]));
    else if (last && inclusive) terms.push(prefix.length === 0 ? { kind: 'and', filters: [] } : and(prefix));
    prefix.push(same(key, value));
  });
  const keyset = terms.length === 0 ? ({ kind: 'or', filters: [] } as Filter) : or(terms);
  const first = keys[0];
  const v = values[0] ?? null;
  if (keys.length < 2 || !first || v === null) return keyset;
  if (!first.descending) return and([compare(first.field, 'ge', v), keyset]);
  return first.nullable ? keyset : and([compare(first.field, 'le', v), keyset]);
}

/** The same order the other way round: a page read backwards, and the rows before a position. */
export const reversedKeys = (keys: readonly KeysetKey[]): KeysetKey[] =>
  keys.map((k) => ({ ...k, descending: !k.descending }));
