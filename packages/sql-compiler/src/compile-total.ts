import type { ModelSchema } from '@colapi/schema';
import type { Knex } from 'knex';
import { ownerQuery, type Scope } from './compile-scope.js';
import type { CompileContext } from './field-expression.js';
import { statementOf, type Statement } from './statement.js';

/** What a count answers: the total, and whether the scope's owner exists when it was asked too. */
export interface Count {
  readonly total?: number;
  readonly ownerExists?: boolean;
}

/** Names of the head's columns: prefixed, as they share a result with the columns of the page's rows. */
export const TOTAL_COLUMN = '__colapi_total';
export const OWNER_COLUMN = '__colapi_owner';

/**
 * The one-row head of a list read: `count(*)` over `from` (rows already restricted) when `from` is given,
 * and with `scope` whether its owner exists, `(select 1 from owner where key = ?)`, so that a related
 * collection costs no statement of its own for its 404. Undefined when it would tell nothing.
 */
export function headQuery(
  ctx: CompileContext,
  from: Knex.QueryBuilder | undefined,
  scope: Scope | undefined,
): Knex.QueryBuilder | undefined {
  const { knex } = ctx;
  const select: Knex.Raw[] = [];
  if (from) select.push(knex.raw('count(*) as ??', [TOTAL_COLUMN]));
  if (scope) select.push(knex.raw('? as ??', [ownerQuery(ctx, scope), OWNER_COLUMN]));
  if (select.length === 0) return undefined;
  return from ? from.select(select) : knex.select(select);
}

/** What a head row tells. */
export function readHead(row: Readonly<Record<string, unknown>> | undefined, counted: boolean, scoped: boolean): Count {
  const head: { total?: number; ownerExists?: boolean } = {};
  if (counted) head.total = Number(row?.[TOTAL_COLUMN] ?? 0);
  if (scoped) {
    const owner = row?.[OWNER_COLUMN];
    head.ownerExists = owner !== null && owner !== undefined;
  }
  return head;
}

/** `select count(*)` over `from` (rows already restricted), as a statement of its own. */
export function compileCount(ctx: CompileContext, from: Knex.QueryBuilder): Statement<Count> {
  return statementOf(headQuery(ctx, from, undefined)!, ({ rows }) => readHead(rows[0], true, false));
}

/** The planner's estimate of a table's rows, where the dialect has one; undefined when it has none for this table. */
export function compileEstimate(ctx: CompileContext, model: ModelSchema): Statement<number | undefined> | undefined {
  const estimate = ctx.dialect.estimateRows?.(ctx.knex, model.table);
  if (!estimate) return undefined;
  return statementOf(estimate, ({ rows }) => {
    const n = rows[0]?.n;
    if (n === null || n === undefined) return undefined;
    const count = Number(n);
    return Number.isFinite(count) && count >= 0 ? count : undefined;
  });
}
