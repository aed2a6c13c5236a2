import { sqlColumn, type CollectionSchema, type ModelSchema, type RelationshipSchema } from '@colapi/schema';
import { Aliases } from './aliases.js';
import type { Filter, ReadQuery } from '@colapi/query-ast';
import type { Knex } from 'knex';
import { compileFilter } from './compile-filter.js';
import { compiledFragment } from './compiled-fragment.js';
import { comparableExpression, correlatedTarget, targetModel, type CompileContext } from './field-expression.js';
import { keyBinding } from './key-binding.js';

/** Restricts the rows of `alias` to those related to one owner row: `/person/1/articles`. */
export interface ScopeSql {
  readonly owner: ModelSchema;
  readonly ownerKey: unknown;
  readonly relationship: RelationshipSchema;
}

export interface ListSql {
  /** The page of rows, in order. */
  readonly rows: Knex.QueryBuilder;
  /** One row `{total}`: how many rows match without paging. */
  readonly count: Knex.QueryBuilder;
}

/**
 * Column list of a model in its read form, each aliased to its own (API) name; columns of the table `alias`, or
 * unqualified when `alias` is empty (a RETURNING list). Compiled once per dialect, model and alias.
 */
export function selectColumns(ctx: CompileContext, model: ModelSchema, alias: string): Knex.Raw[] {
  const { knex, dialect } = ctx;
  const list = compiledFragment(knex, dialect, model, `columns ${alias}`, () => {
    const columns = [...model.columns.values()].map((c) =>
      knex.raw('? as ??', [dialect.readColumn(knex, alias ? `${alias}.${sqlColumn(c)}` : sqlColumn(c), c), c.name]),
    );
    return knex.raw(columns.map(() => '?').join(', '), columns);
  });
  return [list];
}

/** The column of a row that carries the linkage of one of its relationships (`links` of the compile functions). */
export function linkColumn(relationship: string): string {
  return `__colapi_link_${relationship}`;
}

/** The linkage column of one relationship for rows of `alias`, compiled once per dialect, target and alias. */
function linkSelect(ctx: CompileContext, rel: RelationshipSchema, alias: string): Knex.Raw {
  const { knex, dialect } = ctx;
  const target = targetModel(ctx, rel);
  return compiledFragment(knex, dialect, rel, `link ${alias} ${target.table}.${target.key}`, () => {
    // Aliases of their own (t0l0, …): the same text fits any query in which `alias` names the owner rows.
    const { qb: from, alias: t } = correlatedTarget({ ...ctx, aliases: new Aliases(`${alias}l`) }, rel, alias);
    return knex.raw('? as ??', [dialect.keyList!(knex, from, `${t}.${target.key}`), linkColumn(rel.name)]);
  });
}

/**
 * Adds, per relationship, a column holding the keys of the related rows (the dialect's keyList): the
 * linkage comes with the rows instead of costing a query (and a round trip) per relationship.
 */
function selectLinks(ctx: CompileContext, qb: Knex.QueryBuilder, alias: string, links: readonly RelationshipSchema[]): void {
  for (const rel of links) qb.select(linkSelect(ctx, rel, alias));
}

function applyScope(ctx: CompileContext, qb: Knex.QueryBuilder, alias: string, scope: ScopeSql): void {
  const { knex } = ctx;
  const join = scope.relationship.join;
  // Joined on the owner's key (the usual case): the key itself is the join value, no subquery on the owner.
  if (join.ownColumn === scope.owner.key) {
    if (join.kind !== 'through') {
      qb.where(`${alias}.${join.targetColumn}`, keyBinding(ctx, scope.owner, scope.ownerKey));
      return;
    }
    const j = ctx.aliases.next();
    const sub = knex.from({ [j]: join.through.table }).where(`${j}.${join.through.ownColumn}`, keyBinding(ctx, scope.owner, scope.ownerKey));
    qb.whereIn(`${alias}.${join.targetColumn}`, sub.select(`${j}.${join.through.targetColumn}`));
    return;
  }
  const o = ctx.aliases.next();
  const owner = knex.from({ [o]: scope.owner.table }).where(`${o}.${scope.owner.key}`, keyBinding(ctx, scope.owner, scope.ownerKey));
  if (join.kind === 'through') {
    const j = ctx.aliases.next();
    const sub = knex
      .from({ [j]: join.through.table })
      .join({ [o]: scope.owner.table }, `${o}.${join.ownColumn}`, `${j}.${join.through.ownColumn}`)
      .where(`${o}.${scope.owner.key}`, scope.ownerKey as Knex.Value)
      .select(`${j}.${join.through.targetColumn}`);
    qb.whereIn(`${alias}.${join.targetColumn}`, sub);
  } else {
    qb.whereIn(`${alias}.${join.targetColumn}`, owner.select(`${o}.${join.ownColumn}`));
  }
}

function restrict(ctx: CompileContext, qb: Knex.QueryBuilder, model: ModelSchema, alias: string, filter?: Filter, scope?: ScopeSql) {
  if (scope) applyScope(ctx, qb, alias, scope);
  if (filter) qb.whereRaw('?', [compileFilter(ctx, model, alias, filter)]);
}

/**
 * The rows and the total of a list read. Grouping keeps one row per distinct value: the one with the
 * smallest key, so the answer is the same on every dialect. `links` as in compileByKeys, but only where
 * the database reads just the rows of the page: in key order from the first row. Past the first page
 * PostgreSQL computes the select list of the rows an offset skips too, and with a sort MariaDB and SQLite
 * compute it for every matching row before sorting; a page that selected its keys first would cost more to
 * plan than the linkage queries cost to run. Those rows come without linkage, which then takes a query per
 * relationship.
 */
export function compileList(
  ctx: CompileContext,
  collection: CollectionSchema,
  query: ReadQuery,
  scope?: ScopeSql,
  links: readonly RelationshipSchema[] = [],
): ListSql {
  const { knex, dialect } = ctx;
  const model = collection.model;
  const t0 = ctx.aliases.next();
  const rows = knex.from({ [t0]: model.table }).select(selectColumns(ctx, model, t0));
  if (query.single || (query.paging.offset === 0 && query.sort.length === 0)) selectLinks(ctx, rows, t0, links);
  let count: Knex.QueryBuilder;
  if (query.group.length > 0) {
    const g = ctx.aliases.next();
    const groups = knex.from({ [g]: model.table }).select(knex.raw('min(??) as ??', [`${g}.${model.key}`, 'k']));
    restrict(ctx, groups, model, g, query.filter, scope);
    const exprs = query.group.map((f) => comparableExpression(ctx, model, g, f));
    groups.groupByRaw(exprs.map(() => '?').join(', '), exprs);
    rows.whereIn(`${t0}.${model.key}`, groups.clone());
    count = knex.from(groups.as('g')).count({ total: '*' });
  } else {
    restrict(ctx, rows, model, t0, query.filter, scope);
    const c = ctx.aliases.next();
    count = knex.from({ [c]: model.table }).count({ total: '*' });
    restrict(ctx, count, model, c, query.filter, scope);
  }
  for (const key of query.sort) {
    rows.orderByRaw('?', [dialect.orderTerm(knex, comparableExpression(ctx, model, t0, key.field), key.descending)]);
  }
  // The key breaks ties last, so pages never overlap or skip rows.
  rows.orderBy(`${t0}.${model.key}`, 'asc');
  if (query.single) rows.limit(2);
  else {
    if (query.paging.limit !== undefined) rows.limit(query.paging.limit);
    if (query.paging.offset > 0) rows.offset(query.paging.offset);
  }
  return { rows, count };
}

/** Rows of a model by key, in key order. */
export function compileByKeys(
  ctx: CompileContext,
  model: ModelSchema,
  keys: readonly unknown[],
  scope?: ScopeSql,
  links: readonly RelationshipSchema[] = [],
): Knex.QueryBuilder {
  const t = ctx.aliases.next();
  const qb = ctx.knex.from({ [t]: model.table }).select(selectColumns(ctx, model, t)).whereIn(`${t}.${model.key}`, keys.map((k) => keyBinding(ctx, model, k)));
  selectLinks(ctx, qb, t, links);
  if (scope) applyScope(ctx, qb, t, scope);
  return qb.orderBy(`${t}.${model.key}`, 'asc');
}

export const OWNER_COLUMN = '__colapi_owner';

/**
 * The targets of a relationship for many owners at once, each row tagged with the owner's join value in
 * `__colapi_owner`: one query per relationship, whatever the number of owners. With `full` false only the
 * target keys are read (linkage); with `full` true, `links` adds the linkage of the targets' relationships.
 */
export function compileRelated(
  ctx: CompileContext,
  rel: RelationshipSchema,
  ownerValues: readonly unknown[],
  full: boolean,
  links: readonly RelationshipSchema[] = [],
): Knex.QueryBuilder {
  const { knex } = ctx;
  const target = targetModel(ctx, rel);
  const t = ctx.aliases.next();
  const join = rel.join;
  const columns = full
    ? selectColumns(ctx, target, t)
    : [knex.raw('? as ??', [ctx.dialect.readColumn(knex, `${t}.${target.key}`, target.columns.get(target.key)!), target.key])];
  const qb = knex.from({ [t]: target.table });
  if (join.kind === 'through') {
    const j = ctx.aliases.next();
    qb.join({ [j]: join.through.table }, `${j}.${join.through.targetColumn}`, `${t}.${join.targetColumn}`)
      .select(knex.raw('?? as ??', [`${j}.${join.through.ownColumn}`, OWNER_COLUMN]), ...columns)
      .whereIn(`${j}.${join.through.ownColumn}`, ownerValues as Knex.Value[]);
  } else {
    qb.select(knex.raw('?? as ??', [`${t}.${join.targetColumn}`, OWNER_COLUMN]), ...columns).whereIn(
      `${t}.${join.targetColumn}`,
      ownerValues as Knex.Value[],
    );
  }
  if (full) selectLinks(ctx, qb, t, links);
  return qb.orderBy(`${t}.${target.key}`, 'asc');
}
