import type { ModelSchema, RelationshipSchema } from '@colapi/schema';
import type { Knex } from 'knex';
import { targetModel, type CompileContext } from './field-expression.js';
import { affectedOf, statementOf, type Statement } from './statement.js';

/** The resource whose relationship changes: its model, its key, and its own join value for the relationship. */
export interface LinkOwner {
  readonly model: ModelSchema;
  readonly key: unknown;
  readonly own: unknown;
}

/** The related resource taken out: its key, and its join value for the relationship. */
export interface LinkTarget {
  readonly key: unknown;
  readonly value: unknown;
}

/**
 * Takes one target out of one owner's relationship, only if it is in it now: one conditional statement,
 * whose count of changed rows (0 or 1) says whether the target was related. The join values must not be
 * null (nothing is related through a null).
 */
export function compileUnlink(
  ctx: CompileContext,
  owner: LinkOwner,
  rel: RelationshipSchema,
  target: LinkTarget,
): Statement<number> {
  const { knex } = ctx;
  const join = rel.join;
  let qb: Knex.QueryBuilder;
  if (join.kind === 'belongs-to') {
    qb = knex(owner.model.table)
      .where(owner.model.key, owner.key as Knex.Value)
      .where(join.ownColumn, target.value as Knex.Value)
      .update({ [join.ownColumn]: null });
  } else if (join.kind === 'has') {
    const model = targetModel(ctx, rel);
    qb = knex(model.table)
      .where(model.key, target.key as Knex.Value)
      .where(join.targetColumn, owner.own as Knex.Value)
      .update({ [join.targetColumn]: null });
  } else {
    qb = knex(join.through.table)
      .where(join.through.ownColumn, owner.own as Knex.Value)
      .where(join.through.targetColumn, target.value as Knex.Value)
      .del();
  }
  return statementOf(qb, affectedOf);
}
