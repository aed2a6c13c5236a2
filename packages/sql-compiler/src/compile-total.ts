import type { ModelSchema } from '@colapi/schema';
import type { Knex } from 'knex';
import { ownerQuery, type Scope } from './compile-scope.js';
import type { CompileContext } from './field-expression.js';
import { statementOf, type Statement } from './statement.js';

/** What a count answers: the total, and whether the scope's owner exists when it was asked too. */
export interface Count {
  readonly total: number;
  readonly ownerExists?: boolean;
}

/**
 * `select count(*)` over `from` (rows already restricted). With `scope` it also tells whether the owner
 * exists, `(select 1 from owner where key = ?)`, so that a related collection costs no statement of its own
 * for its 404.
 */
export function compileCount(ctx: CompileContext, from: Knex.QueryBuilder, scope?: Scope): Statement<Count> {
  const { knex } = ctx;
  const select: Knex.Raw[] = [knex.raw('count(*) as ??', ['total'])];
  if (scope) select.push(knex.raw('? as ??', [ownerQuery(ctx, scope), 'owner']));
  return statementOf(from.select(select), ({ rows }) => {
    const row = rows[0];
    const total = Number(row?.total ?? 0);
    if (!scope) return { total };
    return { total, ownerExists: row?.owner !== null && row?.owner !== undefined };
  });
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
