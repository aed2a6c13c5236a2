import { ownColumns, sqlColumn, type CollectionSchema, type ModelSchema, type TotalMode } from '@colapi/schema';
import type { Filter, ReadQuery } from '@colapi/query-ast';
import type { Knex } from 'knex';
import { applyScope, type Scope } from './compile-scope.js';
import { compileCount, compileEstimate, headQuery, readHead } from './compile-total.js';
import { comparableExpression, fieldColumn, type CompileContext } from './field-expression.js';
import { orderByKey } from './key-columns.js';
import { resourceRowDecoder, type ResourceRow } from './resource-row.js';
import { rowLinkage, type Relations } from './row-linkage.js';
import { shapesOf, type ShapeCaches } from './shape-cache.js';
import { selectColumns } from './select-columns.js';
import { mapStatement, statementOf, type Statement } from './statement.js';
import { isScoped, tableSource } from './table-source.js';
import { bindTraced, FilterValue, ScopeTrace, ScopeValue, type ScopeRef, type Slot } from './scope-trace.js';
import { filterCondition, filterText, type FilterMarks } from './filter-text.js';

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
 * (one statement tells all of it where the dialect folds the head, else the page and the head are two); the
 * caller runs them (runList) and reads the answer.
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
  marks?: FilterMarks,
) {
  if (scope) applyScope(ctx, qb, alias, scope);
  if (filter) qb.whereRaw('?', [filterCondition(ctx, model, alias, filter, marks)]);
}

/**
 * Values that stand in for a request's own while a shape is compiled, so that each binding of the statement
 * can be traced to the value it carries: large odd numbers no request sends in these places.
 */
const STAND_IN = { limit: 1_999_999_973, offset: 1_999_999_979, owner: 1_999_999_993 } as const;
/** The stand-ins in the order of a request's own values (`own` in compileList). */
const STAND_INS: readonly number[] = [STAND_IN.limit, STAND_IN.offset, STAND_IN.owner];

/** A list plan kept per shape, the scopes it was built under (none outside row scopes), and where each binding of each of its statements comes from. */
interface Kept {
  readonly refs: readonly ScopeRef[];
  /** The plan's statements, then its fallback when it has one. */
  readonly statements: readonly Statement<Partial<ListAnswer>>[];
  readonly slots: readonly (readonly Slot[])[];
  readonly fallback: boolean;
  readonly carried: ReadonlySet<string>;
}

const kept: ShapeCaches<Kept> = new WeakMap();
/** Plans under row scopes, by shape and the scopes' key (ScopeTrace). */
const keptScoped: ShapeCaches<Kept> = new WeakMap();
/**
 * Filtered reads' plans, by shape and the filter's text, apart from the others: clients vary filters far
 * more than sorts, and filters filling the bound first must not leave the plain pages compiled each time.
 */
const keptFiltered: ShapeCaches<Kept> = new WeakMap();
const keptScopedFiltered: ShapeCaches<Kept> = new WeakMap();
/** Shapes kept per collection (in each cache): sort, grouping, filters and the relationships shown are the client's choice. */
const SHAPES_PER_COLLECTION = 200;

/** What makes two requests compile to the same text: everything but the page's numbers and the owner's key. */
function shapeOf(request: ListRequest): string {
  const { query, scope, relations } = request;
  return JSON.stringify([
    query.sort,
    query.group,
    query.single,
    query.paging.limit !== undefined,
    query.paging.offset > 0,
    relations.shown.map((r) => r.name),
    [...relations.included],
    scope ? [scope.related.owner.name, scope.related.relation, typeof scope.ownerKey] : null,
    request.total ?? null,
  ]);
}

/**
 * A list read (see buildList for its statements), compiled once per shape, an estimated total's included:
 * with stand-ins for its page numbers and its owner's key, whose places among the bindings are noted, and
 * then bound again with each request's own. knex builds and compiles a statement for about as much CPU as
 * the rest of a small request. A filter's values may be rewritten on their way to a binding (a like
 * pattern), so a filtered read is kept per the text of its filter compiled alone (FilterText), and binds the
 * values that compile gives: it costs the filter's compile, not the statement's (a page of ten people with
 * one or two comparisons: 100-150 µs less server CPU per request). Under row scopes the plan is kept apart, per the scopes' key, with the scopes' values as
 * bindings too (ScopeTrace): never one kept from an unscoped read, nor serving one.
 */
export function compileList(ctx: CompileContext, request: ListRequest): ListPlan {
  const { query, scope } = request;
  const numericOwner = scope === undefined || typeof scope.ownerKey === 'number';
  const scopesKey = ctx.scopes?.key;
  if ((ctx.scopes && scopesKey === undefined) || !numericOwner) return buildList(ctx, request);
  const filter = query.filter && filterText(ctx, request.collection.model, query.filter);
  const caches = ctx.scopes ? (filter ? keptScopedFiltered : keptScoped) : filter ? keptFiltered : kept;
  const shapes = shapesOf(caches, ctx.dialect, request.collection);
  let shape = ctx.scopes ? `${shapeOf(request)}\u0000${scopesKey}` : shapeOf(request);
  if (filter) shape += `\u0001${filter.text}`;
  const own = [query.paging.limit, query.paging.offset, scope?.ownerKey, ...(filter?.values ?? [])];
  const entry = shapes.get(shape);
  const bound = entry && bindPlan(ctx, entry, own);
  if (bound) return bound;
  const standIn: ListRequest = {
    ...request,
    query: {
      ...query,
      paging: {
        offset: query.paging.offset > 0 ? STAND_IN.offset : 0,
        ...(query.paging.limit !== undefined ? { limit: STAND_IN.limit } : {}),
      },
    },
    ...(scope ? { scope: { ...scope, ownerKey: STAND_IN.owner } } : {}),
  };
  const trace = ctx.scopes ? new ScopeTrace() : undefined;
  const marks: FilterMarks | undefined = filter && { count: filter.values.length, untraceable: false };
  const plan = buildList(trace ? { ...ctx, trace } : ctx, standIn, marks);
  // Each binding is a scope's value, a stand-in, a filter's value or a constant of the shape (a table's name
  // in an estimate).
  const statements = plan.fallback ? [...plan.statements, plan.fallback] : plan.statements;
  const traced: Kept = {
    refs: trace?.refs ?? [],
    statements,
    fallback: plan.fallback !== undefined,
    slots: statements.map((statement) =>
      statement.bindings.map((b): Slot => {
        if (b instanceof ScopeValue) return { scope: b.ref, ordinal: b.ordinal };
        if (b instanceof FilterValue) return { own: STAND_INS.length + b.ordinal };
        const i = STAND_INS.indexOf(b as number);
        return i < 0 ? { constant: b } : { own: i };
      }),
    ),
    carried: plan.carried,
  };
  const keeps = !trace?.untraceable && !marks?.untraceable;
  if (keeps && (entry || shapes.size < SHAPES_PER_COLLECTION)) shapes.set(shape, traced);
  return bindPlan(ctx, traced, own)!;
}

/** A kept plan bound with this request's values, or undefined when its scopes are not this request's. */
function bindPlan(ctx: CompileContext, entry: Kept, own: readonly unknown[]): ListPlan | undefined {
  const statements: Statement<Partial<ListAnswer>>[] = [];
  for (let i = 0; i < entry.statements.length; i++) {
    const statement = bindTraced(
      ctx,
      { statement: entry.statements[i]!, refs: entry.refs, slots: entry.slots[i]! },
      own,
    );
    if (!statement) return undefined;
    statements.push(statement);
  }
  const fallback = entry.fallback ? statements.pop() : undefined;
  return { statements, ...(fallback ? { fallback } : {}), carried: entry.carried };
}

/**
 * A list read: its page, and a head that counts the matching rows and tells whether a related collection's
 * owner exists. Grouping keeps one row per distinct value: the one with the smallest key, so the answer is the
 * same on every dialect.
 *
 * Where the dialect `foldsHead` (PostgreSQL), it is one statement:
 *
 *     select h.*, <columns>, <key lists>
 *     from (select count(*), (owner exists) from … where …) as h        -- the head, when it tells anything
 *     left join (select <columns of t0> from … where … order by … limit … offset …) as t0 on 1 = 1
 *     order by …
 *
 * The head joins the page whether or not the page has rows, so an empty page still tells its total and its
 * owner. Elsewhere the head is a statement of its own, sent alongside the page.
 *
 * The page is a derived table whenever its rows carry key lists, so these are computed for the page's rows
 * only, past the first page and under any sort too (in one query level, PostgreSQL would compute them for the
 * rows an offset skips, and MariaDB and SQLite for every matching row before sorting). An outer `order by`
 * restates the order, which SQL does not promise a derived table keeps. Without a folded head and without key
 * lists the page is read as it is.
 */
function buildList(ctx: CompileContext, request: ListRequest, marks?: FilterMarks): ListPlan {
  const { knex, dialect } = ctx;
  const { collection, query, scope } = request;
  const model = collection.model;
  const linkage = rowLinkage(ctx, request.relations, true);
  const t0 = ctx.aliases.next();
  const page = tableSource(ctx, model, t0);
  let counted: Knex.QueryBuilder;
  if (query.group.length > 0) {
    if (model.keyColumns.length > 1)
      throw new Error(`${collection.name}: a key of several columns cannot be grouped (the formats refuse it)`);
    const g = ctx.aliases.next();
    const groups = tableSource(ctx, model, g).select(knex.raw('min(??) as ??', [`${g}.${model.key}`, 'k']));
    restrict(ctx, groups, model, g, query.filter, scope, marks);
    const exprs = query.group.map((f) => comparableExpression(ctx, model, g, f));
    groups.groupByRaw(exprs.map(() => '?').join(', '), exprs);
    page.whereIn(`${t0}.${model.key}`, groups.clone());
    counted = knex.from(groups.as('g'));
  } else {
    restrict(ctx, page, model, t0, query.filter, scope, marks);
    const c = ctx.aliases.next();
    counted = tableSource(ctx, model, c);
    restrict(ctx, counted, model, c, query.filter, scope, marks);
  }
  order(ctx, page, model, t0, query);
  if (query.single) page.limit(2);
  else {
    if (query.paging.limit !== undefined) page.limit(query.paging.limit);
    if (query.paging.offset > 0) page.offset(query.paging.offset);
  }

  const total = query.single ? 'none' : (request.total ?? collection.total);
  // An estimate is of the whole table: only for a read that restricts nothing (row scopes included: a
  // scoped read counts exactly).
  const estimate =
    total === 'estimated' && !query.filter && !scope && query.group.length === 0 && !isScoped(ctx, model)
      ? compileEstimate(ctx, model)
      : undefined;
  const counts = total !== 'none' && !estimate;
  const head = headQuery(ctx, counts ? counted : undefined, scope);
  const folded = head && dialect.foldsHead ? head : undefined;
  const keyLists = linkage.columns(t0);
  const columns = [selectColumns(ctx, model, t0), ...keyLists];
  let rows: Knex.QueryBuilder;
  if (folded) {
    rows = knex
      .from(folded.as('h'))
      .leftJoin(page.select(storedColumns(model, t0)).as(t0), knex.raw('1 = 1'))
      .select('h.*', ...columns);
    order(ctx, rows, model, t0, query);
  } else if (keyLists.length > 0) {
    rows = knex.from(page.select(storedColumns(model, t0)).as(t0)).select(columns);
    order(ctx, rows, model, t0, query);
  } else rows = page.select(columns);

  const decode = resourceRowDecoder(dialect, model, linkage);
  // A composite key's first column: never null in a row of the page (the id is made after decoding).
  const key = model.keyColumns[0]!;
  const read = statementOf(rows, (answer): Partial<ListAnswer> => {
    // The head's row stands alone, its page columns null, when the page is empty.
    const page = folded ? answer.rows.filter((r) => r[key] !== null && r[key] !== undefined) : answer.rows;
    return {
      rows: page.map(decode),
      ...(folded ? readHead(answer.rows[0], counts, scope !== undefined) : {}),
    };
  });
  const statements: Statement<Partial<ListAnswer>>[] = [read];
  if (head && !folded) statements.push(statementOf(head, ({ rows }) => readHead(rows[0], counts, scope !== undefined)));
  if (!estimate) return { statements, carried: linkage.carried };
  statements.push(mapStatement(estimate, (n) => (n === undefined ? {} : { total: n })));
  return { statements, fallback: compileCount(ctx, counted), carried: linkage.carried };
}

/**
 * The columns of the model's table that a derived page passes on, by name rather than `*`: the model's
 * columns and the relationships' join columns, which the outer query reads, sorts on and correlates key lists
 * with; nothing else of the table (a role may lack the privilege on other columns, and they may be wide).
 */
function storedColumns(model: ModelSchema, alias: string): string[] {
  const names = new Set([...model.columns.values()].map(sqlColumn));
  for (const rel of model.relationships.values()) for (const c of ownColumns(rel.join)) names.add(c);
  return [...names].map((c) => `${alias}.${c}`);
}

/** The request's order over the rows of `alias`, the key breaking ties last so pages never overlap or skip rows. */
function order(ctx: CompileContext, qb: Knex.QueryBuilder, model: ModelSchema, alias: string, query: ReadQuery): void {
  for (const key of query.sort) {
    // A field along a relationship is NULL where no row is related, whatever its column says.
    const nullable = key.field.relations.length > 0 || fieldColumn(ctx, model, key.field).nullable;
    const expr = comparableExpression(ctx, model, alias, key.field);
    qb.orderByRaw('?', [ctx.dialect.orderTerm(ctx.knex, expr, key.descending, nullable)]);
  }
  orderByKey(qb, model, alias);
}
