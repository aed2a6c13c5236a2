import type { CursorPaging } from './cursor-paging.js';
import type { FieldRef, Filter } from './filter.js';

export interface SortKey {
  readonly field: FieldRef;
  readonly descending: boolean;
}

/**
 * A slice of the rows a filter matches, as a search's own `limit` and `offset` select it (Format B's `q`).
 * Pages are cut from it rather than from all the rows.
 */
export interface RowWindow {
  readonly offset: number;
  readonly limit?: number;
}

/** Rows to skip and take; `limit` undefined means all. */
export interface Paging {
  readonly offset: number;
  readonly limit?: number;
  /** The 1-based page number and size the client asked for, when it paged by number. */
  readonly number?: number;
  readonly size?: number;
  /**
   * The window the page lies in, when the request named one: `offset` and `limit` above already fall
   * inside it, and counts of results and pages are taken within it (the executor's total counts every
   * matching row; the format clips it).
   */
  readonly window?: RowWindow;
  /** Present when the page is read by cursor (keyset): `offset` is then 0 and `limit` one more than its size. */
  readonly cursor?: CursorPaging;
}

/** Everything a read of a list needs, format-neutral. */
export interface ReadQuery {
  readonly filter?: Filter;
  readonly sort: readonly SortKey[];
  readonly group: readonly FieldRef[];
  readonly paging: Paging;
  /** Fields shown per collection name; a collection absent here shows all its fields. */
  readonly fields: Readonly<Record<string, readonly string[]>>;
  /** Relationship paths to load in full, e.g. [['author'], ['comments', 'author']]. */
  readonly include: readonly (readonly string[])[];
  /** Expect exactly one resource: none or several is an error. */
  readonly single: boolean;
}

export const emptyReadQuery = (): ReadQuery => ({
  sort: [],
  group: [],
  paging: { offset: 0 },
  fields: {},
  include: [],
  single: false,
});
