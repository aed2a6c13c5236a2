import type { ModelSchema } from '@colapi/schema';
import { isNow } from '@colapi/query-ast';
import type { Knex } from 'knex';
import { selectColumns } from './compile-select.js';
import type { CompileContext } from './field-expression.js';

/** Checked wire values in the form each column stores them; NowValue becomes the database's clock. */
export function storedValues(ctx: CompileContext, model: ModelSchema, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const column = model.columns.get(name);
    if (!column) throw new Error(`model ${model.name} has no column ${name}`);
    if (value === null || value === undefined) out[name] = null;
    else if (isNow(value)) out[name] = ctx.dialect.now(ctx.knex, value, column.type);
    else out[name] = ctx.dialect.writeValue(ctx.knex, column, value);
  }
  return out;
}

/** INSERT of one row; run it and pass the result to `insertedKey`. */
export function compileInsert(ctx: CompileContext, model: ModelSchema, values: Readonly<Record<string, unknown>>): Knex.QueryBuilder {
  const row = storedValues(ctx, model, values);
  // An empty row is fine: knex writes each dialect's form of an all-defaults insert.
  const insert = ctx.knex(model.table).insert(row);
  return ctx.dialect.returning ? insert.returning(model.key) : insert;
}

/**
 * INSERT of one row that answers the whole row in its read form (`returning`), so that a plain create is one
 * statement. Only for dialects with `returning`; the columns are unqualified, as RETURNING has no alias.
 */
export function compileInsertReturningRow(ctx: CompileContext, model: ModelSchema, values: Readonly<Record<string, unknown>>): Knex.QueryBuilder {
  if (!ctx.dialect.returning) throw new Error(`${ctx.dialect.name} cannot return the inserted row`);
  return ctx.knex(model.table).insert(storedValues(ctx, model, values)).returning(selectColumns(ctx, model, '') as never);
}

/** The key of a just-inserted row, from whatever shape the driver returned. */
export function insertedKey(model: ModelSchema, result: unknown): unknown {
  const first = Array.isArray(result) ? result[0] : result;
  if (first !== null && typeof first === 'object') return (first as Record<string, unknown>)[model.key];
  return first;
}

export function compileUpdate(ctx: CompileContext, model: ModelSchema, keys: readonly unknown[], values: Readonly<Record<string, unknown>>): Knex.QueryBuilder {
  return ctx.knex(model.table).whereIn(model.key, keys as Knex.Value[]).update(storedValues(ctx, model, values));
}

export function compileDelete(ctx: CompileContext, model: ModelSchema, keys: readonly unknown[]): Knex.QueryBuilder {
  return ctx.knex(model.table).whereIn(model.key, keys as Knex.Value[]).del();
}
