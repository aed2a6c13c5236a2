import type { ModelSchema } from '@colapi/schema';
import { keyParts, rowId } from '@colapi/query-ast';
import type { Knex } from 'knex';
import type { CompileContext } from './field-expression.js';
import { keyBinding } from './key-binding.js';
import { keyColumn, plainBindings } from './plain-binding.js';
import { applySelection, type Selection } from './selection.js';

/**
 * Where a statement meets a model's key. A one-column key keeps the plain forms (`t.k = ?`, `t.k in (…)`), so its
 * statements are what they always were; a composite key compares all its columns at once as a row value
 * (`(t.a, t.b) = (?, ?)`, `(t.a, t.b) in ((?, ?), …)`), which PostgreSQL, MariaDB and SQLite (3.15 on) all read.
 */

/** The key's columns, qualified by `alias` when one is given. */
export function keyRefs(model: ModelSchema, alias?: string): string[] {
  return model.keyColumns.map((c) => (alias ? `${alias}.${c}` : c));
}

/** Restricts `qb` to the row of `model` (named `alias`, or unqualified) whose key is `key`. */
export function whereKey(
  ctx: CompileContext,
  qb: Knex.QueryBuilder,
  model: ModelSchema,
  alias: string | undefined,
  key: unknown,
): Knex.QueryBuilder {
  const refs = keyRefs(model, alias);
  if (refs.length === 1) return qb.where(refs[0]!, keyBinding(ctx, model, key));
  const parts = partBindings(ctx, model, key);
  return qb.whereRaw(`(${refs.map(() => '??').join(', ')}) = (${parts.map(() => '?').join(', ')})`, [
    ...refs,
    ...parts,
  ]);
}

/** Restricts `qb` to the rows of `model` whose key is one of `keys` (none when there are none). */
export function whereKeyIn(
  ctx: CompileContext,
  qb: Knex.QueryBuilder,
  model: ModelSchema,
  alias: string | undefined,
  keys: readonly unknown[],
): Knex.QueryBuilder {
  const refs = keyRefs(model, alias);
  if (refs.length === 1) return qb.whereIn(refs[0]!, plainBindings(ctx, keyColumn(model), keys));
  if (keys.length === 0) return qb.whereRaw('1 = 0');
  const tuple = `(${refs.map(() => '?').join(', ')})`;
  return qb.whereRaw(`(${refs.map(() => '??').join(', ')}) in (${keys.map(() => tuple).join(', ')})`, [
    ...refs,
    ...keys.flatMap((k) => partBindings(ctx, model, k)),
  ]);
}

/** Selects the key's columns of `alias` (each under its own name), for keyOfRow to read. */
export function selectKey(qb: Knex.QueryBuilder, model: ModelSchema, alias: string): Knex.QueryBuilder {
  return qb.select(keyRefs(model, alias));
}

/** Orders `qb` by the key, column after column. */
export function orderByKey(
  qb: Knex.QueryBuilder,
  model: ModelSchema,
  alias: string,
  direction: 'asc' | 'desc' = 'asc',
): Knex.QueryBuilder {
  for (const ref of keyRefs(model, alias)) qb.orderBy(ref, direction);
  return qb;
}

/**
 * The key of a driver row that selected the key's columns (selectKey), in its wire form: the column's value
 * for a one-column key; a composite key's id, made of each part's.
 */
export function keyOfRow(ctx: CompileContext, model: ModelSchema, row: Readonly<Record<string, unknown>>): unknown {
  if (model.keyColumns.length === 1) {
    const key = keyColumn(model);
    return key ? ctx.dialect.decodeValue(key, row[model.key]) : row[model.key];
  }
  const parts: Record<string, unknown> = {};
  for (const c of model.keyColumns) parts[c] = ctx.dialect.decodeValue(model.columns.get(c)!, row[c]);
  return rowId(model, parts);
}

/** A composite key's parts, each bound as keyBinding binds a one-column key. */
function partBindings(ctx: CompileContext, model: ModelSchema, key: unknown): Knex.Value[] {
  const parts = keyParts(model, key);
  return model.keyColumns.map((c, i) => {
    const column = model.columns.get(c)!;
    const part = parts[i];
    return (ctx.dialect.filterValue ? ctx.dialect.filterValue(ctx.knex, column, part) : part) as Knex.Value;
  });
}

/** Restricts `qb` to the rows of `model` a Selection names by key (all of them, only some, or all but some). */
export function whereKeySelection(
  ctx: CompileContext,
  qb: Knex.QueryBuilder,
  model: ModelSchema,
  alias: string | undefined,
  selection: Selection,
): void {
  if (selection === 'all') return;
  if (model.keyColumns.length === 1) {
    applySelection(qb, keyRefs(model, alias)[0]!, selection, (v) => plainBindings(ctx, keyColumn(model), v));
    return;
  }
  if ('only' in selection) whereKeyIn(ctx, qb, model, alias, selection.only);
  else if (selection.except.length > 0)
    qb.whereNot((inner) => {
      whereKeyIn(ctx, inner, model, alias, selection.except);
    });
}
