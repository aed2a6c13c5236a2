import { sqlColumn, type ColumnSchema, type ModelSchema } from '@colapi/schema';
import { isNow } from '@colapi/query-ast';
import type { CompileContext } from './field-expression.js';

/** Checked wire values in the form each column stores them, by column name in SQL; NowValue becomes the database's clock. */
export function storedValues(
  ctx: CompileContext,
  model: ModelSchema,
  values: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const column = model.columns.get(name);
    if (!column) throw new Error(`model ${model.name} has no column ${name}`);
    out[sqlColumn(column)] = storedValue(ctx, column, value);
  }
  return out;
}

/** One checked wire value in the form its column stores it. */
export function storedValue(ctx: CompileContext, column: ColumnSchema, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (isNow(value)) return ctx.dialect.now(ctx.knex, value, column.type, column);
  return ctx.dialect.writeValue(ctx.knex, column, value);
}
