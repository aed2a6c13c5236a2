import type { RelationshipSchema } from '@colapi/schema';
import type { Knex } from 'knex';
import { targetModel, type CompileContext } from './field-expression.js';
import { applySelection, type Selection } from './selection.js';
import { affectedOf, statementOf, type Statement } from './statement.js';
import { singleJoin } from './single-join.js';
import { readableValues } from './table-source.js';
import { ownerJoinColumn, plainBinding, plainBindings, targetJoinColumn, wireText } from './plain-binding.js';

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
  const ownValue = plainBinding(ctx, ownerJoinColumn(ctx, rel), own);
  const targetValues = plainBindings(ctx, targetJoinColumn(ctx, rel), values);
  const insert = ctx
    .knex(t.table)
    .insert(targetValues.map((v) => ({ [t.ownColumn]: ownValue, [t.targetColumn]: v })))
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
  const qb = ctx.knex(t.table).where(t.ownColumn, plainBinding(ctx, ownerJoinColumn(ctx, rel), own));
  applySelection(qb, t.targetColumn, values, (v) => plainBindings(ctx, targetJoinColumn(ctx, rel), v));
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
    .where(t.ownColumn, plainBinding(ctx, ownerJoinColumn(ctx, rel), own))
    .whereIn(t.targetColumn, plainBindings(ctx, targetJoinColumn(ctx, rel), values))
    .select(t.targetColumn);
  readableTargets(ctx, rel, qb);
  const joined = targetJoinColumn(ctx, rel);
  return statementOf(qb, ({ rows }) => new Set(rows.map((r) => wireText(ctx, joined, r[t.targetColumn]))));
}

/** Under row scopes on the target: keeps the join rows of `qb` to targets the caller may read. */
function readableTargets(ctx: CompileContext, rel: RelationshipSchema, qb: Knex.QueryBuilder): void {
  const t = through(rel);
  const readable = readableValues(ctx, targetModel(ctx, rel), singleJoin(rel).targetColumn);
  if (readable) qb.whereIn(`${t.table}.${t.targetColumn}`, readable);
}
