import type { Knex } from 'knex';

/** Which of an owner's related rows a statement takes: those whose column holds one of `only`, all but `except`, or all. */
export type Selection = { readonly only: readonly unknown[] } | { readonly except: readonly unknown[] } | 'all';

/** Restricts `qb` to the rows `selection` takes by `column`. */
export function applySelection(qb: Knex.QueryBuilder, column: string, selection: Selection): void {
  if (selection === 'all') return;
  if ('only' in selection) qb.whereIn(column, selection.only as Knex.Value[]);
  else qb.whereNotIn(column, selection.except as Knex.Value[]);
}
