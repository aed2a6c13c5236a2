import type { RelationshipSchema } from '@colapi/schema';
import type { Knex } from 'knex';
import type { CompileContext } from './field-expression.js';
import { applySelection, type Selection } from './selection.js';
import { affectedOf, statementOf, type Statement } from './statement.js';

/** The join table of a many-to-many relationship; throws for any other. */
function through(rel: RelationshipSchema) {
  if (rel.join.kind !== 'through') throw new Error(`relationship ${rel.name} has no join table`);
  return rel.join.through;
}

/**
 * Join rows from the owner whose join value is `own` to targets with these join values. A row that is
 * there already (a concurrent request may add it) is left as it is, so appending stays idempotent.
 */
export function compileInsertJoinRows(
  ctx: CompileContext,
  rel: RelationshipSchema,
  own: unknown,
  values: readonly unknown[],
): Statement<number> {
  const t = through(rel);
  const insert = ctx
    .knex(t.table)
    .insert(values.map((v) => ({ [t.ownColumn]: own, [t.targetColumn]: v })))
    .onConflict([t.ownColumn, t.targetColumn])
    .merge([t.ownColumn]);
  return statementOf(insert, affectedOf);
}

/** Deletes the owner's join rows that `values` selects (by the target's join value). */
export function compileDeleteJoinRows(
  ctx: CompileContext,
  rel: RelationshipSchema,
  own: unknown,
  values: Selection,
): Statement<number> {
  const t = through(rel);
  const qb = ctx.knex(t.table).where(t.ownColumn, own as Knex.Value);
  applySelection(qb, t.targetColumn, values);
  return statementOf(qb.del(), affectedOf);
}

/** Which of these target join values the owner is joined to already, as text. */
export function compileJoinedValues(
  ctx: CompileContext,
  rel: RelationshipSchema,
  own: unknown,
  values: readonly unknown[],
): Statement<Set<string>> {
  const t = through(rel);
  const qb = ctx
    .knex(t.table)
    .where(t.ownColumn, own as Knex.Value)
    .whereIn(t.targetColumn, values as Knex.Value[])
    .select(t.targetColumn);
  return statementOf(qb, ({ rows }) => new Set(rows.map((r) => String(r[t.targetColumn]))));
}
