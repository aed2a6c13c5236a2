import type { ModelSchema } from '@colapi/schema';
import type { Knex } from 'knex';
import { compileFilter } from './compile-filter.js';
import type { CompileContext } from './field-expression.js';
import { rowScope, unscoped, type RowAction } from './row-scopes.js';
import { placeholders, scopeText, ScopeValue } from './scope-trace.js';

/**
 * The one place where a statement meets the rows of a model's table: `from <table> as <alias>`, restricted
 * to the rows the context's scope lets the caller `action` (RowScopes). Every FROM of a model's table goes
 * through here, and every other mention of one (a joined table, an UPDATE's or DELETE's own table) through
 * restrictRows. A join table is no model and has no scope of its own: the rows it leads to have theirs.
 * Outside a scoped compiler this is exactly `knex.from({ [alias]: table })`.
 */
export function tableSource(
  ctx: CompileContext,
  model: ModelSchema,
  alias: string,
  action: RowAction = 'read',
): Knex.QueryBuilder {
  const qb = ctx.knex.from({ [alias]: model.table });
  restrictRows(ctx, qb, model, alias, action);
  return qb;
}

/**
 * Restricts the rows of `model` that `qb` names `alias` (its FROM, an inner join, or the table of an UPDATE or
 * DELETE, then named by the table itself) to the context's scope of `action`. The scope's own filter is
 * compiled without scopes (RowScopes says why); it may add subqueries, whose aliases the context hands out.
 */
export function restrictRows(
  ctx: CompileContext,
  qb: Knex.QueryBuilder,
  model: ModelSchema,
  alias: string,
  action: RowAction = 'read',
): void {
  const condition = scopeCondition(ctx, model, alias, action);
  if (condition) qb.whereRaw('?', [condition]);
}

/**
 * The context's scope of `action` on the rows of `model` named `alias`, as a condition; undefined for every
 * row. What restrictRows adds to a WHERE, for a statement that tests a row rather than selects rows (the
 * guard of an INSERT … RETURNING, compile-insert.ts).
 */
export function scopeCondition(
  ctx: CompileContext,
  model: ModelSchema,
  alias: string,
  action: RowAction = 'read',
): Knex.Raw | undefined {
  const filter = scopeOf(ctx, model, action);
  if (!filter) return undefined;
  const restriction = compileFilter(unscoped(ctx), model, alias, filter);
  const trace = ctx.trace;
  if (trace) {
    // The scope's values become markers of where they come from (ScopeTrace), in the order they bind.
    const ref = trace.record(ctx, model, action);
    const { sql, bindings } = restriction.toSQL();
    // knex numbers the markers as it numbered the values; a `?` of the text itself (in a quoted name) or
    // another count than the scope's own text has would misplace them: such a statement is not kept.
    const traced =
      placeholders(sql) === bindings.length && bindings.length === scopeText(ctx, model, action).values.length;
    if (traced)
      return ctx.knex.raw(sql, bindings.map((_, i) => new ScopeValue(ref, i)) as unknown as Knex.RawBinding[]);
    trace.untraceable = true;
  }
  return restriction;
}

/** The scope of `action` on `model`, recorded when the context traces: whatever the answer, the build depends on it. */
function scopeOf(ctx: CompileContext, model: ModelSchema, action: RowAction) {
  if (ctx.trace) ctx.trace.record(ctx, model, action);
  return rowScope(ctx, model, action);
}

/** Whether the context restricts the rows of `model` at all: a cached text or a shortcut past its table is then wrong. */
export function isScoped(ctx: CompileContext, model: ModelSchema): boolean {
  return scopeOf(ctx, model, 'read') !== undefined;
}

/**
 * Under row scopes on `model`, the values of its `column` over the rows the caller may read, as a subquery
 * (`select a.column from table as a where <scope>`): for a statement that names rows of `model` only by a
 * value, such as the target side of a join table, to keep to readable ones with `in`. Undefined when the
 * caller may read every row.
 */
export function readableValues(ctx: CompileContext, model: ModelSchema, column: string): Knex.QueryBuilder | undefined {
  if (!isScoped(ctx, model)) return undefined;
  const alias = ctx.aliases.next();
  return tableSource(ctx, model, alias).select(`${alias}.${column}`);
}
