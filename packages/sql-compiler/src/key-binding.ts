import type { ModelSchema } from '@colapi/schema';
import type { Knex } from 'knex';
import type { CompileContext } from './field-expression.js';

/**
 * A key of `model` as bound where it is compared, through the dialect's filterValue like any filter value:
 * a key beyond the column's width then matches nothing (PostgreSQL would refuse to bind it to an integer
 * column), so a URL naming such an id is a 404 like any other that names no row.
 */
export function keyBinding(ctx: CompileContext, model: ModelSchema, key: unknown): Knex.Value {
  const column = model.columns.get(model.key)!;
  return (ctx.dialect.filterValue ? ctx.dialect.filterValue(ctx.knex, column, key) : key) as Knex.Value;
}
