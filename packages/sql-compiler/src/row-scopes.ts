import type { ModelSchema } from '@colapi/schema';
import type { Filter } from '@colapi/query-ast';
import type { CompileContext } from './field-expression.js';

/**
 * The rows of each model a caller may reach (access control, issue 28), which a scoped compiler
 * (`SqlCompiler.scoped`) compiles into every table source of every statement it makes.
 *
 * Each answer is a query-ast filter valid on the model it is asked for (the fields it names are the model's
 * own or reached through its relationships), with its values as plain values: they travel as bindings, as a
 * client's filter values do. `undefined` is every row; the empty `or`, `{ kind: 'or', filters: [] }`, is no
 * row (SQL `1 = 0`): a model the caller may not read at all must answer it, not `undefined`.
 *
 * A scope's own filter is trusted: compiled without any scope inside it, so that a `has`/`any` of a rule may
 * reach rows the caller cannot read (a membership table) without recursing into their rules.
 *
 * The methods are called while statements are compiled, possibly several times per model and statement:
 * answer from what was resolved once per request.
 */
export interface RowScopes {
  /**
   * Groups callers whose scopes likely compile alike (a role's name): statements built under scopes are kept
   * per shape and this key, with the scopes' values as bindings, and reused only when every scope they were
   * built with has the same text for the next caller (ScopeTrace). Absent: every statement is built anew.
   */
  readonly key?: string;
  /** The rows of `model` that exist for the caller: every FROM, JOIN and subquery over its table reads only these. */
  read(model: ModelSchema): Filter | undefined;
  /** The rows of `model` an UPDATE may change, read's included; absent: read's. */
  update?(model: ModelSchema): Filter | undefined;
  /** The rows of `model` a DELETE may remove, read's included; absent: read's. */
  delete?(model: ModelSchema): Filter | undefined;
}

/** What a statement does to the rows of a table: read them, or change or remove them. */
export type RowAction = 'read' | 'update' | 'delete';

/** The scope of `action` on `model` in this context: undefined for every row, and always outside a scoped compiler. */
export function rowScope(ctx: CompileContext, model: ModelSchema, action: RowAction = 'read'): Filter | undefined {
  const scopes = ctx.scopes;
  if (!scopes) return undefined;
  if (action === 'update' && scopes.update) return scopes.update(model);
  if (action === 'delete' && scopes.delete) return scopes.delete(model);
  return scopes.read(model);
}

/** The same context without scopes (sharing its aliases): for compiling a scope's own filter, or a check. */
export function unscoped(ctx: CompileContext): CompileContext {
  if (!ctx.scopes) return ctx;
  const { knex, dialect, registry, aliases } = ctx;
  return { knex, dialect, registry, aliases };
}
