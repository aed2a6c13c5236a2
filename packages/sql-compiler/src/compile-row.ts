import type { ModelSchema } from '@colapi/schema';
import type { KeyValue } from '@colapi/query-ast';
import { applyScope, type Scope } from './compile-scope.js';
import type { CompileContext } from './field-expression.js';
import { keyBinding } from './key-binding.js';
import { resourceRowDecoder, type ResourceRow } from './resource-row.js';
import { NO_RELATIONS, rowLinkage, type Relations } from './row-linkage.js';
import { selectColumns } from './select-columns.js';
import { statementOf, type RowsStatement } from './statement.js';

/**
 * One row of a model by its key, or none; within `scope` when given (`/person/1/articles/7`). It carries
 * the linkage of the relationships `relations` shows, as rowLinkage decides: a read by key computes its
 * select list for that row alone.
 */
export function compileRow(
  ctx: CompileContext,
  model: ModelSchema,
  key: KeyValue,
  relations: Relations = NO_RELATIONS,
  scope?: Scope,
): RowsStatement<ResourceRow | undefined> {
  const linkage = rowLinkage(ctx, relations, true);
  const t = ctx.aliases.next();
  const qb = ctx.knex
    .from({ [t]: model.table })
    .select(selectColumns(ctx, model, t), ...linkage.columns(t))
    .where(`${t}.${model.key}`, keyBinding(ctx, model, key));
  // The key is unique: no `limit`, which would only add a value to bind.
  if (scope) applyScope(ctx, qb, t, scope);
  const decode = resourceRowDecoder(ctx.dialect, model, linkage);
  return { ...statementOf(qb, ({ rows }) => (rows.length ? decode(rows[0]!) : undefined)), carried: linkage.carried };
}
