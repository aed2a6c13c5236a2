import type { RelationshipSchema } from '@colapi/schema';
import { targetModel, type CompileContext } from './field-expression.js';
import { whereKeyIn, whereKeySelection } from './key-columns.js';
import type { Selection } from './selection.js';
import { affectedOf, statementOf, type Statement } from './statement.js';
import { restrictRows } from './table-source.js';
import { plainBinding, targetJoinColumn } from './plain-binding.js';

/** A relationship whose foreign key is on the target (`has`); throws for any other. */
function hasJoin(rel: RelationshipSchema) {
  if (rel.join.kind !== 'has') throw new Error(`relationship ${rel.name} does not keep its foreign key on the target`);
  return rel.join;
}

/**
 * Points the targets with these keys at the owner whose join value is `own`: `update target set fk = own`;
 * under row scopes only targets within the target's update scope (the rows this writes).
 */
export function compileSetForeignKeys(
  ctx: CompileContext,
  rel: RelationshipSchema,
  own: unknown,
  keys: readonly unknown[],
): Statement<number> {
  const target = targetModel(ctx, rel);
  const fk = hasJoin(rel).targetColumn;
  const qb = whereKeyIn(ctx, ctx.knex(target.table), target, undefined, keys);
  restrictRows(ctx, qb, target, target.table, 'update');
  return statementOf(qb.update({ [fk]: plainBinding(ctx, targetJoinColumn(ctx, rel), own) }), affectedOf);
}

/**
 * Unsets the foreign key of the owner's targets that `keys` selects (by target key): `update target set fk =
 * null`; under row scopes only targets within the target's update scope: the others do not exist for the
 * caller, and stay as they are (a replace replaces what the caller sees).
 */
export function compileClearForeignKeys(
  ctx: CompileContext,
  rel: RelationshipSchema,
  own: unknown,
  keys: Selection,
): Statement<number> {
  const target = targetModel(ctx, rel);
  const fk = hasJoin(rel).targetColumn;
  const qb = ctx.knex(target.table).where(fk, plainBinding(ctx, targetJoinColumn(ctx, rel), own));
  whereKeySelection(ctx, qb, target, undefined, keys);
  restrictRows(ctx, qb, target, target.table, 'update');
  return statementOf(qb.update({ [fk]: null }), affectedOf);
}

/**
 * Whether any target still refers to the owner whose join value is `own` (a delete is then refused).
 * Deliberately not restricted by row scopes: it guards the integrity of rows the caller may not see (a
 * hidden row referring to the owner must keep the owner alive, as the database's foreign key would), and
 * tells the caller no more than that foreign key's refusal would.
 */
export function compileReferencing(ctx: CompileContext, rel: RelationshipSchema, own: unknown): Statement<boolean> {
  const target = targetModel(ctx, rel);
  const qb = ctx
    .knex(target.table)
    .where(hasJoin(rel).targetColumn, plainBinding(ctx, targetJoinColumn(ctx, rel), own))
    .first(target.keyColumns[0]!);
  return statementOf(qb, ({ rows }) => rows.length > 0);
}
