import type { ModelSchema } from '@colapi/schema';
import type { KeyValue } from '@colapi/query-ast';
import type { CompileContext } from './field-expression.js';
import { whereKey } from './key-columns.js';
import { resourceRowDecoder, type ResourceRow } from './resource-row.js';
import { NO_RELATIONS, rowLinkage } from './row-linkage.js';
import { selectColumns } from './select-columns.js';
import { statementOf, type RowsStatement } from './statement.js';
import { tableSource } from './table-source.js';

/**
 * One row of a model by its key, every column in its read form, locked until the transaction ends where the
 * dialect locks rows (`Dialect.lockRows`): what a conditional write compares its precondition with before it
 * writes. Built each time: it runs only for writes that carry a precondition.
 */
export function compileLockedRow(
  ctx: CompileContext,
  model: ModelSchema,
  key: KeyValue,
): RowsStatement<ResourceRow | undefined> {
  const t = ctx.aliases.next();
  const linkage = rowLinkage(ctx, NO_RELATIONS, true);
  let qb = whereKey(ctx, tableSource(ctx, model, t).select(selectColumns(ctx, model, t)), model, t, key);
  if (ctx.dialect.lockRows) qb = ctx.dialect.lockRows(qb);
  const decode = resourceRowDecoder(ctx.dialect, model, linkage);
  return { ...statementOf(qb, ({ rows }) => (rows.length ? decode(rows[0]!) : undefined)), carried: linkage.carried };
}
