import { sqlColumn, type ColumnSchema, type ModelSchema } from '@colapi/schema';
import { isNow } from '@colapi/query-ast';
import type { Knex } from 'knex';
import { selectColumns } from './compile-select.js';
import { compiledText } from './compiled-fragment.js';
import type { CompiledStatement } from './run-statement.js';
import type { CompileContext } from './field-expression.js';

/** Checked wire values in the form each column stores them, by column name in SQL; NowValue becomes the database's clock. */
export function storedValues(ctx: CompileContext, model: ModelSchema, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const column = model.columns.get(name);
    if (!column) throw new Error(`model ${model.name} has no column ${name}`);
    out[sqlColumn(column)] = storedValue(ctx, column, value);
  }
  return out;
}

function storedValue(ctx: CompileContext, column: ColumnSchema, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (isNow(value)) return ctx.dialect.now(ctx.knex, value, column.type);
  return ctx.dialect.writeValue(ctx.knex, column, value);
}

/** INSERT of one row; run it and pass the result to `insertedKey`. */
export function compileInsert(ctx: CompileContext, model: ModelSchema, values: Readonly<Record<string, unknown>>): Knex.QueryBuilder {
  const row = storedValues(ctx, model, values);
  // An empty row is fine: knex writes each dialect's form of an all-defaults insert.
  const insert = ctx.knex(model.table).insert(row);
  return ctx.dialect.returning ? insert.returning(model.key) : insert;
}

/** Distinct INSERT texts kept per model: the written columns are the client's choice. */
const INSERT_SHAPES = 200;

/**
 * INSERT of one row that answers the whole row in its read form (`returning`), so that a plain create is one
 * statement. Only for dialects with `returning`; the columns are unqualified, as RETURNING has no alias.
 *
 * The text depends only on which columns are written and on how each value is written (a bound value, or an
 * expression of the dialect's such as `make_interval(secs => ?)` or the clock): it is compiled once per such
 * shape and model, in the driver's placeholders, and each create only gathers its values. Building and
 * compiling the insert with knex had been a tenth of a create's CPU.
 */
export function compileInsertReturningRow(ctx: CompileContext, model: ModelSchema, values: Readonly<Record<string, unknown>>): CompiledStatement {
  const { knex, dialect } = ctx;
  if (!dialect.returning) throw new Error(`${dialect.name} cannot return the inserted row`);
  // Sorted, so that the order in which a client lists attributes does not make another shape.
  const columns = Object.keys(values).sort();
  const expressions: string[] = [];
  const bindings: unknown[] = [];
  for (const name of columns) {
    const column = model.columns.get(name);
    if (!column) throw new Error(`model ${model.name} has no column ${name}`);
    const value = values[name];
    // The dialect's expression as text, rather than a Raw to compile on every create.
    const expression = value === null || value === undefined || isNow(value) ? undefined : dialect.writeExpression?.(column, value);
    const stored = expression === undefined ? storedValue(ctx, column, value) : value;
    if (isRaw(stored)) {
      const compiled = stored.toSQL();
      expressions.push(compiled.sql);
      bindings.push(...compiled.bindings);
    } else {
      expressions.push(expression ?? '?');
      bindings.push(stored);
    }
  }
  const shape = columns.map((c, i) => `${c}=${expressions[i]}`).join(',');
  const sql = compiledText(
    dialect,
    model,
    `insert returning ${shape}`,
    () => {
      const returning = selectColumns(ctx, model, '')[0]!;
      // Compiled with the values of this first create, then kept in the driver's placeholders: the values
      // of a later create of the same shape take the same positions.
      const insert = columns.length
        ? knex.raw(`insert into ?? (${columns.map(() => '??').join(', ')}) values (${expressions.join(', ')}) returning ?`, [model.table, ...columns.map((c) => sqlColumn(model.columns.get(c)!)), ...(bindings as Knex.Value[]), returning])
        : knex.raw('insert into ?? default values returning ?', [model.table, returning]);
      return insert.toSQL().toNative().sql;
    },
    INSERT_SHAPES,
  );
  return { sql, bindings, method: 'insert' };
}

function isRaw(value: unknown): value is Knex.Raw {
  return typeof value === 'object' && value !== null && (value as { isRawInstance?: unknown }).isRawInstance === true;
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
