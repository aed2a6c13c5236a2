import type { Operation, OperationKind, OperationResult } from '@colapi/query-ast';
import type { HttpRequest } from '@colapi/wire-format';
import type { Knex } from 'knex';

export interface HookContext {
  readonly request: HttpRequest;
  /** Koa's `ctx.state`: where authentication middleware leaves the user, for example. */
  readonly state: Record<string, unknown>;
  /**
   * Where the operation runs: for a write, its transaction. What a hook writes through it commits or rolls
   * back with the operation (the pool would wait for the transaction's connection on SQLite).
   */
  readonly db?: Knex;
}

/**
 * Code around one operation. `before` may return a changed operation (another filter, other values) or
 * throw an ApiError to refuse with its status; `after` may return a changed result. For a write both run
 * inside its transaction: anything either throws rolls the whole request back. A transaction retried
 * after a serialization failure runs them again.
 */
export interface OperationHooks<O extends Operation = Operation> {
  before?(operation: O, context: HookContext): Operation | void | Promise<Operation | void>;
  after?(
    result: OperationResult,
    operation: O,
    context: HookContext,
  ): OperationResult | void | Promise<OperationResult | void>;
}

/** The hooks of one collection: per operation kind, each typed by its kind, and `*` for every kind. */
export type CollectionHooks = { readonly [K in OperationKind]?: OperationHooks<Extract<Operation, { kind: K }>> } & {
  readonly '*'?: OperationHooks;
};

/** Hooks by collection name (or `*` for all) and by operation kind (or `*` for all). */
export type HookTable = Readonly<Record<string, CollectionHooks>>;

interface Applicable {
  readonly kind: OperationKind | '*';
  readonly hooks: OperationHooks;
}

/** The hooks that apply to an operation, most specific first: the collection's, then `*`'s. */
export function hooksFor(table: HookTable | undefined, operation: Operation): OperationHooks[] {
  return applicable(table, operation).map((a) => a.hooks);
}

/** Whether any hook applies to the operation, without making the list (this runs on every request). */
export function hasHooks(table: HookTable | undefined, operation: Operation): boolean {
  return table !== undefined && applicable(table, operation).length > 0;
}

function applicable(table: HookTable | undefined, operation: Operation): Applicable[] {
  if (!table) return [];
  const out: Applicable[] = [];
  for (const collection of [operation.collection.name, '*']) {
    const byKind = table[collection];
    if (!byKind) continue;
    for (const kind of [operation.kind, '*'] as const) {
      const hooks = byKind[kind] as OperationHooks | undefined;
      if (hooks) out.push({ kind, hooks });
    }
  }
  return out;
}

/**
 * Runs the before hooks, the operation and the after hooks. A hook registered for one kind only ever sees
 * that kind: if an earlier hook turned the operation into another kind, it is skipped.
 */
export function runOperation(
  table: HookTable | undefined,
  operation: Operation,
  context: HookContext,
  execute: (operation: Operation) => Promise<OperationResult>,
): Promise<{ operation: Operation; result: OperationResult }> {
  const before = applicable(table, operation);
  // No hook applies (most requests): the operation as it is, without an async frame around it.
  if (before.length === 0) return execute(operation).then((result) => ({ operation, result }));
  return runHooked(table, operation, before, context, execute);
}

async function runHooked(
  table: HookTable | undefined,
  operation: Operation,
  before: readonly Applicable[],
  context: HookContext,
  execute: (operation: Operation) => Promise<OperationResult>,
): Promise<{ operation: Operation; result: OperationResult }> {
  let op = operation;
  for (const { kind, hooks } of before) {
    if (hooks.before && (kind === '*' || kind === op.kind)) op = (await hooks.before(op, context)) ?? op;
  }
  let result = await execute(op);
  for (const { hooks } of applicable(table, op))
    if (hooks.after) result = (await hooks.after(result, op, context)) ?? result;
  return { operation: op, result };
}
