import type { ModelSchema } from '@colapi/schema';
import type { Filter } from '@colapi/query-ast';
import type { Knex } from 'knex';
import { Aliases } from './aliases.js';
import { compileFilter } from './compile-filter.js';
import type { CompileContext } from './field-expression.js';
import { bindTraced, FilterValue, placeholders, type Slot, type Traced } from './scope-trace.js';
import { shapesOf, type ShapeCaches } from './shape-cache.js';
import type { Statement } from './statement.js';

/**
 * A request's filter compiled alone, with fixed aliases: its text names the filter's shape (fields,
 * operators, nesting, and whatever a value puts in the text, such as the length of an `in` list), and its
 * values are what the filter binds, rewritten as they are on their way to a binding (a like pattern), in
 * the order it binds them, wherever it is compiled. Two filters of one text compile to the same SQL inside
 * any statement, so a statement built for one is bound again with the other's values (compileList).
 */
export interface FilterText {
  readonly text: string;
  readonly values: readonly unknown[];
}

/** The filter of a read compiled alone, under the context's scopes (a relation filter reads its target in scope). */
export function filterText(ctx: CompileContext, model: ModelSchema, filter: Filter): FilterText {
  const { trace: _, ...untraced } = ctx;
  const alone: CompileContext = { ...untraced, aliases: new Aliases('f') };
  const { sql, bindings } = compileFilter(alone, model, 'filtered', filter).toSQL();
  return { text: sql, values: bindings };
}

/** A request's filter on the rows `alias` of `model` as a condition: with its values marked when `marks` is given. */
export function filterCondition(
  ctx: CompileContext,
  model: ModelSchema,
  alias: string,
  filter: Filter,
  marks?: FilterMarks,
): Knex.Raw {
  const raw = compileFilter(ctx, model, alias, filter);
  return marks ? markFilter(ctx, raw, marks) : raw;
}

/**
 * A filter compiled inside a statement being built to be kept, its values replaced by markers (FilterValue).
 * `marks.untraceable` is set, and the filter left as it is, when its bindings cannot be told apart from its
 * text (a `?` of the text itself) or are not as many as `marks.count`, the filter's own compiled alone.
 */
function markFilter(ctx: CompileContext, raw: Knex.Raw, marks: FilterMarks): Knex.Raw {
  const { sql, bindings } = raw.toSQL();
  if (placeholders(sql) !== bindings.length || bindings.length !== marks.count) {
    marks.untraceable = true;
    return raw;
  }
  return ctx.knex.raw(sql, bindings.map((_, i) => new FilterValue(i)) as unknown as Knex.RawBinding[]);
}

/** What a build that marks its filter's values needs to know, and tells. */
export interface FilterMarks {
  /** How many values the filter binds, compiled alone. */
  readonly count: number;
  untraceable: boolean;
}

/**
 * An unscoped statement with a filter, kept in `caches` per `owner` and `shape` (which ends in the filter's
 * text) and bound again with each request's filter values. `build` marks the filter's values (markFilter);
 * a build whose filter cannot be marked is used as it is and not kept, as is any past `limit` shapes.
 */
export function keptFiltered<S extends Statement<unknown>>(
  ctx: CompileContext,
  caches: ShapeCaches<Traced<S>>,
  owner: object,
  shape: string,
  limit: number,
  filter: FilterText,
  build: (ctx: CompileContext, marks: FilterMarks) => S,
): S {
  const shapes = shapesOf(caches, ctx.dialect, owner);
  const entry = shapes.get(shape);
  if (entry) return bindTraced(ctx, entry, filter.values)!;
  const marks: FilterMarks = { count: filter.values.length, untraceable: false };
  const statement = build(ctx, marks);
  if (marks.untraceable) return statement;
  const slots = statement.bindings.map((b): Slot => (b instanceof FilterValue ? { own: b.ordinal } : { constant: b }));
  const traced: Traced<S> = { statement, refs: [], slots };
  if (shapes.size < limit) shapes.set(shape, traced);
  return bindTraced(ctx, traced, filter.values)!;
}
