import type { ModelSchema } from '@colapi/schema';
import type { Knex } from 'knex';
import type { CompileContext } from './field-expression.js';
import { affectedOf, statementOf, type Statement } from './statement.js';

/** DELETE of the rows with these keys; answers how many it deleted. */
export function compileDelete(ctx: CompileContext, model: ModelSchema, keys: readonly unknown[]): Statement<number> {
  return statementOf(
    ctx
      .knex(model.table)
      .whereIn(model.key, keys as Knex.Value[])
      .del(),
    affectedOf,
  );
}
