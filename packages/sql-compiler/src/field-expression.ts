import { sqlColumn, type ColumnSchema, type ModelSchema, type Registry, type RelationshipSchema } from '@colapi/schema';
import type { FieldRef } from '@colapi/query-ast';
import type { Knex } from 'knex';
import type { Aliases } from './aliases.js';
import type { Dialect } from './dialect.js';
import type { RowScopes } from './row-scopes.js';
import type { ScopeTrace } from './scope-trace.js';
import { tableSource } from './table-source.js';

export interface CompileContext {
  readonly knex: Knex;
  readonly dialect: Dialect;
  readonly registry: Registry;
  readonly aliases: Aliases;
  /** The caller's row scopes (SqlCompiler.scoped): every table source is restricted to them; none, every row. */
  readonly scopes?: RowScopes;
  /** Present while a statement under scopes is built to be kept: see ScopeTrace. */
  readonly trace?: ScopeTrace;
}

/** The target model of a relationship. */
export function targetModel(ctx: CompileContext, rel: RelationshipSchema): ModelSchema {
  const model = ctx.registry.models.get(rel.target);
  if (!model) throw new Error(`relationship ${rel.name} targets unregistered model ${rel.target}`);
  return model;
}

/**
 * A query over the target of `rel` correlated to the owner row `ownerAlias`: the rows related to it (within
 * the target's scope). Returns the builder and the alias of the target table in it.
 */
export function correlatedTarget(
  ctx: CompileContext,
  rel: RelationshipSchema,
  ownerAlias: string,
): { qb: Knex.QueryBuilder; alias: string } {
  const target = targetModel(ctx, rel);
  const alias = ctx.aliases.next();
  const join = rel.join;
  const qb = tableSource(ctx, target, alias);
  if (join.kind === 'through') {
    const j = ctx.aliases.next();
    qb.join({ [j]: join.through.table }, `${j}.${join.through.targetColumn}`, `${alias}.${join.targetColumn}`);
    qb.whereRaw('?? = ??', [`${j}.${join.through.ownColumn}`, `${ownerAlias}.${join.ownColumn}`]);
  } else if (join.kind === 'composite') {
    join.targetColumns.forEach((c, i) => {
      qb.whereRaw('?? = ??', [`${alias}.${c}`, `${ownerAlias}.${join.ownColumns[i]}`]);
    });
  } else {
    qb.whereRaw('?? = ??', [`${alias}.${join.targetColumn}`, `${ownerAlias}.${join.ownColumn}`]);
  }
  return { qb, alias };
}

/** The SQL expression of a field: a column of the row, or a scalar subquery along to-one relationships. */
export function fieldExpression(ctx: CompileContext, model: ModelSchema, alias: string, field: FieldRef): Knex.Raw {
  if (field.relations.length === 0) {
    const column = model.columns.get(field.column);
    if (!column) throw new Error(`model ${model.name} has no column ${field.column}`);
    return ctx.dialect.readColumn(ctx.knex, `${alias}.${sqlColumn(column)}`, column);
  }
  const [first, ...rest] = field.relations;
  const rel = model.relationships.get(first!);
  if (!rel) throw new Error(`model ${model.name} has no relationship ${first}`);
  const { qb, alias: inner } = correlatedTarget(ctx, rel, alias);
  const value = fieldExpression(ctx, targetModel(ctx, rel), inner, { relations: rest, column: field.column });
  // knex puts the subquery in parentheses itself.
  return ctx.knex.raw('?', [qb.select(value).limit(1)]);
}

/** The column a field reference ends at. */
export function fieldColumn(ctx: CompileContext, model: ModelSchema, field: FieldRef): ColumnSchema {
  let current = model;
  for (const name of field.relations) {
    const rel = current.relationships.get(name);
    if (!rel) throw new Error(`model ${current.name} has no relationship ${name}`);
    current = targetModel(ctx, rel);
  }
  const column = current.columns.get(field.column);
  if (!column) throw new Error(`model ${current.name} has no column ${field.column}`);
  return column;
}

/** The expression of a field as comparisons, sorting and grouping use it: text is compared exactly. */
export function comparableExpression(
  ctx: CompileContext,
  model: ModelSchema,
  alias: string,
  field: FieldRef,
): Knex.Raw {
  const expr = fieldExpression(ctx, model, alias, field);
  const { dialect, knex } = ctx;
  return fieldColumn(ctx, model, field).type === 'string' && dialect.exactText ? dialect.exactText(knex, expr) : expr;
}
