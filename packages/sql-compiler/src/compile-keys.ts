import type { ModelSchema } from '@colapi/schema';
import type { Filter } from '@colapi/query-ast';
import { compileFilter } from './compile-filter.js';
import type { CompileContext } from './field-expression.js';
import type { RowAction } from './row-scopes.js';
import { statementOf, type Statement } from './statement.js';
import { restrictRows, tableSource } from './table-source.js';
import { keyColumn, plainBindings, wireText } from './plain-binding.js';

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
  const qb = tableSource(ctx, model, t, action).select(`${t}.${model.key}`).orderBy(`${t}.${model.key}`);
  if (filter) qb.whereRaw('?', [compileFilter(ctx, model, t, filter)]);
  const key = keyColumn(model);
  return statementOf(qb, ({ rows }) =>
    rows.map((r) => (key ? ctx.dialect.decodeValue(key, r[model.key]) : r[model.key])),
  );
}

/** Which of these keys name a row of the model (one the caller may read, under row scopes), as text. */
export function compileExistingKeys(
  ctx: CompileContext,
  model: ModelSchema,
  keys: readonly unknown[],
): Statement<Set<string>> {
  const qb = ctx
    .knex(model.table)
    .whereIn(model.key, plainBindings(ctx, keyColumn(model), keys))
    .select(model.key);
  restrictRows(ctx, qb, model, model.table);
  return statementOf(qb, ({ rows }) => new Set(rows.map((r) => wireText(ctx, keyColumn(model), r[model.key]))));
}
