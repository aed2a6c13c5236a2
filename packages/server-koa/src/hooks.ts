import type { HttpRequest, Operation, OperationKind, OperationResult } from '@colapi/query-ast';
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
export interface OperationHooks {
  before?(operation: Operation, context: HookContext): Operation | void | Promise<Operation | void>;
  after?(result: OperationResult, operation: Operation, context: HookContext): OperationResult | void | Promise<OperationResult | void>;
}

/** Hooks by collection name (or `*` for all) and by operation kind (or `*` for all). */
export type HookTable = Readonly<Record<string, Partial<Record<OperationKind | '*', OperationHooks>>>>;

/** The hooks that apply to an operation, most specific first. */
export function hooksFor(table: HookTable | undefined, operation: Operation): OperationHooks[] {
  if (!table) return [];
  const out: OperationHooks[] = [];
  for (const collection of [operation.collection.name, '*']) {
    const byKind = table[collection];
    if (!byKind) continue;
    for (const kind of [operation.kind, '*'] as const) {
      const h = byKind[kind];
      if (h) out.push(h);
    }
  }
  return out;
}

export async function runOperation(
  table: HookTable | undefined,
  operation: Operation,
  context: HookContext,
  execute: (operation: Operation) => Promise<OperationResult>,
): Promise<{ operation: Operation; result: OperationResult }> {
  let op = operation;
  for (const h of hooksFor(table, operation)) if (h.before) op = (await h.before(op, context)) ?? op;
  let result = await execute(op);
  for (const h of hooksFor(table, op)) if (h.after) result = (await h.after(result, op, context)) ?? result;
  return { operation: op, result };
}
