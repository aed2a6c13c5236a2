import type { RelationshipSchema } from '@colapi/schema';
import { targetModel, type CompileContext } from './field-expression.js';
import { statementOf, type Statement } from './statement.js';
import { restrictRows } from './table-source.js';
import { keyColumn, plainBindings, targetJoinColumn, wireText } from './plain-binding.js';

/**
 * The join values of the targets of a relationship with these keys, by key as text (when the relationship
 * does not join on the target's key). Under row scopes a target the caller cannot read is missing.
 */
export function compileJoinValues(
  ctx: CompileContext,
  rel: RelationshipSchema,
  keys: readonly unknown[],
): Statement<Map<string, unknown>> {
  const target = targetModel(ctx, rel);
  const column = rel.join.targetColumn;
  const qb = ctx
    .knex(target.table)
    .whereIn(target.key, plainBindings(ctx, keyColumn(target), keys))
    .select(target.key, column);
  restrictRows(ctx, qb, target, target.table);
  // Both as the wire has them: a join value is bound again (plainBinding) where it is written or compared.
  const joined = targetJoinColumn(ctx, rel);
  const decoded = (raw: unknown) => (joined && raw !== null ? ctx.dialect.decodeValue(joined, raw) : raw);
  return statementOf(
    qb,
    ({ rows }) => new Map(rows.map((r) => [wireText(ctx, keyColumn(target), r[target.key]), decoded(r[column])])),
  );
}
