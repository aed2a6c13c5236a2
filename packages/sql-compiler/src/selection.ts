import type { Knex } from 'knex';

/** Which of an owner's related rows a statement takes: those whose column holds one of `only`, all but `except`, or all. */
export type Selection = { readonly only: readonly unknown[] } | { readonly except: readonly unknown[] } | 'all';

/** Restricts `qb` to the rows `selection` takes by `column`, whose values `bind` turns into bindings. */
export function applySelection(
  qb: Knex.QueryBuilder,
  column: string,
  selection: Selection,
  bind: (values: readonly unknown[]) => Knex.Value[] = (v) => v as Knex.Value[],
): void {
  if (selection === 'all') return;
  if ('only' in selection) qb.whereIn(column, bind(selection.only));
  else qb.whereNotIn(column, bind(selection.except));
}
