import type { ColumnSchema, ModelSchema } from '@colapi/schema';
import {
  ApiError,
  CONTAINMENT_OPERATORS,
  NETWORK_OPERATORS,
  isNow,
  type Filter,
  type ScalarValue,
} from '@colapi/query-ast';
import type { Knex } from 'knex';
import {
  comparableExpression,
  fieldColumn,
  fieldExpression,
  targetModel,
  type CompileContext,
} from './field-expression.js';
import { tableSource } from './table-source.js';

const COMPARISON: Record<string, string> = { eq: '=', ne: '<>', gt: '>', lt: '<', ge: '>=', le: '<=' };

function bindValue(ctx: CompileContext, column: ColumnSchema, value: ScalarValue): unknown {
  if (isNow(value)) return ctx.dialect.now(ctx.knex, value, column.type, column);
  return ctx.dialect.filterValue ? ctx.dialect.filterValue(ctx.knex, column, value) : value;
}

/** Compiles a validated filter on the row `alias` of `model` into one boolean SQL expression. */
export function compileFilter(ctx: CompileContext, model: ModelSchema, alias: string, filter: Filter): Knex.Raw {
  const { knex, dialect } = ctx;
  switch (filter.kind) {
    case 'and':
    case 'or': {
      if (filter.filters.length === 0) return knex.raw(filter.kind === 'and' ? '1 = 1' : '1 = 0');
      const parts = filter.filters.map((f) => compileFilter(ctx, model, alias, f));
      return knex.raw(`(${parts.map(() => '?').join(` ${filter.kind} `)})`, parts);
    }
    case 'null-check': {
      const expr = fieldExpression(ctx, model, alias, filter.field);
      return knex.raw(filter.op === 'is_null' ? '? is null' : '? is not null', [expr]);
    }
    case 'compare-field': {
      const left = comparableExpression(ctx, model, alias, filter.field);
      const right = comparableExpression(ctx, model, alias, filter.other);
      const op = COMPARISON[filter.op];
      if (op) return knex.raw(`? ${op} ?`, [left, right]);
      // The filter parsers refuse every other operator between two fields.
      throw new Error(`no SQL for operator ${filter.op} between two fields`);
    }
    case 'compare': {
      const column = fieldColumn(ctx, model, filter.field);
      if (filter.op === 'like' || filter.op === 'ilike' || filter.op === 'not_like') {
        return dialect.like(knex, fieldExpression(ctx, model, alias, filter.field), filter.value as string, filter.op);
      }
      if (CONTAINMENT_OPERATORS.has(filter.op)) {
        // The parsers refuse these where the dialect has none (server-koa's unsupportedOperator).
        if (!dialect.containment) throw ApiError.badRequest(`"${filter.op}" is not available on ${dialect.name}`);
        const expr = fieldExpression(ctx, model, alias, filter.field);
        return dialect.containment(knex, expr, column, filter.op, filter.value as string);
      }
      const expr = comparableExpression(ctx, model, alias, filter.field);
      const op = COMPARISON[filter.op];
      if (op) return knex.raw(`? ${op} ?`, [expr, bindValue(ctx, column, filter.value as ScalarValue) as Knex.Value]);
      if (filter.op === 'in' || filter.op === 'not_in') {
        const values = (filter.value as ScalarValue[]).map((v) => bindValue(ctx, column, v));
        if (values.length === 0) return knex.raw(filter.op === 'in' ? '1 = 0' : '1 = 1');
        const list = values.map(() => '?').join(', ');
        return knex.raw(`? ${filter.op === 'in' ? 'in' : 'not in'} (${list})`, [expr, ...(values as Knex.Value[])]);
      }
      if (NETWORK_OPERATORS.has(filter.op)) {
        if (!dialect.networkCompare) {
          // The parsers refuse these first, naming the parameter; this guards a format that does not ask.
          throw ApiError.badRequest(
            `network address operators need PostgreSQL's inet type; this server runs on ${dialect.name}`,
          );
        }
        return dialect.networkCompare(knex, expr, filter.op, filter.value as string);
      }
      throw new Error(`no SQL for operator ${filter.op}`);
    }
    case 'relation': {
      // `own in (select … where filter)` rather than a correlated `exists`: SQLite and MySQL can then start
      // from the few target rows the filter keeps and reach the owners through the foreign key's index,
      // instead of probing the target once per owner row. No filter negates a relation filter, so a null
      // join column (unknown under `in`, false under `exists`) selects nothing either way.
      const rel = model.relationships.get(filter.relation)!;
      const target = targetModel(ctx, rel);
      const join = rel.join;
      const inner = ctx.aliases.next();
      const qb = tableSource(ctx, target, inner);
      if (join.kind === 'composite') {
        // A foreign key of several columns: the owner's columns as one row value, `(a, b) in (select x, y …)`.
        if (filter.filter) qb.whereRaw('?', [compileFilter(ctx, target, inner, filter.filter)]);
        const owns = join.ownColumns.map((c) => `${alias}.${c}`);
        const tuple = `(${owns.map(() => '??').join(', ')})`;
        return knex.raw(`${tuple} in ?`, [...owns, qb.select(join.targetColumns.map((c) => `${inner}.${c}`))]);
      }
      let meets = `${inner}.${join.targetColumn}`;
      if (join.kind === 'through') {
        const j = ctx.aliases.next();
        qb.join({ [j]: join.through.table }, `${j}.${join.through.targetColumn}`, `${inner}.${join.targetColumn}`);
        meets = `${j}.${join.through.ownColumn}`;
      }
      if (filter.filter) qb.whereRaw('?', [compileFilter(ctx, target, inner, filter.filter)]);
      // knex puts a subquery binding in parentheses itself.
      return knex.raw('?? in ?', [`${alias}.${join.ownColumn}`, qb.select(meets)]);
    }
  }
}
