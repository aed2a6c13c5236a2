import type { ColumnSchema, ModelSchema, RelationshipSchema } from '@colapi/schema';
import type { Knex } from 'knex';
import { targetModel, type CompileContext } from './field-expression.js';

/**
 * A key or join value as bound where a statement compares a column with it, or sets the column to it,
 * directly (`where key in (…)`, `set fk = ?`): the wire value, or what the dialect's `plainValue` makes of it
 * (MySQL: a binary(16) UUID's bytes). Never SQL, so that a kept statement can be bound again.
 */
export function plainBinding(ctx: CompileContext, column: ColumnSchema | undefined, value: unknown): Knex.Value {
  const { dialect } = ctx;
  return (column && dialect.plainValue && value !== null ? dialect.plainValue(column, value) : value) as Knex.Value;
}

export function plainBindings(
  ctx: CompileContext,
  column: ColumnSchema | undefined,
  values: readonly unknown[],
): Knex.Value[] {
  if (!column || !ctx.dialect.plainValue) return values as Knex.Value[];
  return values.map((v) => plainBinding(ctx, column, v));
}

/** A key or join value the driver returned, as its wire text (the id a document shows). */
export function wireText(ctx: CompileContext, column: ColumnSchema | undefined, raw: unknown): string {
  return String(column ? ctx.dialect.decodeValue(column, raw) : raw);
}

/** A model's key column. */
export function keyColumn(model: ModelSchema): ColumnSchema | undefined {
  return model.columns.get(model.key);
}

/** The target's join column of a relationship (a key or foreign-key column keeps its name as its field). */
export function targetJoinColumn(ctx: CompileContext, rel: RelationshipSchema): ColumnSchema | undefined {
  // A composite join's values are ids of several columns, bound part by part where they are compared.
  if (rel.join.kind === 'composite') return undefined;
  return targetModel(ctx, rel).columns.get(rel.join.targetColumn);
}

/**
 * The owner's join column of a relationship: that of the model holding it. Both ends of a foreign key (and a
 * join table's column and the one it refers to) share a type, so it also tells how a join table's column binds.
 */
export function ownerJoinColumn(ctx: CompileContext, rel: RelationshipSchema): ColumnSchema | undefined {
  if (owners.has(rel)) return owners.get(rel);
  let found: ColumnSchema | undefined;
  for (const model of ctx.registry.models.values()) {
    if (model.relationships.get(rel.name) === rel && rel.join.kind !== 'composite')
      found = model.columns.get(rel.join.ownColumn);
  }
  owners.set(rel, found);
  return found;
}

/** ownerJoinColumn's answers: a relationship belongs to one model, and is asked about on every related read. */
const owners = new WeakMap<RelationshipSchema, ColumnSchema | undefined>();
