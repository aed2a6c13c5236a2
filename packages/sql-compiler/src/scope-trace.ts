import type { ModelSchema } from '@colapi/schema';
import type { Filter } from '@colapi/query-ast';
import { Aliases } from './aliases.js';
import { compileFilter } from './compile-filter.js';
import type { Dialect } from './dialect.js';
import type { CompileContext } from './field-expression.js';
import { shapesOf, type ShapeCaches } from './shape-cache.js';
import type { Statement } from './statement.js';
import { rowScope, type RowAction } from './row-scopes.js';

/**
 * Statements under row scopes kept per shape, with the claims as bindings (issue 28): two callers of one
 * role read the same statement text, differing only in the values their scopes bind (a tenant, an owner).
 *
 * A kept statement is built once with a trace in its context. Every scope the build consults (a table's
 * source, a join, a shortcut taken only when a table is unscoped) is recorded, with its text: the scope's
 * filter compiled on its own, with fixed aliases. The scope's values in the statement are markers that say
 * which value of which recorded scope goes there. A later request uses the statement only when each of its
 * own scopes for those (model, action) pairs has the same text (and so the same values in the same order,
 * which it then binds): a scope of another shape, a missing claim (`1 = 0`), another role, never reuses it.
 */
export class ScopeTrace {
  readonly refs: ScopeRef[] = [];
  /** Set when a scope could not be traced in the statement's text: the statement is then not kept. */
  untraceable = false;

  /** The index of the (model, action) scope among the recorded ones, recording it on first use. */
  record(ctx: CompileContext, model: ModelSchema, action: RowAction): number {
    const i = this.refs.findIndex((r) => r.model === model && r.action === action);
    if (i >= 0) return i;
    this.refs.push({ model, action, text: scopeText(ctx, model, action).text });
    return this.refs.length - 1;
  }
}

/** One scope a traced build consulted, and its text then ('' for every row). */
export interface ScopeRef {
  readonly model: ModelSchema;
  readonly action: RowAction;
  readonly text: string;
}

/** A binding of a traced build that stands for the `ordinal`th value of the scope recorded at `ref`. */
export class ScopeValue {
  constructor(
    readonly ref: number,
    readonly ordinal: number,
  ) {}
}

/**
 * A binding of a statement built to be kept that stands for the `ordinal`th value of the request's filter
 * (filter-text.ts): bound from `own`, the filter's values, wherever such a statement is kept.
 */
export class FilterValue {
  constructor(readonly ordinal: number) {}
}

/** A scope's filter compiled alone: its text with fixed aliases, and its values in the order they bind. */
export interface ScopeText {
  readonly text: string;
  readonly values: readonly unknown[];
}

const EVERY_ROW: ScopeText = Object.freeze({ text: '', values: Object.freeze([]) });
const ALIAS = 'scoped';

/** Texts by dialect, model and filter object: an access policy hands out the same filter for one identity. */
const texts = new WeakMap<Dialect, WeakMap<ModelSchema, WeakMap<Filter, ScopeText>>>();

/** The text and values of the caller's scope of `action` on `model`. */
export function scopeText(ctx: CompileContext, model: ModelSchema, action: RowAction): ScopeText {
  const filter = rowScope(ctx, model, action);
  if (!filter) return EVERY_ROW;
  let byModel = texts.get(ctx.dialect);
  if (!byModel) texts.set(ctx.dialect, (byModel = new WeakMap()));
  let byFilter = byModel.get(model);
  if (!byFilter) byModel.set(model, (byFilter = new WeakMap()));
  let text = byFilter.get(filter);
  if (!text) {
    const { knex, dialect, registry } = ctx;
    const plain: CompileContext = { knex, dialect, registry, aliases: new Aliases('s') };
    const { sql, bindings } = compileFilter(plain, model, ALIAS, filter).toSQL();
    text = Object.freeze({ text: sql, values: Object.freeze([...bindings]) });
    byFilter.set(filter, text);
  }
  return text;
}

/**
 * The values this request binds for a statement traced under `refs`, or undefined when one of its scopes
 * differs in text from the traced one's (the statement is then not this request's).
 */
export function scopeValues(ctx: CompileContext, refs: readonly ScopeRef[]): (readonly unknown[])[] | undefined {
  const values: (readonly unknown[])[] = [];
  for (const ref of refs) {
    const own = scopeText(ctx, ref.model, ref.action);
    if (own.text !== ref.text) return undefined;
    values.push(own.values);
  }
  return values;
}

/** How many `?` placeholders a compiled text has: when it differs from its bindings, the text is not traced. */
export function placeholders(sql: string): number {
  let n = 0;
  for (let i = sql.indexOf('?'); i >= 0; i = sql.indexOf('?', i + 1)) n++;
  return n;
}

/** Where a binding of a kept statement comes from: a scope's value, one of the request's own values, or the shape. */
export type Slot =
  | { readonly scope: number; readonly ordinal: number }
  | { readonly own: number }
  | { readonly constant: unknown };

/** A statement built under a trace, with where each of its bindings comes from. */
export interface Traced<S extends Statement<unknown>> {
  readonly statement: S;
  readonly refs: readonly ScopeRef[];
  readonly slots: readonly Slot[];
}

/**
 * A statement under scopes whose only bindings besides the scopes' are the request's `own` values, each once
 * and in order (a key, the owners' values, a filter's values as its FilterValue markers): kept in `caches`
 * per `owner`, shape and the scopes' key, and bound again for the next caller whose scopes have the same
 * texts. Built anew, and not kept, when the scopes have no key, when a build cannot be traced, or past
 * `limit` shapes per owner.
 */
export function keptScoped<S extends Statement<unknown>>(
  ctx: CompileContext,
  caches: ShapeCaches<Traced<S>>,
  owner: object,
  shape: string,
  limit: number,
  own: readonly unknown[],
  build: (ctx: CompileContext) => S,
): S {
  const scopesKey = ctx.scopes?.key;
  if (scopesKey === undefined) return build(ctx);
  const statements = shapesOf(caches, ctx.dialect, owner);
  const at = `${shape}\u0000${scopesKey}`;
  const entry = statements.get(at);
  const bound = entry && bindTraced(ctx, entry, own);
  if (bound) return bound;
  const trace = new ScopeTrace();
  const statement = build({ ...ctx, trace });
  const slots = statement.bindings.map((b): Slot => {
    if (b instanceof ScopeValue) return { scope: b.ref, ordinal: b.ordinal };
    if (b instanceof FilterValue) return { own: b.ordinal };
    const i = own.indexOf(b);
    return i < 0 ? { constant: b } : { own: i };
  });
  const traced: Traced<S> = { statement, refs: trace.refs, slots };
  if (!trace.untraceable && ownInOrder(slots, own.length) && (entry || statements.size < limit))
    statements.set(at, traced);
  return bindTraced(ctx, traced, own)!;
}

/** A kept statement bound for this request, or undefined when its scopes are not this request's. */
export function bindTraced<S extends Statement<unknown>>(
  ctx: CompileContext,
  traced: Traced<S>,
  own: readonly unknown[],
): S | undefined {
  const values = scopeValues(ctx, traced.refs);
  if (!values) return undefined;
  const bindings = traced.slots.map((slot) =>
    'scope' in slot ? values[slot.scope]![slot.ordinal] : 'own' in slot ? own[slot.own] : slot.constant,
  );
  return { ...traced.statement, bindings };
}

/** Whether the slots bind no constant and the request's own values each once, in order, besides the scopes'. */
function ownInOrder(slots: readonly Slot[], count: number): boolean {
  let next = 0;
  for (const slot of slots) {
    if ('constant' in slot) return false;
    if ('own' in slot && slot.own !== next++) return false;
  }
  return next === count;
}
