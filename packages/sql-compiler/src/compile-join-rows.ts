import type { RelationshipSchema } from '@colapi/schema';
import type { Knex } from 'knex';
import { targetModel, type CompileContext } from './field-expression.js';
import { applySelection, type Selection } from './selection.js';
import { affectedOf, statementOf, type Statement } from './statement.js';
import { singleJoin } from './single-join.js';
import { readableValues } from './table-source.js';

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

/**
 * Deletes the owner's join rows that `values` selects (by the target's join value). Under row scopes `only`
 * and `except` select among the join rows to targets the caller may read (the others do not exist for it:
 * a replace keeps them); `'all'` is every join row of the owner, hidden targets' too, as when the owner goes.
 */
export function compileDeleteJoinRows(
  ctx: CompileContext,
  rel: RelationshipSchema,
  own: unknown,
  values: Selection,
): Statement<number> {
  const t = through(rel);
  const qb = ctx.knex(t.table).where(t.ownColumn, own as Knex.Value);
  applySelection(qb, t.targetColumn, values);
  if (values !== 'all') readableTargets(ctx, rel, qb);
  return statementOf(qb.del(), affectedOf);
}

/** Which of these target join values the owner is joined to already (to targets the caller may read), as text. */
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
  readableTargets(ctx, rel, qb);
  return statementOf(qb, ({ rows }) => new Set(rows.map((r) => String(r[t.targetColumn]))));
}

/** Under row scopes on the target: keeps the join rows of `qb` to targets the caller may read. */
function readableTargets(ctx: CompileContext, rel: RelationshipSchema, qb: Knex.QueryBuilder): void {
  const t = through(rel);
  const readable = readableValues(ctx, targetModel(ctx, rel), singleJoin(rel).targetColumn);
  if (readable) qb.whereIn(`${t.table}.${t.targetColumn}`, readable);
}
