import type { CollectionSchema, ModelSchema, TotalMode } from '@colapi/schema';
import type { Filter, ReadQuery } from '@colapi/query-ast';
import type { Knex } from 'knex';
import { compileFilter } from './compile-filter.js';
import { compileOwner } from './compile-owner.js';
import { applyScope, type Scope } from './compile-scope.js';
import { compileCount, compileEstimate } from './compile-total.js';
import { comparableExpression, type CompileContext } from './field-expression.js';
import { resourceRowDecoder, type ResourceRow } from './resource-row.js';
import { rowLinkage, type Relations } from './row-linkage.js';
import { selectColumns } from './select-columns.js';
import { mapStatement, statementOf, type Statement } from './statement.js';

/** A read of a collection: its rows, what it shows of their relationships, where it starts, how it counts. */
export interface ListRequest {
  readonly collection: CollectionSchema;
  readonly query: ReadQuery;
  readonly relations: Relations;
  readonly scope?: Scope;
  /** How `total` is told: default the collection's choice; a `single` query tells none. */
  readonly total?: TotalMode;
}

/** What a list read answers, whichever of the plan's statements told each part. */
export interface ListAnswer {
  /** The page, in order. */
  readonly rows: readonly ResourceRow[];
  /** How many rows match without paging; undefined when none is told. */
  readonly total?: number;
  /** With a scope: whether its owner exists. */
  readonly ownerExists?: boolean;
}

/**
 * The statements of a list read. Which statement tells which part of the answer is the compiler's choice
 * (the total and the owner's existence share one statement today); the caller runs them (runList) and reads
 * the answer.
 */
export interface ListPlan {
  /** Independent statements, run at once. */
  readonly statements: readonly Statement<Partial<ListAnswer>>[];
  /** Run after them when they left the total untold (a planner that has no estimate of the table). */
  readonly fallback?: Statement<Partial<ListAnswer>>;
  /** The relationships whose linkage every row carries. */
  readonly carried: ReadonlySet<string>;
}

function restrict(
  ctx: CompileContext,
  qb: Knex.QueryBuilder,
  model: ModelSchema,
  alias: string,
  filter?: Filter,
  scope?: Scope,
) {
  if (scope) applyScope(ctx, qb, alias, scope);
  if (filter) qb.whereRaw('?', [compileFilter(ctx, model, alias, filter)]);
}

/**
 * A list read. Grouping keeps one row per distinct value: the one with the smallest key, so the answer is
 * the same on every dialect. The rows carry linkage where they are read in key order from the first
 * (rowLinkage says why).
 */
export function compileList(ctx: CompileContext, request: ListRequest): ListPlan {
  const { knex, dialect } = ctx;
  const { collection, query, scope } = request;
  const model = collection.model;
  const linkage = rowLinkage(
    ctx,
    request.relations,
    query.single || (query.paging.offset === 0 && query.sort.length === 0),
  );
  const t0 = ctx.aliases.next();
  const rows = knex.from({ [t0]: model.table }).select(selectColumns(ctx, model, t0), ...linkage.columns(t0));
  let counted: Knex.QueryBuilder;
  if (query.group.length > 0) {
    const g = ctx.aliases.next();
    const groups = knex.from({ [g]: model.table }).select(knex.raw('min(??) as ??', [`${g}.${model.key}`, 'k']));
    restrict(ctx, groups, model, g, query.filter, scope);
    const exprs = query.group.map((f) => comparableExpression(ctx, model, g, f));
    groups.groupByRaw(exprs.map(() => '?').join(', '), exprs);
    rows.whereIn(`${t0}.${model.key}`, groups.clone());
    counted = knex.from(groups.as('g'));
  } else {
    restrict(ctx, rows, model, t0, query.filter, scope);
    const c = ctx.aliases.next();
    counted = knex.from({ [c]: model.table });
    restrict(ctx, counted, model, c, query.filter, scope);
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
  const decode = resourceRowDecoder(dialect, model, linkage);
  const statements: Statement<Partial<ListAnswer>>[] = [
    statementOf(rows, (answer) => ({ rows: answer.rows.map(decode) })),
  ];
  const total = query.single ? 'none' : (request.total ?? collection.total);
  let fallback: Statement<Partial<ListAnswer>> | undefined;
  // An estimate is of the whole table: only for a read that restricts nothing.
  const estimate =
    total === 'estimated' && !query.filter && !scope && query.group.length === 0
      ? compileEstimate(ctx, model)
      : undefined;
  if (estimate) {
    statements.push(mapStatement(estimate, (n) => (n === undefined ? {} : { total: n })));
    fallback = compileCount(ctx, counted);
  } else if (total !== 'none') {
    // The owner's existence rides in the count.
    statements.push(compileCount(ctx, counted, scope));
  }
  if (scope && total === 'none')
    statements.push(mapStatement(compileOwner(ctx, scope), (ownerExists) => ({ ownerExists })));
  return { statements, ...(fallback ? { fallback } : {}), carried: linkage.carried };
}
