import type { ModelSchema, RelationshipSchema } from '@colapi/schema';
import type { Knex } from 'knex';
import { targetModel, type CompileContext } from './field-expression.js';
import { affectedOf, statementOf, type Statement } from './statement.js';
import { whereKey } from './key-columns.js';
import { singleJoin } from './single-join.js';
import { readableValues, restrictRows } from './table-source.js';
import { keyColumn, plainBinding } from './plain-binding.js';

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
 *
 * Under row scopes a target the caller cannot read is related to nothing (the count is 0), and the row the
 * statement updates must lie within its model's update scope: the owner's for a belongs-to (its foreign key
 * changes), the target's for a `has`. A join table's row has no scope of its own.
 */
export function compileUnlink(
  ctx: CompileContext,
  owner: LinkOwner,
  rel: RelationshipSchema,
  target: LinkTarget,
): Statement<number> {
  const { knex } = ctx;
  const join = singleJoin(rel);
  let qb: Knex.QueryBuilder;
  const model = targetModel(ctx, rel);
  if (join.kind === 'belongs-to') {
    qb = byKey(ctx, knex(owner.model.table), owner.model, owner.key).where(
      join.ownColumn,
      plainBinding(ctx, owner.model.columns.get(join.ownColumn), target.value),
    );
    restrictRows(ctx, qb, owner.model, owner.model.table, 'update');
    const readable = readableValues(ctx, model, join.targetColumn);
    if (readable) qb.whereIn(`${owner.model.table}.${join.ownColumn}`, readable);
    qb.update({ [join.ownColumn]: null });
  } else if (join.kind === 'has') {
    qb = byKey(ctx, knex(model.table), model, target.key).where(
      join.targetColumn,
      plainBinding(ctx, model.columns.get(join.targetColumn), owner.own),
    );
    restrictRows(ctx, qb, model, model.table, 'update');
    qb.update({ [join.targetColumn]: null });
  } else {
    qb = knex(join.through.table)
      .where(join.through.ownColumn, plainBinding(ctx, owner.model.columns.get(join.ownColumn), owner.own))
      .where(join.through.targetColumn, plainBinding(ctx, model.columns.get(join.targetColumn), target.value));
    const readable = readableValues(ctx, model, join.targetColumn);
    if (readable) qb.whereIn(`${join.through.table}.${join.through.targetColumn}`, readable);
    qb.del();
  }
  return statementOf(qb, affectedOf);
}

/** The row with this key: a one-column key bound as plainBinding binds it, a composite one by its parts. */
function byKey(ctx: CompileContext, qb: Knex.QueryBuilder, model: ModelSchema, key: unknown): Knex.QueryBuilder {
  return model.keyColumns.length === 1
    ? qb.where(model.key, plainBinding(ctx, keyColumn(model), key))
    : whereKey(ctx, qb, model, undefined, key);
}
