import type { ModelSchema } from '@colapi/schema';
import type { CompileContext } from './field-expression.js';
import { affectedOf, statementOf, type Statement } from './statement.js';
import { storedValues } from './stored-values.js';
import { restrictRows } from './table-source.js';
import { keyColumn, plainBindings } from './plain-binding.js';

/**
 * UPDATE of the rows with these keys, setting the same values on each; answers how many it changed. Under
 * row scopes only rows within the update scope change (and are counted). Whether a row it changed still lies
 * within that scope afterwards is what `compileOutside` tells, before the transaction commits.
 */
export function compileUpdate(
  ctx: CompileContext,
  model: ModelSchema,
  keys: readonly unknown[],
  values: Readonly<Record<string, unknown>>,
): Statement<number> {
  const qb = ctx.knex(model.table).whereIn(model.key, plainBindings(ctx, keyColumn(model), keys));
  restrictRows(ctx, qb, model, model.table, 'update');
  return statementOf(qb.update(storedValues(ctx, model, values)), affectedOf);
}
