import type { CollectionSchema, Registry } from '@colapi/schema';
import {
  ApiError,
  isApiError,
  NETWORK_OPERATORS,
  OPERATORS,
  parseFilterList,
  parseJsonParameter,
  resolveFieldPath,
  resolveSortPath,
  type ErrorSource,
  type FieldRef,
  type Filter,
  type FilterContext,
  type OperatorSet,
  type Paging,
  type ReadQuery,
  type RowWindow,
  type SortKey,
} from '@colapi/query-ast';
import type { DecodeContext } from '@colapi/wire-format';

/**
 * The operators of Format B: the Format A list without `not_like` and the network address operators, which
 * the specification does not list for it. `ilike` is not listed either, but one of its samples uses it and
 * it is harmless, so it is accepted.
 */
export const LEGACY_OPERATOR_SPELLINGS: OperatorSet = new Set(
  [...OPERATORS]
    .filter(
      ([, info]) => info.canonical !== 'not_like' && !(NETWORK_OPERATORS as ReadonlySet<string>).has(info.canonical),
    )
    .map(([s]) => s),
);

/** The members of a search object `q`. */
export const SEARCH_MEMBERS: ReadonlySet<string> = new Set([
  'filters',
  'disjunction',
  'limit',
  'offset',
  'order_by',
  'group_by',
  'single',
]);

/** A search object `q`, parsed and checked against a collection. */
export interface LegacySearch {
  readonly filter?: Filter;
  readonly sort: readonly SortKey[];
  readonly group: readonly FieldRef[];
  readonly single: boolean;
  /** What `limit` and `offset` select; `{offset: 0}` without them. */
  readonly window: RowWindow;
}

export interface LegacySearchOptions {
  /** Where the object came from, e.g. `{parameter: 'q'}` or `{pointer: '/q'}`. */
  readonly source: ErrorSource;
  /** How error details name the object, e.g. `q`. */
  readonly path: string;
  /** The members accepted; default all of SEARCH_MEMBERS. A bulk update takes only filters and disjunction. */
  readonly members?: ReadonlySet<string>;
  /** Operator spellings accepted; default LEGACY_OPERATOR_SPELLINGS. */
  readonly operators?: OperatorSet;
}

export interface LegacyQueryOptions {
  /** Operator spellings accepted; default LEGACY_OPERATOR_SPELLINGS. */
  readonly operators?: OperatorSet;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A column of the collection, or `relation__column` along to-one relationships. */
function fieldPath(
  text: unknown,
  collection: CollectionSchema,
  registry: Registry,
  source: ErrorSource,
  path: string,
): FieldRef {
  if (typeof text !== 'string' || text === '') throw ApiError.badRequest(`${path} must name a field`, source);
  // A column whose own name holds the separator is still that column.
  if (collection.columns.has(text)) return { relations: [], column: text };
  try {
    return resolveFieldPath(text, collection, registry, '__', source);
  } catch (e) {
    if (isApiError(e)) throw ApiError.badRequest(`${path}: ${e.detail}`, source);
    throw e;
  }
}

/** The columns of a composite key's id that `text` names (`id`, `order_line__id`), or undefined for any other field. */
function compositeIdPath(
  text: unknown,
  collection: CollectionSchema,
  registry: Registry,
  source: ErrorSource,
): FieldRef[] | undefined {
  if (typeof text !== 'string' || text === '' || collection.columns.has(text)) return undefined;
  try {
    const fields = resolveSortPath(text, collection, registry, '__', source);
    return fields.length > 1 ? fields : undefined;
  } catch {
    return undefined; // fieldPath says what is wrong with it
  }
}

function listOf(json: unknown, source: ErrorSource, path: string): Record<string, unknown>[] {
  if (!Array.isArray(json)) throw ApiError.badRequest(`${path} must be a list of objects`, source);
  return json.map((item, i) => {
    if (!isObject(item)) throw ApiError.badRequest(`${path}[${i}] must be an object`, source);
    return item;
  });
}

function wholeNumber(json: unknown, min: number, source: ErrorSource, path: string): number {
  if (typeof json !== 'number' || !Number.isSafeInteger(json) || json < min) {
    throw ApiError.badRequest(`${path} must be an integer of at least ${min}`, source);
  }
  return json;
}

function flag(json: unknown, source: ErrorSource, path: string): boolean {
  if (typeof json !== 'boolean') throw ApiError.badRequest(`${path} must be true or false`, source);
  return json;
}

function parseOrderBy(
  json: unknown,
  collection: CollectionSchema,
  registry: Registry,
  source: ErrorSource,
  path: string,
): SortKey[] {
  return listOf(json, source, path).flatMap((item, i) => {
    const at = `${path}[${i}]`;
    const extra = Object.keys(item).find((k) => k !== 'field' && k !== 'direction');
    if (extra) throw ApiError.badRequest(`${at}: unknown member "${extra}" (expected field and direction)`, source);
    const direction = item.direction ?? 'asc';
    if (direction !== 'asc' && direction !== 'desc')
      throw ApiError.badRequest(`${at}.direction must be "asc" or "desc"`, source);
    const descending = direction === 'desc';
    // The id of a composite key orders by its columns (resolveSortPath); any other field is one column.
    const fields = compositeIdPath(item.field, collection, registry, source);
    if (fields) return fields.map((field) => ({ field, descending }));
    return [{ field: fieldPath(item.field, collection, registry, source, `${at}.field`), descending }];
  });
}

function parseGroupBy(
  json: unknown,
  collection: CollectionSchema,
  registry: Registry,
  source: ErrorSource,
  path: string,
): FieldRef[] {
  // A group's row is the one with the smallest key, which a key of several columns has no one value for.
  if (collection.model.keyColumns.length > 1)
    throw ApiError.badRequest(`${path}: ${collection.name} has a key of several columns and cannot be grouped`, source);
  return listOf(json, source, path).map((item, i) => {
    const at = `${path}[${i}]`;
    const extra = Object.keys(item).find((k) => k !== 'field');
    if (extra) throw ApiError.badRequest(`${at}: unknown member "${extra}" (expected field)`, source);
    return fieldPath(item.field, collection, registry, source, `${at}.field`);
  });
}

/** Parses a search object `q` (already JSON) against a collection; every member is optional. */
export function parseLegacySearch(
  json: unknown,
  collection: CollectionSchema,
  ctx: DecodeContext,
  options: LegacySearchOptions,
): LegacySearch {
  const { source, path } = options;
  const { registry, limits } = ctx;
  if (!isObject(json)) throw ApiError.badRequest(`${path} must be a JSON object`, source);
  const members = options.members ?? SEARCH_MEMBERS;
  const unknown = Object.keys(json).find((k) => !members.has(k));
  if (unknown !== undefined) {
    throw ApiError.badRequest(`${path}: unknown member "${unknown}" (expected ${[...members].join(', ')})`, source);
  }
  let filter: Filter | undefined;
  if (json.filters !== undefined) {
    const filterContext: FilterContext = {
      registry,
      source,
      operators: options.operators ?? LEGACY_OPERATOR_SPELLINGS,
      relationSeparator: '__',
      maxDepth: limits.maxFilterDepth,
      maxNodes: limits.maxFilterNodes,
      unsupportedOperator: ctx.unsupportedOperator,
    };
    filter = parseFilterList(json.filters, collection, filterContext, `${path}.filters`);
  }
  const disjunction = json.disjunction === undefined ? false : flag(json.disjunction, source, `${path}.disjunction`);
  // With several filters parseFilterList answers their conjunction; a disjunction joins the same members.
  if (disjunction && filter?.kind === 'and' && Array.isArray(json.filters) && json.filters.length > 1) {
    filter = { kind: 'or', filters: filter.filters };
  }
  const limit = json.limit === undefined ? undefined : wholeNumber(json.limit, 1, source, `${path}.limit`);
  const offset = json.offset === undefined ? 0 : wholeNumber(json.offset, 0, source, `${path}.offset`);
  return {
    ...(filter ? { filter } : {}),
    sort:
      json.order_by === undefined ? [] : parseOrderBy(json.order_by, collection, registry, source, `${path}.order_by`),
    group:
      json.group_by === undefined ? [] : parseGroupBy(json.group_by, collection, registry, source, `${path}.group_by`),
    single: json.single === undefined ? false : flag(json.single, source, `${path}.single`),
    window: limit === undefined ? { offset } : { offset, limit },
  };
}

/** The one value of a query parameter; a repeated one is refused rather than silently half-read. */
function single(params: URLSearchParams, name: string): string | undefined {
  const all = params.getAll(name);
  if (all.length > 1) throw ApiError.badRequest(`query parameter ${name} is given more than once`, { parameter: name });
  return all[0];
}

function pageParameter(params: URLSearchParams, name: string): number | undefined {
  const text = single(params, name);
  if (text === undefined) return undefined;
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1) {
    throw ApiError.badRequest(`${name} must be a positive integer`, { parameter: name });
  }
  return Number(text);
}

/**
 * The page of the search window a request asks for with `page` and `results_per_page`. A page size above
 * the maximum is lowered to it, as legacy clients expect, rather than refused.
 */
function legacyPaging(params: URLSearchParams, window: RowWindow, ctx: DecodeContext): Paging {
  const { defaultPageSize, maxPageSize } = ctx.limits;
  const size = Math.min(pageParameter(params, 'results_per_page') ?? defaultPageSize, maxPageSize);
  const number = pageParameter(params, 'page') ?? 1;
  const skipped = (number - 1) * size;
  const limit = window.limit === undefined ? size : Math.max(0, Math.min(size, window.limit - skipped));
  const paging = { offset: window.offset + skipped, limit, number, size };
  // The list object counts results and pages within the window; a search without one has all the rows.
  return window.offset > 0 || window.limit !== undefined ? { ...paging, window } : paging;
}

/**
 * Parses the query string of a Format B read (`q`, `page`, `results_per_page`) into a validated ReadQuery.
 * Includes and field selections are left empty: the wire format decides what it shows.
 */
export function parseLegacyQuery(
  params: URLSearchParams,
  collection: CollectionSchema,
  ctx: DecodeContext,
  options: LegacyQueryOptions = {},
): ReadQuery {
  const text = single(params, 'q');
  const source = { parameter: 'q' };
  const search = parseLegacySearch(text === undefined ? {} : parseJsonParameter(text, 'q'), collection, ctx, {
    source,
    path: 'q',
    ...(options.operators ? { operators: options.operators } : {}),
  });
  return {
    ...(search.filter ? { filter: search.filter } : {}),
    sort: search.sort,
    group: search.group,
    paging: legacyPaging(params, search.window, ctx),
    fields: {},
    include: [],
    single: search.single,
  };
}
