import { sqlColumn, type ModelSchema } from '@colapi/schema';
import { isNow, rowId, type Filter } from '@colapi/query-ast';
import type { Knex } from 'knex';
import { compileFilter } from './compile-filter.js';
import type { CompileContext } from './field-expression.js';
import { resourceRowDecoder, type ResourceRow } from './resource-row.js';
import type { Row } from './row-decoder.js';
import { rowLinkage, type Relations } from './row-linkage.js';
import { unscoped } from './row-scopes.js';
import { keptScoped, type Traced } from './scope-trace.js';
import { shapesOf, type ShapeCaches } from './shape-cache.js';
import { selectColumns } from './select-columns.js';
import { statementOf, type RowsStatement, type Statement } from './statement.js';
import { storedValue, storedValues } from './stored-values.js';
import { scopeCondition, tableSource } from './table-source.js';

/**
 * INSERT of one row, answering the key of the row it wrote: the one RETURNING gives where the dialect
 * `returning`, else the one the driver tells (MySQL's insertId). A key the client chose is in `values`.
 */
export function compileInsert(
  ctx: CompileContext,
  model: ModelSchema,
  values: Readonly<Record<string, unknown>>,
): Statement<unknown> {
  const row = storedValues(ctx, model, values);
  // An empty row is fine: knex writes each dialect's form of an all-defaults insert.
  const insert = ctx.knex(model.table).insert(row);
  // A composite key is never the database's to number: the row's key is the parts the client wrote.
  if (model.keyColumns.length > 1) return statementOf(insert, () => rowId(model, values));
  const key = model.columns.get(model.key);
  return statementOf(ctx.dialect.returning ? insert.returning(model.key) : insert, ({ rows, insertId }) => {
    if (!rows.length) return insertId;
    const raw = rows[0]![model.key];
    return key && raw !== null ? ctx.dialect.decodeValue(key, raw) : raw;
  });
}

/** Distinct INSERT texts kept per model: the written columns are the client's choice. */
const INSERT_SHAPES = 200;

/**
 * INSERT of one row that answers the whole row in its read form (`returning`), so that a plain create is one
 * statement. Only for dialects with `returning`, or servers that say they return rows (`returnsInsertedRows`,
 * MariaDB); the columns are unqualified, as RETURNING has no alias. The row carries its linkage as a read by
 * key does (rowLinkage): key lists correlated to the table's own name, which RETURNING accepts on PostgreSQL,
 * MariaDB and SQLite. They see the tables as they were before the INSERT, which for a row that did not exist
 * is what it is related to (a foreign key cannot point at it yet).
 *
 * The statement depends only on which columns are written, on how each value is written (a bound value, or
 * an expression of the dialect's such as `make_interval(secs => ?)` or the clock) and on the relationships
 * the read shows: its text (in the driver's placeholders), row decoder and linkage are built once per such
 * shape and model, and each create only gathers its values. Building and compiling the insert with knex had
 * been a tenth of a create's CPU.
 *
 * Under row scopes the statement refuses its own write (the dialect's `refuseUnless`, which fails the whole
 * statement, so nothing is written) unless the new row is one the caller may read, meets `check`, and each
 * foreign key it writes names a row the caller may read; the linkage reads the targets within their scopes.
 * Such statements are kept apart, per shape and the scopes' key (ScopeTrace), never taken from what an
 * unscoped create kept; one with a `check` is built each time (its values are the rule's, not the scopes').
 */
export function compileInsertReturning(
  ctx: CompileContext,
  model: ModelSchema,
  values: Readonly<Record<string, unknown>>,
  relations: Relations,
  check?: Filter,
): RowsStatement<ResourceRow> {
  const { dialect } = ctx;
  if (!dialect.returning && !dialect.returnsInsertedRows)
    throw new Error(`${dialect.name} cannot return the inserted row`);
  // Sorted, so that the order in which a client lists attributes does not make another shape.
  const columns = Object.keys(values).sort();
  const expressions: string[] = [];
  const bindings: unknown[] = [];
  for (const name of columns) {
    const column = model.columns.get(name);
    if (!column) throw new Error(`model ${model.name} has no column ${name}`);
    const value = values[name];
    // The dialect's expression as text, rather than a Raw to compile on every create.
    const expression =
      value === null || value === undefined || isNow(value) ? undefined : dialect.writeExpression?.(column, value);
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
  let shape = '';
  for (let i = 0; i < columns.length; i++) shape += `${i ? ',' : ''}${columns[i]}=${expressions[i]}`;
  shape += ` ${relationsKey(relations)}`;
  if (ctx.scopes) {
    // The guard's and the linkage's scopes bind values of their own, after the row's.
    return keptScoped(ctx, keptGuarded, model, `${shape} ${check ? 'check' : ''}`, INSERT_SHAPES, bindings, (c) => {
      const guard = insertGuard(c, model, columns, check);
      const built = buildInsertReturning(c, model, columns, expressions, bindings, relations, guard);
      return { ...returningStatement(built), bindings: built.bindings };
    });
  }
  const statements = shapesOf(kept, dialect, model);
  let statement = statements.get(shape);
  if (!statement) {
    const { bindings: _, ...built } = buildInsertReturning(ctx, model, columns, expressions, bindings, relations);
    statement = built;
    if (statements.size < INSERT_SHAPES) statements.set(shape, statement);
  }
  return { ...returningStatement(statement), bindings };
}

function returningStatement({ sql, decode, carried }: KeptInsert): Omit<RowsStatement<ResourceRow>, 'bindings'> {
  return { sql, method: 'insert', decode: ({ rows }) => decode(rows[0]!), carried };
}

/** What a create of one shape reuses: its text, in the driver's placeholders, and how its row is read. */
interface KeptInsert {
  readonly sql: string;
  readonly decode: (raw: Row) => ResourceRow;
  readonly carried: ReadonlySet<string>;
}

const kept: ShapeCaches<KeptInsert> = new WeakMap();
/** The same under row scopes, guarded, per shape and the scopes' key. */
const keptGuarded: ShapeCaches<Traced<RowsStatement<ResourceRow>>> = new WeakMap();

/**
 * What the new row must meet under row scopes, as the dialect's refusal: the caller's read scope on the
 * row itself (compared in the RETURNING list, by the table's own name), the rule's `check`, and for each
 * foreign key written, that it is null or names a row of the target within the caller's scope. A
 * target the caller cannot read is answered as one that does not exist, as a write in a transaction
 * answers it (the server runs the refused create again there, to tell which rule refused).
 */
function insertGuard(
  ctx: CompileContext,
  model: ModelSchema,
  columns: readonly string[],
  check?: Filter,
): Knex.Raw | undefined {
  const { knex, dialect, registry } = ctx;
  if (!dialect.refuseUnless) throw new Error(`${dialect.name} cannot refuse a write from within its statement`);
  const table = model.table;
  const parts: Knex.Raw[] = [];
  const read = scopeCondition(ctx, model, table);
  if (read) parts.push(read);
  if (check) parts.push(compileFilter(unscoped(ctx), model, table, check));
  for (const rel of model.relationships.values()) {
    const join = rel.join;
    if (join.kind !== 'belongs-to' || !columns.includes(join.ownColumn)) continue;
    // Whatever the target's scope: a table may lack the constraint its relationship stands for, and a write
    // in a transaction asks for the target's row too (Executor.targetsReadable).
    const target = registry.models.get(rel.target)!;
    const a = ctx.aliases.next();
    const row = tableSource(ctx, target, a)
      .select(knex.raw('1'))
      .whereRaw('?? = ??', [`${a}.${join.targetColumn}`, `${table}.${join.ownColumn}`]);
    parts.push(knex.raw('(?? is null or exists ?)', [`${table}.${join.ownColumn}`, row]));
  }
  if (!parts.length) return undefined;
  return knex.raw(dialect.refuseUnless(parts.map(() => '(?)').join(' and ')), parts);
}

/** The relationships a read shows and includes, by name: with the written columns, what makes a shape. */
function relationsKey(relations: Relations): string {
  let key = '';
  for (const r of relations.shown) key += `${r.name},`;
  key += ' ';
  for (const name of relations.included) key += `${name},`;
  return key;
}

function buildInsertReturning(
  ctx: CompileContext,
  model: ModelSchema,
  columns: readonly string[],
  expressions: readonly string[],
  bindings: readonly unknown[],
  relations: Relations,
  guard?: Knex.Raw,
): KeptInsert & { readonly bindings: readonly unknown[] } {
  const { knex, dialect } = ctx;
  const linkage = rowLinkage(ctx, relations, true);
  const selected = [selectColumns(ctx, model, ''), ...linkage.columns(model.table)];
  if (guard) selected.push(knex.raw('? as ??', [guard, 'colapi_guard']));
  const returning = knex.raw(selected.map(() => '?').join(', '), selected);
  // Compiled with the values of this first create, then kept in the driver's placeholders: the values of a
  // later create of the same shape take the same positions.
  const insert = columns.length
    ? knex.raw(
        `insert into ?? (${columns.map(() => '??').join(', ')}) values (${expressions.join(', ')}) returning ?`,
        [
          model.table,
          ...columns.map((c) => sqlColumn(model.columns.get(c)!)),
          ...(bindings as Knex.Value[]),
          returning,
        ],
      )
    : knex.raw(`insert into ?? ${dialect.emptyInsertValues ?? 'default values'} returning ?`, [model.table, returning]);
  const compiled = insert.toSQL().toNative();
  return {
    sql: compiled.sql,
    bindings: compiled.bindings,
    decode: resourceRowDecoder(dialect, model, linkage),
    carried: linkage.carried,
  };
}

function isRaw(value: unknown): value is Knex.Raw {
  return typeof value === 'object' && value !== null && (value as { isRawInstance?: unknown }).isRawInstance === true;
}
