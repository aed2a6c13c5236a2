import type { CollectionSchema } from '@colapi/schema';
import { emptyReadQuery, type CursorPaging, type Filter, type ReadQuery } from '@colapi/query-ast';
import {
  NO_RELATIONS,
  runList,
  type ListAnswer,
  type Relations,
  type Scope,
  type SqlCompiler,
} from '@colapi/sql-compiler';
import type { Knex } from 'knex';

/** What a page read by cursor found: its rows in the client's order, what lies beyond it, its total. */
export interface CursorListAnswer extends ListAnswer {
  readonly ends: { readonly before: boolean; readonly after: boolean; readonly truncated: boolean };
  readonly carried: ReadonlySet<string>;
}

/**
 * Reads a page by cursor: the keyset read of one row more than the page (whether it is cut short), and,
 * alongside, whether any row lies behind its cursor (one row, by the same index) and the total where the
 * collection tells one, counted under the client's filter alone. Every statement is a keyset read or a
 * count: none skips rows with OFFSET.
 */
export async function cursorList(
  db: Knex,
  compiler: SqlCompiler,
  collection: CollectionSchema,
  query: ReadQuery,
  cursor: CursorPaging,
  relations: Relations,
  scope: Scope | undefined,
): Promise<CursorListAnswer> {
  const scoped = scope ? { scope } : {};
  const plan = compiler.list({ collection, query, relations, ...scoped, total: 'none' });
  const probe = (filter: Filter) => {
    const one = { ...emptyReadQuery(), filter, paging: { offset: 0, limit: 1 } };
    return runList(
      db,
      compiler.dialect,
      compiler.list({ collection, query: one, relations: NO_RELATIONS, total: 'none', ...scoped }),
    );
  };
  const counted = () => {
    const all = {
      ...emptyReadQuery(),
      ...(cursor.filter ? { filter: cursor.filter } : {}),
      paging: { offset: 0, limit: 1 },
    };
    return runList(
      db,
      compiler.dialect,
      compiler.list({ collection, query: all, relations: NO_RELATIONS, total: collection.cursorTotal, ...scoped }),
    );
  };
  const [answer, behind, total] = await Promise.all([
    runList(db, compiler.dialect, plan),
    cursor.behind ? probe(cursor.behind) : undefined,
    collection.cursorTotal === 'none' ? undefined : counted(),
  ]);
  const more = answer.rows.length > cursor.size;
  const rows = answer.rows.slice(0, cursor.size);
  if (cursor.backwards) rows.reverse();
  const behindExists = (behind?.rows.length ?? 0) > 0;
  // A range ends before its `page[before]` row, which lies after it.
  const ends = cursor.backwards
    ? { before: more, after: behindExists, truncated: false }
    : { before: behindExists, after: cursor.range || more, truncated: cursor.range && more };
  return {
    rows,
    ...(answer.ownerExists !== undefined ? { ownerExists: answer.ownerExists } : {}),
    ...(total?.total !== undefined ? { total: total.total } : {}),
    ends,
    carried: plan.carried,
  };
}
