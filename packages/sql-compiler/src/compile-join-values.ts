import type { RelationshipSchema } from '@colapi/schema';
import { targetModel, type CompileContext } from './field-expression.js';
import { keyOfRow, whereKeyIn } from './key-columns.js';
import { statementOf, type Statement } from './statement.js';
import { singleJoin } from './single-join.js';
import { restrictRows } from './table-source.js';
import { targetJoinColumn } from './plain-binding.js';

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
  const column = singleJoin(rel).targetColumn;
  const qb = whereKeyIn(ctx, ctx.knex(target.table), target, undefined, keys).select(
    ...new Set([...target.keyColumns, column]),
  );
  restrictRows(ctx, qb, target, target.table);
  // Both as the wire has them: a join value is bound again (plainBinding) where it is written or compared.
  const joined = targetJoinColumn(ctx, rel);
  const decoded = (raw: unknown) => (joined && raw !== null ? ctx.dialect.decodeValue(joined, raw) : raw);
  return statementOf(
    qb,
    ({ rows }) => new Map(rows.map((r) => [String(keyOfRow(ctx, target, r)), decoded(r[column])])),
  );
}
