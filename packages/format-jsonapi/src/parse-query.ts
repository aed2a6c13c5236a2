import { foreignKeyColumns, type CollectionSchema, type Registry } from '@colapi/schema';
import {
  ALL_OPERATOR_SPELLINGS,
  ApiError,
  parseFilterList,
  parseJsonParameter,
  resolveFieldPath,
  resolveSortPath,
  resolveIncludePath,
  type FieldRef,
  type FilterContext,
  type Filter,
  type Paging,
  type QueryLimits,
  type ReadQuery,
  type SortKey,
} from '@colapi/query-ast';
import type { DecodeContext } from '@colapi/wire-format';

/** What the target of a request accepts: a list takes every parameter, a single resource only fields. */
export type QueryShape = 'list' | 'single';

const LIST_PARAMETERS = new Set(['filter[objects]', 'filter[single]', 'sort', 'group', 'page[number]', 'page[size]']);
const ALWAYS = new Set(['include', 'only', 'callback']);
const FAMILY = /^(filter|page|fields)\[(.*)\]$/;

/** Parameters this server does not know: JSON:API 1.0 reserves all-lowercase names, so those are refused. */
function checkNames(params: URLSearchParams, shape: QueryShape): void {
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (seen.has(name))
      throw ApiError.badRequest(`query parameter ${name} is given more than once`, { parameter: name });
    seen.add(name);
    if (ALWAYS.has(name) || name.startsWith('fields[')) continue;
    if (LIST_PARAMETERS.has(name)) {
      if (shape === 'single') {
        throw ApiError.badRequest(`query parameter ${name} applies to collections, not to a single resource`, {
          parameter: name,
        });
      }
      continue;
    }
    if (FAMILY.test(name) || /^[a-z]+$/.test(name)) {
      throw ApiError.badRequest(`unknown query parameter ${name}`, { parameter: name });
    }
    // Other names (with a non a-z character) are implementation-specific and ignored, as JSON:API allows.
  }
}

function positiveInteger(params: URLSearchParams, name: string, max?: number): number | undefined {
  const text = params.get(name);
  if (text === null) return undefined;
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1) {
    throw ApiError.badRequest(`${name} must be a positive integer`, { parameter: name });
  }
  const n = Number(text);
  if (max !== undefined && n > max) throw ApiError.badRequest(`${name} must be at most ${max}`, { parameter: name });
  return n;
}

function list(text: string): string[] {
  return text === '' ? [] : text.split(',');
}

function parseSort(text: string, collection: CollectionSchema, registry: Registry): SortKey[] {
  const source = { parameter: 'sort' };
  return list(text).flatMap((key) => {
    const descending = key.startsWith('-');
    const path = descending ? key.slice(1) : key;
    if (!path) throw ApiError.badRequest('sort has an empty key', source);
    return resolveSortPath(path, collection, registry, '.', source).map((field) => ({ field, descending }));
  });
}

function parseGroup(text: string, collection: CollectionSchema, registry: Registry): FieldRef[] {
  const source = { parameter: 'group' };
  const keys = list(text);
  if (keys.length === 0) throw ApiError.badRequest('group names no field', source);
  // A group's row is the one with the smallest key, which a key of several columns has no one value for.
  if (collection.model.keyColumns.length > 1)
    throw ApiError.badRequest(`${collection.name} has a key of several columns and cannot be grouped`, source);
  return keys.map((key) => resolveFieldPath(key, collection, registry, '.', source));
}

/**
 * Checks a field list of one collection against its resource fields: attributes (columns but the key and the
 * foreign keys that relationships stand for), relationships and virtual attributes. `id` and `type` are
 * accepted and ignored, they always appear.
 */
function fieldList(text: string, collection: CollectionSchema, parameter: string): string[] {
  const names = list(text).filter((n) => n !== 'id' && n !== 'type');
  const foreignKeys = foreignKeyColumns(collection.model);
  for (const n of names) {
    if (foreignKeys.has(n) && collection.columns.has(n)) {
      const rel = [...collection.model.relationships.values()].find(
        (r) => r.join.kind === 'belongs-to' && r.join.ownColumn === n,
      );
      throw ApiError.badRequest(`${parameter}: "${n}" is shown as the relationship "${rel?.name}", not as a field`, {
        parameter,
      });
    }
    const known =
      (collection.columns.has(n) && n !== collection.model.key) ||
      collection.relationships.has(n) ||
      collection.virtualAttributes.has(n);
    if (!known) throw ApiError.badRequest(`${parameter}: "${n}" is not a field of ${collection.name}`, { parameter });
  }
  return names;
}

function parseFields(
  params: URLSearchParams,
  collection: CollectionSchema,
  registry: Registry,
): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const [name, value] of params) {
    const m = /^fields\[(.*)\]$/.exec(name);
    if (!m) continue;
    const type = registry.collection(m[1]!);
    if (!type) throw ApiError.badRequest(`${name}: "${m[1]}" is not a resource type`, { parameter: name });
    fields[type.name] = fieldList(value, type, name);
  }
  const only = params.get('only');
  if (only !== null) {
    if (fields[collection.name]) {
      throw ApiError.badRequest(`give either only or fields[${collection.name}], not both`, { parameter: 'only' });
    }
    fields[collection.name] = fieldList(only, collection, 'only');
  }
  return fields;
}

function parseInclude(
  text: string | null,
  collection: CollectionSchema,
  registry: Registry,
  limits: QueryLimits,
): string[][] {
  if (text === null) return [];
  const source = { parameter: 'include' };
  return list(text).map((path) => {
    const parts = resolveIncludePath(path, collection, registry, source);
    if (parts.length > limits.maxIncludeDepth) {
      throw ApiError.badRequest(`include "${path}" is deeper than ${limits.maxIncludeDepth} relationships`, source);
    }
    return parts;
  });
}

function parsePaging(params: URLSearchParams, limits: QueryLimits): Paging {
  const number = positiveInteger(params, 'page[number]') ?? 1;
  const size = positiveInteger(params, 'page[size]', limits.maxPageSize) ?? limits.defaultPageSize;
  return page(number, size);
}

function page(number: number, size: number): Paging {
  return { offset: (number - 1) * size, limit: size, number, size };
}

function parseSingle(text: string | null): boolean {
  if (text === null || text === '0') return false;
  if (text === '1') return true;
  throw ApiError.badRequest('filter[single] must be 1 or 0', { parameter: 'filter[single]' });
}

/** What an empty query string parses to: no filter, sort, group, fields or include; the first page. */
function emptyQuery(shape: QueryShape, limits: QueryLimits): ReadQuery {
  return {
    sort: [],
    group: [],
    paging: shape === 'list' ? page(1, limits.defaultPageSize) : { offset: 0 },
    fields: {},
    include: [],
    single: false,
  };
}

/**
 * Parses the query string of a JSON:API read (Format A) into a validated ReadQuery.
 * Every error names the parameter at fault in `source.parameter`.
 */
export function parseJsonApiQuery(
  params: URLSearchParams,
  collection: CollectionSchema,
  context: DecodeContext,
  shape: QueryShape,
): ReadQuery {
  const { registry, limits } = context;
  // Most reads by key and most writes carry no query at all: skip the parameter-by-parameter lookups.
  if (params.size === 0) return emptyQuery(shape, limits);
  checkNames(params, shape);
  let filter: Filter | undefined;
  const filterText = params.get('filter[objects]');
  if (filterText !== null) {
    const ctx: FilterContext = {
      registry,
      source: { parameter: 'filter[objects]' },
      operators: ALL_OPERATOR_SPELLINGS,
      maxDepth: limits.maxFilterDepth,
      maxNodes: limits.maxFilterNodes,
      unsupportedOperator: context.unsupportedOperator,
    };
    filter = parseFilterList(parseJsonParameter(filterText, 'filter[objects]'), collection, ctx, 'filter[objects]');
  }
  const sortText = params.get('sort');
  const groupText = params.get('group');
  return {
    ...(filter ? { filter } : {}),
    sort: sortText === null ? [] : parseSort(sortText, collection, registry),
    group: groupText === null ? [] : parseGroup(groupText, collection, registry),
    paging: shape === 'list' ? parsePaging(params, limits) : { offset: 0 },
    fields: parseFields(params, collection, registry),
    include: parseInclude(params.get('include'), collection, registry, limits),
    single: parseSingle(params.get('filter[single]')),
  };
}
