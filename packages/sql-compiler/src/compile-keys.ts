import type { ModelSchema } from '@colapi/schema';
import type { Filter } from '@colapi/query-ast';
import { compileFilter } from './compile-filter.js';
import { keyOfRow, orderByKey, selectKey, whereKeyIn } from './key-columns.js';
import type { CompileContext } from './field-expression.js';
import type { RowAction } from './row-scopes.js';
import { statementOf, type Statement } from './statement.js';
import { restrictRows, tableSource } from './table-source.js';

/**
 * Keys of the rows a filter matches (every row without one), in key order: of the rows the caller may
 * `action` under row scopes (a bulk update asks for `update`'s, a bulk delete for `delete`'s).
 */
export function compileKeys(
  ctx: CompileContext,
  model: ModelSchema,
  filter?: Filter,
  action: RowAction = 'read',
): Statement<unknown[]> {
  const t = ctx.aliases.next();
  const qb = orderByKey(selectKey(tableSource(ctx, model, t, action), model, t), model, t);
  if (filter) qb.whereRaw('?', [compileFilter(ctx, model, t, filter)]);
  return statementOf(qb, ({ rows }) => rows.map((r) => keyOfRow(ctx, model, r)));
}

/** Which of these keys name a row of the model (one the caller may read, under row scopes), as text. */
export function compileExistingKeys(
  ctx: CompileContext,
  model: ModelSchema,
  keys: readonly unknown[],
): Statement<Set<string>> {
  const qb = whereKeyIn(ctx, ctx.knex(model.table), model, undefined, keys).select(model.keyColumns);
  restrictRows(ctx, qb, model, model.table);
  return statementOf(qb, ({ rows }) => new Set(rows.map((r) => String(keyOfRow(ctx, model, r)))));
}
