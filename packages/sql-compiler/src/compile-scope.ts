import type { ModelSchema, RelationshipSchema } from '@colapi/schema';
import type { KeyValue, RelatedScope } from '@colapi/query-ast';
import type { Knex } from 'knex';
import type { CompileContext } from './field-expression.js';
import { keyBinding } from './key-binding.js';
import { whereKey } from './key-columns.js';
import { isScoped, restrictRows, tableSource } from './table-source.js';

/** The rows related to one owner row, `/person/1/articles`: the route's scope, with the owner's id read as a key. */
export interface Scope {
  readonly related: RelatedScope;
  readonly ownerKey: KeyValue;
}

interface Owner {
  readonly model: ModelSchema;
  readonly key: KeyValue;
  readonly relationship: RelationshipSchema;
}

function ownerOf(scope: Scope): Owner {
  const model = scope.related.owner.model;
  const relationship = model.relationships.get(scope.related.relation);
  if (!relationship) throw new Error(`model ${model.name} has no relationship ${scope.related.relation}`);
  return { model, key: scope.ownerKey, relationship };
}

/**
 * Restricts the rows of `alias` to those related to the scope's owner. Under row scopes the owner must be
 * one the caller may read: its table is then always read, within its scope.
 */
export function applyScope(ctx: CompileContext, qb: Knex.QueryBuilder, alias: string, scope: Scope): void {
  const { knex } = ctx;
  const { model, key, relationship } = ownerOf(scope);
  const join = relationship.join;
  if (join.kind === 'composite') {
    // A foreign key of several columns: the rows whose columns pair with the owner row's, `exists (…)`.
    const o = ctx.aliases.next();
    const owner = whereKey(ctx, tableSource(ctx, model, o), model, o, key);
    join.targetColumns.forEach((c, i) => {
      owner.whereRaw('?? = ??', [`${o}.${join.ownColumns[i]}`, `${alias}.${c}`]);
    });
    qb.whereExists(owner.select(knex.raw('1')));
    return;
  }
  // Joined on the owner's key (the usual case): the key itself is the join value, no subquery on the owner.
  if (join.ownColumn === model.key && !isScoped(ctx, model)) {
    if (join.kind !== 'through') {
      qb.where(`${alias}.${join.targetColumn}`, keyBinding(ctx, model, key));
      return;
    }
    const j = ctx.aliases.next();
    const sub = knex
      .from({ [j]: join.through.table })
      .where(`${j}.${join.through.ownColumn}`, keyBinding(ctx, model, key));
    qb.whereIn(`${alias}.${join.targetColumn}`, sub.select(`${j}.${join.through.targetColumn}`));
    return;
  }
  const o = ctx.aliases.next();
  if (join.kind === 'through') {
    const j = ctx.aliases.next();
    const sub = whereKey(
      ctx,
      knex
        .from({ [j]: join.through.table })
        .join({ [o]: model.table }, `${o}.${join.ownColumn}`, `${j}.${join.through.ownColumn}`),
      model,
      o,
      key,
    ).select(`${j}.${join.through.targetColumn}`);
    restrictRows(ctx, sub, model, o);
    qb.whereIn(`${alias}.${join.targetColumn}`, sub);
  } else {
    const owner = whereKey(ctx, tableSource(ctx, model, o), model, o, key);
    qb.whereIn(`${alias}.${join.targetColumn}`, owner.select(`${o}.${join.ownColumn}`));
  }
}

/** `select 1` from the scope's owner row: one row when it exists (for the caller), none otherwise. */
export function ownerQuery(ctx: CompileContext, scope: Scope): Knex.QueryBuilder {
  const { model, key } = ownerOf(scope);
  const o = ctx.aliases.next();
  return whereKey(ctx, tableSource(ctx, model, o).select(ctx.knex.raw('1 as ??', ['found'])), model, o, key);
}
