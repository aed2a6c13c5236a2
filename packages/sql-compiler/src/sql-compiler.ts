import type { ModelSchema, Registry, RelationshipSchema } from '@colapi/schema';
import type { Filter, FunctionCall, KeyValue } from '@colapi/query-ast';
import type { Knex } from 'knex';
import { Aliases } from './aliases.js';
import { compileAdvanceKey } from './compile-advance-key.js';
import { compileAggregate } from './compile-aggregate.js';
import { compileDelete } from './compile-delete.js';
import { compileClearForeignKeys, compileReferencing, compileSetForeignKeys } from './compile-foreign-keys.js';
import { compileInsert, compileInsertReturning } from './compile-insert.js';
import { compileDeleteJoinRows, compileInsertJoinRows, compileJoinedValues } from './compile-join-rows.js';
import { compileJoinValues } from './compile-join-values.js';
import { compileExistingKeys, compileKeys } from './compile-keys.js';
import { compileLockedRow } from './compile-locked-row.js';
import { compileList, type ListPlan, type ListRequest } from './compile-list.js';
import { compileOutside } from './compile-outside.js';
import { compileOwner } from './compile-owner.js';
import { compileRelated, type RelatedRow } from './compile-related.js';
import { compileRow } from './compile-row.js';
import type { Scope } from './compile-scope.js';
import { compileUnlink, type LinkOwner, type LinkTarget } from './compile-unlink.js';
import { compileUpdate } from './compile-update.js';
import type { Dialect } from './dialect.js';
import type { CompileContext } from './field-expression.js';
import type { ResourceRow } from './resource-row.js';
import type { Relations } from './row-linkage.js';
import type { RowAction, RowScopes } from './row-scopes.js';
import type { Selection } from './selection.js';
import type { RowsStatement, Statement } from './statement.js';

/**
 * Compiles requests into statements for one database: every statement the server sends is built here, as
 * text in the driver's placeholders, its values, and how to decode its answer. Compiling does no I/O:
 * `knex` serves only as knex's query builder for the dialect's SQL; `runStatement` runs what this makes,
 * on a pool, a replica's pool or a transaction.
 *
 * A compiler with row scopes (`scoped`) restricts every table source of every statement to the caller's rows:
 * see RowScopes and table-source.ts.
 */
export class SqlCompiler {
  constructor(
    /** A knex instance of the database's client, used to build statements, never to run them. */
    readonly knex: Knex,
    readonly dialect: Dialect,
    readonly registry: Registry,
    /** The caller's row scopes, compiled into every table source; none, every row (see `scoped`). */
    readonly scopes?: RowScopes,
  ) {}

  /**
   * The same compiler for one caller: every statement it compiles reads, counts, links, updates and deletes
   * only the rows `scopes` lets that caller reach. Cheap (one object sharing knex, dialect and registry),
   * made per request. Its statements are never kept in, nor taken from, the shape caches of unscoped ones.
   */
  scoped(scopes: RowScopes): SqlCompiler {
    return new SqlCompiler(this.knex, this.dialect, this.registry, scopes);
  }

  /** A fresh compile context: table aliases start again at t0. */
  private context(): CompileContext {
    const { knex, dialect, registry, scopes } = this;
    const aliases = new Aliases();
    return scopes ? { knex, dialect, registry, aliases, scopes } : { knex, dialect, registry, aliases };
  }

  /** A list read: its page, its total, its scope's owner; see ListPlan. */
  list(request: ListRequest): ListPlan {
    return compileList(this.context(), request);
  }

  /** One row by key (within a scope), with the linkage the compiler carries of `relations`. */
  row(model: ModelSchema, key: KeyValue, relations?: Relations, scope?: Scope): RowsStatement<ResourceRow | undefined> {
    return compileRow(this.context(), model, key, relations, scope);
  }

  /** One row by key, locked for the rest of the transaction where the dialect locks rows (a conditional write). */
  lockedRow(model: ModelSchema, key: KeyValue): RowsStatement<ResourceRow | undefined> {
    return compileLockedRow(this.context(), model, key);
  }

  /** Whether a scope's owner exists. */
  owner(scope: Scope): Statement<boolean> {
    return compileOwner(this.context(), scope);
  }

  /** The targets of a relationship for many owners: their keys, or with `relations` the targets in full. */
  related(
    rel: RelationshipSchema,
    ownerValues: readonly unknown[],
    relations?: Relations,
  ): RowsStatement<RelatedRow[]> {
    return compileRelated(this.context(), rel, ownerValues, relations);
  }

  /** An evaluation's values (whitelisted functions only). */
  aggregate(model: ModelSchema, functions: readonly FunctionCall[], filter?: Filter): Statement<unknown[]> {
    return compileAggregate(this.context(), model, functions, filter);
  }

  /**
   * Keys of the rows a filter matches (all rows without one): under row scopes, of the rows the caller may
   * `action` (default read; a bulk update or delete asks for its own).
   */
  keys(model: ModelSchema, filter?: Filter, action: RowAction = 'read'): Statement<unknown[]> {
    return compileKeys(this.context(), model, filter, action);
  }

  /**
   * Which of these keys name no row meeting `filter` (a rule's `check`, or the update scope a row must not
   * leave): run in the write's transaction before COMMIT. Compiled without row scopes, the filter included.
   */
  outside(model: ModelSchema, keys: readonly unknown[], filter: Filter): Statement<unknown[]> {
    return compileOutside(this.context(), model, keys, filter);
  }

  /** Which of these keys name a row. */
  existingKeys(model: ModelSchema, keys: readonly unknown[]): Statement<Set<string>> {
    return compileExistingKeys(this.context(), model, keys);
  }

  /** The join values of a relationship's targets by key. */
  joinValues(rel: RelationshipSchema, keys: readonly unknown[]): Statement<Map<string, unknown>> {
    return compileJoinValues(this.context(), rel, keys);
  }

  /** INSERT of one row, answering its key. */
  insert(model: ModelSchema, values: Readonly<Record<string, unknown>>): Statement<unknown> {
    return compileInsert(this.context(), model, values);
  }

  /**
   * INSERT … RETURNING the row in its read form: a bare create in one statement, where `dialect.returning`
   * or where the server says it returns inserted rows (`dialect.returnsInsertedRows`). Under row scopes,
   * only where the dialect can refuse a write from within its statement (`refuseUnless`): the statement then
   * fails, writing nothing, unless the new row is readable, meets `check` and links only readable rows.
   */
  insertReturning(
    model: ModelSchema,
    values: Readonly<Record<string, unknown>>,
    relations: Relations,
    check?: Filter,
  ): RowsStatement<ResourceRow> {
    return compileInsertReturning(this.context(), model, values, relations, check);
  }

  /** The key generator moved past a key the client chose, where the database needs it. */
  advanceKey(model: ModelSchema): Statement<void> | undefined {
    return compileAdvanceKey(this.context(), model);
  }

  update(model: ModelSchema, keys: readonly unknown[], values: Readonly<Record<string, unknown>>): Statement<number> {
    return compileUpdate(this.context(), model, keys, values);
  }

  delete(model: ModelSchema, keys: readonly unknown[]): Statement<number> {
    return compileDelete(this.context(), model, keys);
  }

  /** Whether targets of a `has` relationship still refer to an owner. */
  referencing(rel: RelationshipSchema, own: unknown): Statement<boolean> {
    return compileReferencing(this.context(), rel, own);
  }

  /** A `has` relationship: these targets now point at the owner. */
  setForeignKeys(rel: RelationshipSchema, own: unknown, keys: readonly unknown[]): Statement<number> {
    return compileSetForeignKeys(this.context(), rel, own, keys);
  }

  /** A `has` relationship: the selected targets of the owner point at nothing any more. */
  clearForeignKeys(rel: RelationshipSchema, own: unknown, keys: Selection): Statement<number> {
    return compileClearForeignKeys(this.context(), rel, own, keys);
  }

  /** A join table: rows from the owner to these target join values. */
  insertJoinRows(rel: RelationshipSchema, own: unknown, values: readonly unknown[]): Statement<number> {
    return compileInsertJoinRows(this.context(), rel, own, values);
  }

  /** A join table: the selected rows of the owner go. */
  deleteJoinRows(rel: RelationshipSchema, own: unknown, values: Selection): Statement<number> {
    return compileDeleteJoinRows(this.context(), rel, own, values);
  }

  /** A join table: which of these target join values the owner has rows to. */
  joinedValues(rel: RelationshipSchema, own: unknown, values: readonly unknown[]): Statement<Set<string>> {
    return compileJoinedValues(this.context(), rel, own, values);
  }

  /** One target out of one owner's relationship, if it is in it: answers 1, or 0 when it was not. */
  unlink(owner: LinkOwner, rel: RelationshipSchema, target: LinkTarget): Statement<number> {
    return compileUnlink(this.context(), owner, rel, target);
  }
}
