import { sqlColumn, type ModelSchema } from '@colapi/schema';
import type { Knex } from 'knex';
import { compiledFragment } from './compiled-fragment.js';
import type { CompileContext } from './field-expression.js';

/**
 * Column list of a model in its read form, each aliased to its own (API) name; columns of the table `alias`, or
 * unqualified when `alias` is empty (a RETURNING list). Compiled once per dialect, model and alias.
 */
export function selectColumns(ctx: CompileContext, model: ModelSchema, alias: string): Knex.Raw {
  const { knex, dialect } = ctx;
  return compiledFragment(knex, dialect, model, `columns ${alias}`, () => {
    const columns = [...model.columns.values()].map((c) =>
      knex.raw('? as ??', [dialect.readColumn(knex, alias ? `${alias}.${sqlColumn(c)}` : sqlColumn(c), c), c.name]),
    );
    return knex.raw(columns.map(() => '?').join(', '), columns);
  });
}
