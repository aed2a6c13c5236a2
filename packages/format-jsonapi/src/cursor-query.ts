import type { CollectionSchema } from '@colapi/schema';
import {
  ApiError,
  coerceValue,
  keysetFilter,
  reversedKeys,
  type Filter,
  type KeysetKey,
  type ReadQuery,
  type ScalarValue,
} from '@colapi/query-ast';
import type { DecodeContext, HttpRequest } from '@colapi/wire-format';
import { asksCursorProfile, CursorError } from './cursor-profile.js';
import type { CursorSigner } from './cursor-signer.js';
import { parseJsonApiQuery } from './parse-query.js';

const CURSOR_PARAMETERS = ['page[after]', 'page[before]', 'page[size]'];

/**
 * Whether a list request is paged by cursor: it names a cursor, its `Accept` asks for the profile, or its
 * collection is registered with `paging: "cursor"`. A `filter[single]` search is never paged.
 */
export function pagedByCursor(request: HttpRequest, collection: CollectionSchema): boolean {
  const params = request.url.searchParams;
  if (params.has('page[after]') || params.has('page[before]')) return true;
  if (params.get('filter[single]') === '1') return false;
  return collection.paging === 'cursor' || asksCursorProfile(request.headers.accept);
}

/**
 * What a cursor is signed with besides its values: the path (collection, or owner and relationship), the
 * sort and the filter, so that a cursor is refused under any other.
 */
export function cursorContext(request: HttpRequest): string {
  const params = request.url.searchParams;
  return `${request.url.pathname}\n${params.get('sort') ?? ''}\n${params.get('filter[objects]') ?? ''}`;
}

function pageSize(params: URLSearchParams, ctx: DecodeContext): number {
  const text = params.get('page[size]');
  if (text === null) return ctx.limits.defaultPageSize;
  const source = { parameter: 'page[size]' };
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1)
    throw new CursorError('invalid-parameter-value', 'page[size] must be a positive integer', source);
  const max = ctx.limits.maxPageSize;
  if (Number(text) > max) {
    throw new CursorError('max-size-exceeded', `page[size] is ${text}, and at most ${max} are allowed`, source, {
      page: { maxSize: max },
    });
  }
  return Number(text);
}

/**
 * The client's sort made total: its keys (columns of the collection only), then the key unless already there
 * (each column of a composite key not already sorted on, in key order).
 */
function keysetKeys(query: ReadQuery, collection: CollectionSchema): KeysetKey[] {
  const keyColumns = collection.model.keyColumns;
  const keys: KeysetKey[] = [];
  const sorted = new Set<string>();
  for (const s of query.sort) {
    if (s.field.relations.length > 0) {
      throw new CursorError(
        'unsupported-sort',
        `sort "${[...s.field.relations, s.field.column].join('.')}": a page read by cursor sorts only on fields of ${collection.name} itself`,
        { parameter: 'sort' },
      );
    }
    const column = collection.model.columns.get(s.field.column)!;
    keys.push({ ...s, nullable: column.nullable && !keyColumns.includes(s.field.column) });
    sorted.add(s.field.column);
    // The whole key is unique: keys after it order nothing.
    if (keyColumns.every((c) => sorted.has(c))) return keys;
  }
  for (const column of keyColumns)
    if (!sorted.has(column)) keys.push({ field: { relations: [], column }, descending: false, nullable: false });
  return keys;
}

/** The position a cursor holds, checked as a filter's values are: a cursor that is not one of ours is a 400. */
function position(
  text: string,
  parameter: string,
  context: string,
  keys: readonly KeysetKey[],
  collection: CollectionSchema,
  signer: CursorSigner,
): (ScalarValue | null)[] {
  const refuse = (why: string) =>
    new CursorError(
      'invalid-parameter-value',
      `${parameter} is not a cursor of this list${why}: use one from meta.page.cursor or a link of a page read with the same path, sort and filter`,
      { parameter },
    );
  const values = signer.verify(context, text);
  if (!values || values.length !== keys.length) throw refuse('');
  return keys.map((key, i) => {
    const value = values[i];
    if (value === null) {
      if (!key.nullable) throw refuse('');
      return null;
    }
    try {
      const column = collection.model.columns.get(key.field.column)!;
      return coerceValue(column, value, { source: { parameter }, path: parameter });
    } catch (error) {
      if (error instanceof ApiError) throw refuse(` (${error.detail})`);
      throw error;
    }
  });
}

const allOf = (filters: (Filter | undefined)[]): Filter | undefined => {
  const present = filters.filter((f): f is Filter => f !== undefined);
  return present.length <= 1 ? present[0] : { kind: 'and', filters: present };
};

/**
 * The read query of a page read by cursor (pagedByCursor): the client's filter and the keyset predicate of
 * its cursors, its sort ended by the key (reversed when read backwards), one row more than the page size.
 * The cursor parameters are checked here with the profile's errors; every other one as for any list.
 */
export function cursorReadQuery(
  request: HttpRequest,
  collection: CollectionSchema,
  ctx: DecodeContext,
  signer: CursorSigner,
): ReadQuery {
  const params = request.url.searchParams;
  if (params.has('page[number]')) {
    throw new CursorError(
      'invalid-parameter-value',
      'page[number] does not apply to a list paged by cursor: use page[after] or page[before]',
      { parameter: 'page[number]' },
    );
  }
  const size = pageSize(params, ctx);
  const rest = new URLSearchParams([...params].filter(([name]) => !CURSOR_PARAMETERS.includes(name)));
  const base = parseJsonApiQuery(rest, collection, ctx, 'list');
  if (base.single) {
    throw ApiError.badRequest('filter[single] does not combine with a cursor', { parameter: 'filter[single]' });
  }
  if (base.group.length > 0) {
    throw ApiError.badRequest('group does not combine with paging by cursor', { parameter: 'group' });
  }
  const keys = keysetKeys(base, collection);
  const context = cursorContext(request);
  const read = (parameter: string) => {
    const text = params.get(parameter);
    return text === null ? undefined : position(text, parameter, context, keys, collection, signer);
  };
  const after = read('page[after]');
  const before = read('page[before]');
  const backwards = before !== undefined && after === undefined;
  const filter = allOf([
    base.filter,
    after && keysetFilter(keys, after),
    before && keysetFilter(reversedKeys(keys), before),
  ]);
  const behind = after
    ? keysetFilter(reversedKeys(keys), after, true)
    : before
      ? keysetFilter(keys, before, true)
      : undefined;
  return {
    ...base,
    ...(filter ? { filter } : {}),
    sort: backwards ? reversedKeys(keys) : keys,
    paging: {
      offset: 0,
      limit: size + 1,
      size,
      cursor: {
        size,
        backwards,
        range: after !== undefined && before !== undefined,
        keys,
        ...(base.filter ? { filter: base.filter } : {}),
        ...(behind ? { behind } : {}),
      },
    },
  };
}
