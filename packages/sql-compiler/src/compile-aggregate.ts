import { sqlColumn, type ModelSchema } from '@colapi/schema';
import type { Filter, FunctionCall } from '@colapi/query-ast';
import type { Knex } from 'knex';
import { compiledFragment, compiledText } from './compiled-fragment.js';
import type { Dialect, Executed } from './dialect.js';
import type { CompileContext } from './field-expression.js';
import { filterCondition, filterText, keptFiltered, type FilterMarks } from './filter-text.js';
import { keptScoped, type Traced } from './scope-trace.js';
import type { ShapeCaches } from './shape-cache.js';
import { plannedEach, statementOf, type Statement } from './statement.js';
import { tableSource } from './table-source.js';

/** SQL of each whitelisted function; nothing else can reach the statement. */
const SQL: Readonly<Record<string, string>> = { avg: 'avg', sum: 'sum', count: 'count', min: 'min', max: 'max' };

/** Evaluation shapes kept compiled per model: the function lists are chosen by clients. */
const SELECT_LISTS_PER_MODEL = 200;
/** Unfiltered evaluations under row scopes, kept per function list and scopes' key (ScopeTrace). */
const keptScopedAggregates: ShapeCaches<Traced<Statement<unknown[]>>> = new WeakMap();
/** Filtered evaluations, kept per function list and the filter's text (FilterText); under scopes, apart, per the scopes' key too. */
const keptFilteredAggregates: ShapeCaches<Traced<Statement<unknown[]>>> = new WeakMap();
const keptScopedFilteredAggregates: ShapeCaches<Traced<Statement<unknown[]>>> = new WeakMap();

/** The select list of an evaluation, compiled once per dialect, model and function list. */
function selectList(
  ctx: CompileContext,
  model: ModelSchema,
  alias: string,
  functions: readonly FunctionCall[],
): Knex.Raw {
  const { knex, dialect } = ctx;
  const key = `aggregate ${alias} ${functions.map((f) => `${f.name}(${f.column})`).join(' ')}`;
  const build = () => {
    const selects = functions.map((f, i) => {
      const fn = SQL[f.name];
      if (!fn) throw new Error(`function ${f.name} is not whitelisted`);
      const column = model.columns.get(f.column)!;
      let arg = dialect.readColumn(knex, `${alias}.${sqlColumn(column)}`, column);
      // min and max of text follow code points on every dialect, as sorting does, whatever the collation.
      if ((fn === 'min' || fn === 'max') && column.type === 'string' && dialect.exactText)
        arg = dialect.exactText(knex, arg);
      if (fn === 'avg' && dialect.averageArgument) arg = dialect.averageArgument(knex, arg);
      return knex.raw(`${fn}(?) as ??`, [arg, `f${i}`]);
    });
    return knex.raw(selects.map(() => '?').join(', '), selects);
  };
  return compiledFragment(knex, dialect, model, key, build, SELECT_LISTS_PER_MODEL);
}

/** One row holding `f0`, `f1`, … : the functions over every row the filter matches. */
function aggregateQuery(
  ctx: CompileContext,
  model: ModelSchema,
  functions: readonly FunctionCall[],
  filter?: Filter,
  marks?: FilterMarks,
): Knex.QueryBuilder {
  const t = ctx.aliases.next();
  const qb = tableSource(ctx, model, t).select(selectList(ctx, model, t, functions));
  if (filter) qb.whereRaw('?', [filterCondition(ctx, model, t, filter, marks)]);
  return qb;
}

/**
 * An evaluation: the whitelisted functions over the rows the filter matches, answered as JSON values. An
 * aggregate is one row by nature: no `limit ?`, so an unfiltered one binds nothing at all, and its text,
 * which depends only on the model and the function list, is compiled once per shape (within the same bound
 * as the select lists). A filtered one is kept per function list and the text of its filter compiled alone,
 * binding the values that compile gives (FilterText). Under row scopes it runs over the rows the caller may
 * read, planned for the scopes' values at each run (`planEach`), and is kept per the scopes' key too,
 * binding their values (ScopeTrace).
 */
export function compileAggregate(
  ctx: CompileContext,
  model: ModelSchema,
  functions: readonly FunctionCall[],
  filter?: Filter,
): Statement<unknown[]> {
  const decode = ({ rows }: Executed) => decodeAggregates(ctx.dialect, model, functions, rows[0] ?? {});
  const key = `aggregate statement ${functions.map((f) => `${f.name}(${f.column})`).join(' ')}`;
  if (filter) {
    // Scopes without a key keep nothing: no text to compile for a key.
    if (ctx.scopes && ctx.scopes.key === undefined)
      return plannedEach(statementOf(aggregateQuery(ctx, model, functions, filter), decode));
    const alone = filterText(ctx, model, filter);
    const shape = `${key}\u0001${alone.text}`;
    const build = (c: CompileContext, marks?: FilterMarks) =>
      statementOf(aggregateQuery(c, model, functions, filter, marks), decode);
    if (!ctx.scopes)
      return keptFiltered(ctx, keptFilteredAggregates, model, shape, SELECT_LISTS_PER_MODEL, alone, build);
    // A filter that cannot be marked leaves the build untraceable, so it is used once and not kept.
    return keptScoped(ctx, keptScopedFilteredAggregates, model, shape, SELECT_LISTS_PER_MODEL, alone.values, (c) => {
      const marks = { count: alone.values.length, untraceable: false };
      const statement = plannedEach(build(c, marks));
      if (marks.untraceable) c.trace!.untraceable = true;
      return statement;
    });
  }
  if (ctx.scopes)
    return keptScoped(ctx, keptScopedAggregates, model, key, SELECT_LISTS_PER_MODEL, [], (c) =>
      plannedEach(statementOf(aggregateQuery(c, model, functions), decode)),
    );
  const sql = compiledText(
    ctx.dialect,
    model,
    key,
    () => aggregateQuery(ctx, model, functions).toSQL().toNative().sql,
    SELECT_LISTS_PER_MODEL,
  );
  return { sql, bindings: [], method: 'select', decode };
}

/** Results as JSON values: numbers for count/sum/avg on every dialect, column values for min/max. */
export function decodeAggregates(
  dialect: Dialect,
  model: ModelSchema,
  functions: readonly FunctionCall[],
  row: Record<string, unknown>,
): unknown[] {
  return functions.map((f, i) => {
    const raw = row[`f${i}`];
    if (raw === null || raw === undefined) return f.name === 'count' ? 0 : null;
    const column = model.columns.get(f.column)!;
    if (f.name === 'min' || f.name === 'max') return dialect.decodeValue(column, raw);
    const n = Number(raw);
    return f.name === 'count' ? Math.trunc(n) : n;
  });
}
