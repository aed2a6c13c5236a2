import type { ModelSchema } from '@colapi/schema';
import type { Filter } from '@colapi/query-ast';
import type { Knex } from 'knex';
import { compileFilter } from './compile-filter.js';
import type { CompileContext } from './field-expression.js';
import { statementOf, type Statement } from './statement.js';

/** Keys of the rows a filter matches (every row without one), in key order. */
export function compileKeys(ctx: CompileContext, model: ModelSchema, filter?: Filter): Statement<unknown[]> {
  const t = ctx.aliases.next();
  const qb = ctx.knex
    .from({ [t]: model.table })
    .select(`${t}.${model.key}`)
    .orderBy(`${t}.${model.key}`);
  if (filter) qb.whereRaw('?', [compileFilter(ctx, model, t, filter)]);
  return statementOf(qb, ({ rows }) => rows.map((r) => r[model.key]));
}

/** Which of these keys name a row of the model, as text. */
export function compileExistingKeys(
  ctx: CompileContext,
  model: ModelSchema,
  keys: readonly unknown[],
): Statement<Set<string>> {
  const qb = ctx
    .knex(model.table)
    .whereIn(model.key, keys as Knex.Value[])
    .select(model.key);
  return statementOf(qb, ({ rows }) => new Set(rows.map((r) => String(r[model.key]))));
}
