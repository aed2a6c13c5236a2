import type { ModelSchema } from '@colapi/schema';
import type { CompileContext } from './field-expression.js';
import { affectedOf, statementOf, type Statement } from './statement.js';
import { restrictRows } from './table-source.js';
import { keyColumn, plainBindings } from './plain-binding.js';

/** DELETE of the rows with these keys (within the delete scope, under row scopes); answers how many it deleted. */
export function compileDelete(ctx: CompileContext, model: ModelSchema, keys: readonly unknown[]): Statement<number> {
  const qb = ctx.knex(model.table).whereIn(model.key, plainBindings(ctx, keyColumn(model), keys));
  restrictRows(ctx, qb, model, model.table, 'delete');
  return statementOf(qb.del(), affectedOf);
}
