import type { ModelSchema } from '@colapi/schema';
import type { CompileContext } from './field-expression.js';
import { nothing, statementOf, type Statement } from './statement.js';

/**
 * After an insert with a key the client chose: moves the model's key generator past the keys it holds,
 * where the database does not do so itself (Dialect.advanceKey); undefined where nothing needs moving.
 */
export function compileAdvanceKey(ctx: CompileContext, model: ModelSchema): Statement<void> | undefined {
  if (!model.columns.get(model.key)?.generated) return undefined;
  const raw = ctx.dialect.advanceKey?.(ctx.knex, model.table, model.key);
  return raw && statementOf(raw, nothing);
}
