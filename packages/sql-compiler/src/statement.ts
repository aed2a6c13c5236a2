import type { Knex } from 'knex';
import type { Executed } from './dialect.js';

/**
 * One statement ready to run: its text in the driver's own placeholders, this request's values, and how
 * the driver's answer becomes its result.
 *
 * `sql`, `method` and `decode` depend only on the shape of a request (which columns, operators, relations,
 * whether it pages), never on its values, which all travel in `bindings`: a plan can be kept per shape
 * and only bound again.
 */
export interface Statement<T> {
  readonly sql: string;
  readonly bindings: readonly unknown[];
  /** knex's name of the kind of statement (`select`, `insert`, `update`, `del`, `raw`), for its `query` event. */
  readonly method: string;
  readonly decode: (answer: Executed) => T;
  /**
   * Its best plan depends on the values it binds, not only on its text: an aggregate under a row scope,
   * whose values decide how much of the table it reads. A database that keeps one plan
   * per text plans this one at each run instead (PostgreSQL: unnamed, never a generic plan).
   */
  readonly planEach?: boolean;
}

/** A statement answering rows of a model, and the relationships whose linkage each of its rows carries. */
export interface RowsStatement<T> extends Statement<T> {
  /** Decided by the compiler (rowLinkage); every other relationship shown is for the caller to load. */
  readonly carried: ReadonlySet<string>;
}

/** A knex builder compiled into a statement, in the driver's placeholders. */
export function statementOf<T>(query: Knex.QueryBuilder | Knex.Raw, decode: (answer: Executed) => T): Statement<T> {
  const compiled = query.toSQL();
  const { sql, bindings } = compiled.toNative();
  return { sql, bindings, method: compiled.method ?? 'raw', decode };
}

/** The same statement, planned at each run (`planEach`). */
export function plannedEach<T>(statement: Statement<T>): Statement<T> {
  return { ...statement, planEach: true };
}

/** The same statement with its result turned into another. */
export function mapStatement<T, U>(statement: Statement<T>, map: (result: T) => U): Statement<U> {
  const decode = statement.decode;
  return { ...statement, decode: (answer) => map(decode(answer)) };
}

/** Decoders the compile functions share. */
export const rowsOf = (answer: Executed) => answer.rows;
export const affectedOf = (answer: Executed) => answer.affected ?? 0;
export const nothing = (): void => undefined;
