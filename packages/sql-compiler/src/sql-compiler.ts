import type { CollectionSchema, ModelSchema, Registry, RelationshipSchema } from '@colapi/schema';
import type { Filter, FunctionCall, ReadQuery } from '@colapi/query-ast';
import { compileAggregate, compileAggregateStatement, decodeAggregates } from './compile-aggregate.js';
import { compileFilter } from './compile-filter.js';
import { compileDelete, compileInsert, compileInsertReturningRow, compileUpdate } from './compile-write.js';
import type { Knex } from 'knex';
import { Aliases } from './aliases.js';
import { compileByKeys, compileList, compileRelated, linkColumn, type ListSql, type ScopeSql } from './compile-select.js';
import type { Dialect, Executed } from './dialect.js';
import type { CompileContext } from './field-expression.js';
import { rowDecoder, type Row } from './row-decoder.js';
import { runStatement } from './run-statement.js';

/**
 * Turns validated requests into knex query builders for one database. It runs nothing itself: the caller
 * executes the builders (inside its transaction) and decodes the rows with `decode`.
 */
export class SqlCompiler {
  constructor(
    readonly knex: Knex,
    readonly dialect: Dialect,
    readonly registry: Registry,
  ) {}

  /** A fresh compile context bound to a connection or transaction. */
  context(db: Knex = this.knex): CompileContext {
    return { knex: db, dialect: this.dialect, registry: this.registry, aliases: new Aliases() };
  }

  /**
   * Runs a query that answers rows (a select, never `first()` or `pluck()`) and answers them. On the pool it
   * takes `runStatement`'s shorter way, which costs a read about a third less CPU than knex's runner; inside a
   * transaction it runs as knex runs it, on the transaction's connection.
   */
  async run(query: Knex.QueryBuilder, db: Knex = this.knex): Promise<Row[]> {
    if (db.isTransaction) return (await query) as Row[];
    return (await this.runBuilt(query, 'select', db)).rows;
  }

  /** A builder's statement, compiled now, through `runStatement` on a pool (a replica's, for a read). */
  private runBuilt(query: Knex.QueryBuilder, method: string, pool: Knex = this.knex): Promise<Executed> {
    const { sql, bindings } = query.toSQL().toNative();
    return runStatement(pool, this.dialect, { sql, bindings, method });
  }

  /** `links`: relationships whose linkage the rows carry (`canLink`, `linkage`). */
  list(collection: CollectionSchema, query: ReadQuery, scope?: ScopeSql, db?: Knex, links?: readonly RelationshipSchema[]): ListSql {
    return compileList(this.context(db), collection, query, scope, links);
  }

  byKeys(model: ModelSchema, keys: readonly unknown[], scope?: ScopeSql, db?: Knex, links?: readonly RelationshipSchema[]): Knex.QueryBuilder {
    return compileByKeys(this.context(db), model, keys, scope, links);
  }

  related(rel: RelationshipSchema, ownerValues: readonly unknown[], full: boolean, db?: Knex, links?: readonly RelationshipSchema[]): Knex.QueryBuilder {
    return compileRelated(this.context(db), rel, ownerValues, full, links);
  }

  /**
   * Whether the rows' own query can carry the linkage of `rel` (the dialect aggregates keys, and the target's
   * key is an integer or text, whose text form is its id).
   */
  canLink(rel: RelationshipSchema): boolean {
    if (!this.dialect.keyList) return false;
    const target = this.registry.models.get(rel.target);
    const type = target?.columns.get(target.key)?.type;
    return type === 'integer' || type === 'string';
  }

  /** The linkage `links` put in a row, or undefined when the row does not carry it. */
  linkage(rel: RelationshipSchema, raw: Row): string[] | undefined {
    const value = raw[linkColumn(rel.name)];
    return value === undefined ? undefined : this.dialect.decodeKeyList!(value);
  }

  insert(model: ModelSchema, values: Readonly<Record<string, unknown>>, db?: Knex): Knex.QueryBuilder {
    return compileInsert(this.context(db), model, values);
  }

  /**
   * INSERT … RETURNING: inserts one row and answers it in its read form; only where `dialect.returning`. It
   * runs by itself on the pool (`runStatement`), never in a transaction: it is the whole of a create.
   */
  async insertReturningRow(model: ModelSchema, values: Readonly<Record<string, unknown>>): Promise<Row> {
    const { rows } = await runStatement(this.knex, this.dialect, compileInsertReturningRow(this.context(), model, values));
    return rows[0]!;
  }

  /**
   * INSERT of one row where the database returns no rows (MySQL): answers the key it generated. Like
   * `insertReturningRow` it runs by itself on the pool; the row is read back by that key.
   */
  async insertGeneratingKey(model: ModelSchema, values: Readonly<Record<string, unknown>>): Promise<unknown> {
    const { insertId } = await this.runBuilt(compileInsert(this.context(), model, values), 'insert');
    if (insertId === undefined) throw new Error(`${this.dialect.name} did not tell the key of the inserted ${model.name}`);
    return insertId;
  }

  update(model: ModelSchema, keys: readonly unknown[], values: Readonly<Record<string, unknown>>, db?: Knex): Knex.QueryBuilder {
    return compileUpdate(this.context(db), model, keys, values);
  }

  delete(model: ModelSchema, keys: readonly unknown[], db?: Knex): Knex.QueryBuilder {
    return compileDelete(this.context(db), model, keys);
  }

  /** Keys of the rows a filter matches (all rows without one). */
  keys(model: ModelSchema, filter: Filter | undefined, db?: Knex): Knex.QueryBuilder {
    const ctx = this.context(db);
    const t = ctx.aliases.next();
    const qb = ctx.knex.from({ [t]: model.table }).select(`${t}.${model.key}`).orderBy(`${t}.${model.key}`);
    if (filter) qb.whereRaw('?', [compileFilter(ctx, model, t, filter)]);
    return qb;
  }

  /**
   * Runs an evaluation and answers its one row. Without a filter and outside a transaction its text is
   * compiled once per function list (building and compiling the select had been most of knex's share).
   */
  async evaluate(model: ModelSchema, functions: readonly FunctionCall[], filter: Filter | undefined, db: Knex = this.knex): Promise<Row> {
    if (filter || db.isTransaction) return (await this.run(this.aggregate(model, functions, filter, db), db))[0]!;
    const { rows } = await runStatement(db, this.dialect, compileAggregateStatement(this.context(), model, functions));
    return rows[0]!;
  }

  aggregate(model: ModelSchema, functions: readonly FunctionCall[], filter?: Filter, db?: Knex): Knex.QueryBuilder {
    return compileAggregate(this.context(db), model, functions, filter);
  }

  decodeAggregates(model: ModelSchema, functions: readonly FunctionCall[], row: Row): unknown[] {
    return decodeAggregates(this.dialect, model, functions, row);
  }

  decode(model: ModelSchema, raw: Row): Row {
    return rowDecoder(this.dialect, model)(raw);
  }
}
