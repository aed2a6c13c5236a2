import type { ModelSchema } from '@colapi/schema';
import type { CompileContext } from './field-expression.js';
import { whereKeyIn } from './key-columns.js';
import { affectedOf, statementOf, type Statement } from './statement.js';
import { restrictRows } from './table-source.js';

/** DELETE of the rows with these keys (within the delete scope, under row scopes); answers how many it deleted. */
export function compileDelete(ctx: CompileContext, model: ModelSchema, keys: readonly unknown[]): Statement<number> {
  const qb = whereKeyIn(ctx, ctx.knex(model.table), model, undefined, keys);
  restrictRows(ctx, qb, model, model.table, 'delete');
  return statementOf(qb.del(), affectedOf);
}
