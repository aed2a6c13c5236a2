import type { ModelSchema } from '@colapi/schema';
import type { Knex } from 'knex';
import type { CompileContext } from './field-expression.js';
import { affectedOf, statementOf, type Statement } from './statement.js';
import { storedValues } from './stored-values.js';

/** UPDATE of the rows with these keys, setting the same values on each; answers how many it changed. */
export function compileUpdate(
  ctx: CompileContext,
  model: ModelSchema,
  keys: readonly unknown[],
  values: Readonly<Record<string, unknown>>,
): Statement<number> {
  return statementOf(
    ctx
      .knex(model.table)
      .whereIn(model.key, keys as Knex.Value[])
      .update(storedValues(ctx, model, values)),
    affectedOf,
  );
}
