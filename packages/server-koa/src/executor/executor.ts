import type { CollectionSchema, Registry } from '@colapi/schema';
import {
  ApiError,
  type CursorPaging,
  emptyReadQuery,
  type Filter,
  type Operation,
  type OperationResult,
  type RelatedScope,
  type ScalarValue,
} from '@colapi/query-ast';
import {
  driverError,
  errorKind,
  NO_RELATIONS,
  runList,
  runStatement,
  type Database,
  type Relations,
  type ResourceRow,
  type Scope,
  type SqlCompiler,
  type Statement,
} from '@colapi/sql-compiler';
import type { Knex } from 'knex';
import { databaseError, isPoolTimeout } from '../database-errors.js';
import { cursorList } from './cursor-list.js';
import { InsertedRows } from './inserted-rows.js';
import { keyIn } from './key-filter.js';
import { keyValue } from './keys.js';
import { NewRowRelations, newRowRead, withEmptyLinkage } from './new-row-relations.js';
import { ResourceGraph, type Read } from './resource-graph.js';
import { DEFAULT_RETRY_BUDGET } from './retry-budget.js';
import { inTransaction } from './transaction.js';
import type { WriteAction, WriteRules } from './write-rules.js';
import { Writer } from './writer.js';

type Op<K extends Operation['kind']> = Extract<Operation, { kind: K }>;

const WRITES: ReadonlySet<Operation['kind']> = new Set(['create', 'update', 'update-many', 'delete', 'update-linkage']);

/**
 * Runs operations against the database: the only stage that does I/O. It asks the compiler for every
 * statement, runs each through the one runner (runStatement) on the pool, a replica's pool or the
 * request's transaction, and turns their answers into results.
 */
export class Executor {
  readonly graph: ResourceGraph;
  readonly writer: Writer;
  readonly newRows: NewRowRelations;
  readonly insertedRows: InsertedRows;
  /** Settles once the reads made at start are over (foreign keys, whether INSERT returns rows). Never rejects. */
  readonly ready: Promise<void>;

  constructor(
    readonly compiler: SqlCompiler,
    readonly registry: Registry,
    /** Where statements run: the primary's pool, and read replicas for reads outside a write when it has them. */
    readonly database: Database,
    /** Milliseconds a write may go on retrying deadlocks and serialization failures (`inTransaction`). */
    readonly retryBudget = DEFAULT_RETRY_BUDGET,
    /** Another executor whose start-up reads this one shares (`view`). */
    shared?: Executor,
    /** The caller's write rules, under access control (`view`). */
    readonly rules?: WriteRules,
    /** What each request's transaction runs first (access control's native mode); every request then has one. */
    readonly prelude?: (db: Knex) => Promise<unknown>,
  ) {
    this.graph = new ResourceGraph(compiler, registry);
    this.writer = new Writer(compiler, registry);
    this.newRows = shared?.newRows ?? new NewRowRelations(compiler, registry, database.knex);
    this.insertedRows = shared?.insertedRows ?? new InsertedRows(compiler.dialect, database.knex);
    this.ready = shared?.ready ?? Promise.all([this.newRows.ready, this.insertedRows.ready]).then(() => undefined);
  }

  /**
   * The same executor for one caller: its statements from `compiler` (a scoped one), its collections from
   * `registry` (the caller's view of them), its writes under `rules`; what was read at start is shared.
   */
  view(
    compiler: SqlCompiler,
    registry: Registry,
    rules?: WriteRules,
    prelude?: (db: Knex) => Promise<unknown>,
  ): Executor {
    return new Executor(compiler, registry, this.database, this.retryBudget, this, rules, prelude);
  }

  /** The primary's pool. */
  get knex(): Knex {
    return this.database.knex;
  }

  /**
   * Runs an operation on `db`: the pool, or the transaction of `inTransactionOf`. A write given the pool
   * opens a transaction of its own.
   */
  async run(operation: Operation, db: Knex = this.knex): Promise<OperationResult> {
    switch (operation.kind) {
      case 'list':
        return this.list(db, operation);
      case 'fetch':
        return this.fetch(db, operation);
      case 'fetch-related-one':
        return this.fetchRelatedOne(db, operation);
      case 'fetch-linkage':
        return this.fetchLinkage(db, operation);
      case 'evaluate':
        return this.evaluate(db, operation);
      case 'create':
        if (!db.isTransaction && this.oneStatement(operation)) return this.createInOneStatement(db, operation);
        return this.write(db, (trx) => this.create(trx, operation));
      case 'update':
        return this.write(db, (trx) => this.update(trx, operation));
      case 'update-many':
        return this.write(db, (trx) => this.updateMany(trx, operation));
      case 'delete':
        return this.write(db, (trx) => this.remove(trx, operation));
      case 'update-linkage':
        return this.write(db, (trx) => this.updateLinkage(trx, operation));
    }
  }

  /**
   * Runs `work` inside the one transaction of a write request (on the pool for a read), so that what runs
   * around the operation — its hooks — commits or rolls back with it: an after hook that throws undoes the write.
   */
  inTransactionOf<T>(
    operation: Operation,
    work: (db: Knex) => Promise<T>,
    hooked = true,
    fromPrimary = false,
  ): Promise<T> {
    const prelude = this.prelude;
    if (prelude) {
      // Native mode: every request, reads too, in a transaction whose first statement sets who asks.
      const first = async (trx: Knex) => {
        await prelude(trx);
        return work(trx);
      };
      if (!WRITES.has(operation.kind)) return this.read((db) => db.transaction(first), fromPrimary);
      return inTransaction(this.knex, this.compiler.dialect, first, this.retryBudget);
    }
    if (!WRITES.has(operation.kind)) return this.read(work, fromPrimary);
    const needed = hooked || !this.oneStatement(operation);
    return needed ? inTransaction(this.knex, this.compiler.dialect, work, this.retryBudget) : work(this.knex);
  }

  /**
   * A read outside any write, on a replica when one serves (unless `fromPrimary`). When the replica fails it
   * in a way the primary would not (its connection is lost, it is shutting down, replay cancelled the
   * statement), it leaves the rotation and the read runs again on the primary: a read changes nothing, so
   * running it twice is safe, and the client gets its answer instead of a 5xx.
   */
  private read<T>(work: (db: Knex) => Promise<T>, fromPrimary: boolean): Promise<T> {
    const replica = fromPrimary ? undefined : this.database.replicas?.pick();
    // Not an async function: without a replica the work's own promise is the answer, one turn fewer.
    return replica ? this.readOnReplica(work, replica) : work(this.knex);
  }

  private async readOnReplica<T>(work: (db: Knex) => Promise<T>, replica: Knex): Promise<T> {
    try {
      return await work(replica);
    } catch (error) {
      if (!this.replicaFault(error)) throw error;
      this.database.replicas!.failed(replica, error);
      return work(this.knex);
    }
  }

  private replicaFault(error: unknown): boolean {
    const kind = errorKind(this.compiler.dialect, error);
    return kind === 'unavailable' || kind === 'serialization' || isPoolTimeout(error);
  }

  /**
   * Whether this executor runs the operation as one statement outside a transaction: a create of a bare
   * resource (no relationships, no client id), whose only write is one INSERT, atomic by itself, so BEGIN and
   * COMMIT would only add two round trips. Where the database returns inserted rows the INSERT answers the
   * whole row; elsewhere (MySQL, or before MariaDB has said it does) the row is read back by its new key.
   * Under write rules, only where the INSERT can refuse itself (`Dialect.refuseUnless`) and returns its row,
   * so that the rules are checked within the statement (compile-insert.ts) and a refused create writes nothing.
   */
  oneStatement(operation: Operation): operation is Op<'create'> {
    if (
      operation.kind !== 'create' ||
      operation.id !== undefined ||
      Object.keys(operation.write.relationships).length > 0
    )
      return false;
    return !this.rules || (this.compiler.dialect.refuseUnless !== undefined && this.insertedRows.returned());
  }

  private exec<T>(db: Knex, statement: Statement<T>): Promise<T> {
    return runStatement(db, this.compiler.dialect, statement);
  }

  private async createInOneStatement(db: Knex, op: Op<'create'>): Promise<OperationResult> {
    const { collection, query } = op;
    const relations = this.graph.relations(collection, query);
    // What the new row provably has no linkage in is not read: it is empty.
    const model = collection.model;
    const { fetched, empty } = newRowRead(relations, this.newRows.known(model) ?? (await this.newRows.of(model)));
    const rules = this.rules;
    const values = rules ? rules.write('create', collection, op.write).values : op.write.values;
    let read: Read;
    if (this.insertedRows.returned()) {
      const insert = this.compiler.insertReturning(model, values, fetched, rules?.after('create', collection));
      try {
        read = { rows: [await this.exec(db, insert)], carried: insert.carried };
      } catch (error) {
        // The rules refused the row and nothing was written: the create runs again in a transaction, whose
        // checks tell which rule refused (404 for a target or a row the caller cannot read, 403 for a check).
        if (rules && this.compiler.dialect.refused?.(driverError(error)))
          return this.write(db, (trx) => this.create(trx, op));
        throw error;
      }
    } else {
      const key = await this.exec(db, this.compiler.insert(model, values));
      read = await this.row(db, collection, String(key), fetched);
    }
    if (empty.length) read = withEmptyLinkage(read, empty);
    const [resource] = await this.graph.load(db, collection, read, relations, query);
    return { kind: 'resource', resource: resource!, created: true };
  }

  /** Every write runs in one transaction; any error rolls all of it back. */
  private write(db: Knex, work: (trx: Knex) => Promise<OperationResult>): Promise<OperationResult> {
    return db.isTransaction ? work(db) : inTransaction(db, this.compiler.dialect, work, this.retryBudget);
  }

  async evaluate(db: Knex, op: Op<'evaluate'>): Promise<OperationResult> {
    if (op.functions.length === 0) return { kind: 'values', values: [] };
    return {
      kind: 'values',
      values: await this.exec(db, this.compiler.aggregate(op.collection.model, op.functions, op.filter)),
    };
  }

  /** The resource as the request shows it, read back after a write. */
  private async shown(trx: Knex, collection: CollectionSchema, id: string, query: Op<'create' | 'update'>['query']) {
    const relations = this.graph.relations(collection, query);
    const [resource] = await this.graph.load(
      trx,
      collection,
      await this.row(trx, collection, id, relations),
      relations,
      query,
    );
    return resource!;
  }

  async create(trx: Knex, op: Op<'create'>): Promise<OperationResult> {
    const write = this.rules ? this.rules.write('create', op.collection, op.write) : op.write;
    await this.targetsReadable(trx, op.collection, write.values);
    const key = await this.writer.create(trx, op.collection, write, op.id);
    await this.verify(trx, 'create', op.collection, [key]);
    return { kind: 'resource', resource: await this.shown(trx, op.collection, String(key), op.query), created: true };
  }

  /**
   * Under write rules, a foreign key written as a column must name a row the caller can read: one it cannot
   * is answered exactly as one that does not exist (the database's own 404 for a missing related row), or
   * the write's outcome would tell which ids another tenant holds.
   */
  private async targetsReadable(trx: Knex, collection: CollectionSchema, values: Readonly<Record<string, unknown>>) {
    if (!this.rules) return;
    for (const rel of collection.model.relationships.values()) {
      const join = rel.join;
      if (join.kind !== 'belongs-to') continue;
      const value = values[join.ownColumn];
      if (value === null || value === undefined) continue;
      const target = this.compiler.registry.models.get(rel.target)!;
      const byValue: Filter = {
        kind: 'compare',
        field: { relations: [], column: join.targetColumn },
        op: 'eq',
        value: value as ScalarValue,
      };
      if ((await this.exec(trx, this.compiler.keys(target, byValue))).length === 0) {
        throw databaseError('foreign-key-missing');
      }
    }
  }

  /**
   * Under write rules: 403 unless the caller may `action` the row of `key`, which it can read (the 404 of
   * a row it cannot read comes first, from reading it).
   */
  private async permitted(trx: Knex, collection: CollectionSchema, key: unknown, action: 'update' | 'delete') {
    if (!this.rules) return;
    const model = collection.model;
    // One key `in` a list of it: `key = ?` on a one-column key, its parts' comparisons on a composite one.
    const byKey: Filter =
      model.keyColumns.length === 1
        ? { kind: 'compare', field: { relations: [], column: model.key }, op: 'eq', value: key as ScalarValue }
        : keyIn(model, 'in', [key]);
    const found = await this.exec(trx, this.compiler.keys(model, byKey, action));
    if (found.length === 0)
      throw new ApiError(403, 'Forbidden', `this ${collection.name} may not be ${action}d by the caller`);
  }

  /** Under write rules, in the write's transaction: 403 (so a rollback) when a written row breaks them. */
  private async verify(trx: Knex, action: WriteAction, collection: CollectionSchema, keys: readonly unknown[]) {
    const filter = this.rules?.after(action, collection);
    if (!filter || keys.length === 0) return;
    const outside = await this.exec(trx, this.compiler.outside(collection.model, keys, filter));
    if (outside.length) {
      throw new ApiError(
        403,
        'Forbidden',
        action === 'create'
          ? `the new ${collection.name} does not meet the rules of the caller's role`
          : `the ${collection.name} as updated would leave what the caller's role may update, or break its check`,
      );
    }
  }

  async update(trx: Knex, op: Op<'update'>): Promise<OperationResult> {
    const before = await this.row(trx, op.collection, op.id);
    const key = before.rows[0]!.values[op.collection.model.key];
    await this.permitted(trx, op.collection, key, 'update');
    const write = this.rules ? this.rules.write('update', op.collection, op.write) : op.write;
    await this.targetsReadable(trx, op.collection, write.values);
    await this.writer.update(trx, op.collection, key, write);
    await this.verify(trx, 'update', op.collection, [key]);
    return { kind: 'resource', resource: await this.shown(trx, op.collection, op.id, op.query) };
  }

  async updateMany(trx: Knex, op: Op<'update-many'>): Promise<OperationResult> {
    const model = op.collection.model;
    // Under write rules only the rows the caller may update are selected, and counted.
    const values = this.rules ? this.rules.values(op.collection, op.values) : op.values;
    await this.targetsReadable(trx, op.collection, values);
    const keys = await this.exec(trx, this.compiler.keys(model, op.filter, this.rules ? 'update' : 'read'));
    for (let i = 0; i < keys.length; i += 500) {
      if (Object.keys(values).length) await this.exec(trx, this.compiler.update(model, keys.slice(i, i + 500), values));
    }
    await this.verify(trx, 'update', op.collection, keys);
    return { kind: 'count', count: keys.length };
  }

  async remove(trx: Knex, op: Op<'delete'>): Promise<OperationResult> {
    const key = keyValue(op.collection.model, op.id, op.collection.name);
    if (this.rules) {
      await this.row(trx, op.collection, op.id);
      await this.permitted(trx, op.collection, key, 'delete');
    }
    await this.writer.remove(trx, op.collection, key, op.id);
    return { kind: 'no-content' };
  }

  async updateLinkage(trx: Knex, op: Op<'update-linkage'>): Promise<OperationResult> {
    const { collection, relation } = op;
    const before = await this.row(trx, collection, op.id);
    const key = before.rows[0]!.values[collection.model.key];
    await this.permitted(trx, collection, key, 'update');
    if (this.rules) this.rules.write('update', collection, { values: {}, relationships: { [relation]: op.change } });
    await this.writer.relate(trx, collection, key, relation, op.change);
    await this.verify(trx, 'update', collection, [key]);
    const query = { fields: {}, include: [] };
    const fresh = await this.row(trx, collection, op.id, this.graph.relationshipRelations(collection, relation, query));
    const owner = await this.graph.relationship(trx, collection, fresh, relation, query);
    return {
      kind: 'linkage',
      target: this.registry.target(collection.relationships.get(relation)!),
      linkage: owner.linkage.get(relation)!,
      // Read back in full: the answer's tag of the owner's new version (Resource-ETag) is made from it.
      owner,
    };
  }

  /** A route's scope in the compiler's terms; an owner id that cannot be a key names nothing: 404 at once. */
  private scope(scope: RelatedScope): Scope {
    return { related: scope, ownerKey: keyValue(scope.owner.model, scope.ownerId, scope.owner.name) };
  }

  private ownerMissing(scope: RelatedScope): ApiError {
    return ApiError.notFound(`${scope.owner.name} ${scope.ownerId} does not exist`);
  }

  /**
   * The row of `id` with every column, locked until the write's transaction ends where the dialect locks rows
   * (a conditional write compares its version before writing); 404 when there is none.
   */
  async lockedRow(db: Knex, collection: CollectionSchema, id: string): Promise<ResourceRow> {
    const model = collection.model;
    const row = await this.exec(db, this.compiler.lockedRow(model, keyValue(model, id, collection.name)));
    if (!row) throw ApiError.notFound(`${collection.name} ${id} does not exist`);
    return row;
  }

  /** One row by its id, or 404, with the linkage the compiler carries of `relations`. */
  async row(
    db: Knex,
    collection: CollectionSchema,
    id: string,
    relations: Relations = NO_RELATIONS,
    scope?: Scope,
  ): Promise<Read> {
    const statement = this.compiler.row(
      collection.model,
      keyValue(collection.model, id, collection.name),
      relations,
      scope,
    );
    const row = await this.exec(db, statement);
    if (!row) {
      const owner = scope?.related.owner.model;
      const where = scope ? ` among the ${scope.related.relation} of ${owner!.name} ${String(scope.ownerKey)}` : '';
      throw ApiError.notFound(`${collection.name} ${id} does not exist${where}`);
    }
    return { rows: [row], carried: statement.carried };
  }

  async list(db: Knex, op: Op<'list'>): Promise<OperationResult> {
    const { collection, query } = op;
    const relations = this.graph.relations(collection, query);
    if (query.paging.cursor) return this.cursorList(db, op, query.paging.cursor, relations);
    const plan = this.compiler.list({
      collection,
      query,
      relations,
      ...(op.scope ? { scope: this.scope(op.scope) } : {}),
    });
    const answer = await runList(db, this.compiler.dialect, plan);
    if (answer.ownerExists === false) throw this.ownerMissing(op.scope!);
    const { rows } = answer;
    if (query.single && rows.length !== 1) {
      throw rows.length === 0
        ? ApiError.noResult('no resource matches the filter')
        : ApiError.multipleResults('more than one resource matches the filter');
    }
    const resources = await this.graph.load(db, collection, { rows, carried: plan.carried }, relations, query);
    return query.single
      ? { kind: 'collection', resources, paging: query.paging }
      : { kind: 'collection', resources, total: answer.total, paging: query.paging };
  }

  /** A list paged by cursor (cursor-list.ts). */
  private async cursorList(db: Knex, op: Op<'list'>, cursor: CursorPaging, relations: Relations) {
    const { collection, query } = op;
    const scope = op.scope && this.scope(op.scope);
    const answer = await cursorList(db, this.compiler, collection, query, cursor, relations, scope);
    if (answer.ownerExists === false) throw this.ownerMissing(op.scope!);
    const resources = await this.graph.load(db, collection, answer, relations, query);
    const total = answer.total === undefined ? {} : { total: answer.total };
    return { kind: 'collection', resources, paging: query.paging, ends: answer.ends, ...total } as const;
  }

  async fetch(db: Knex, op: Op<'fetch'>): Promise<OperationResult> {
    const scope = op.scope && this.scope(op.scope);
    if (scope && !(await this.exec(db, this.compiler.owner(scope)))) throw this.ownerMissing(op.scope!);
    const relations = this.graph.relations(op.collection, op.query);
    const read = await this.row(db, op.collection, op.id, relations, scope);
    const [resource] = await this.graph.load(db, op.collection, read, relations, op.query);
    return { kind: 'resource', resource: resource! };
  }

  async fetchRelatedOne(db: Knex, op: Op<'fetch-related-one'>): Promise<OperationResult> {
    const { collection } = op;
    const relations = this.graph.relations(collection, op.query);
    const query = { ...emptyReadQuery(), paging: { offset: 0, limit: 1 } };
    const plan = this.compiler.list({ collection, query, relations, scope: this.scope(op.scope), total: 'none' });
    const answer = await runList(db, this.compiler.dialect, plan);
    if (answer.ownerExists === false) throw this.ownerMissing(op.scope);
    const resources = await this.graph.load(
      db,
      collection,
      { rows: answer.rows, carried: plan.carried },
      relations,
      op.query,
    );
    return { kind: 'resource', resource: resources[0] ?? null };
  }

  /** The linkage of a relationship, and the resources the request includes along it, loaded set-wise. */
  async fetchLinkage(db: Knex, op: Op<'fetch-linkage'>): Promise<OperationResult> {
    const { collection, relation, query } = op;
    const read = await this.row(db, collection, op.id, this.graph.relationshipRelations(collection, relation, query));
    const owner = await this.graph.relationship(db, collection, read, relation, query);
    const rel = collection.relationships.get(relation)!;
    return { kind: 'linkage', target: this.registry.target(rel), linkage: owner.linkage.get(relation)!, owner };
  }
}
