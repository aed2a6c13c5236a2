import type { CollectionSchema, Registry, RelationshipSchema } from '@colapi/schema';
import { ApiError, emptyReadQuery, type Operation, type OperationResult, type RelatedScope } from '@colapi/query-ast';
import type { ReplicaSet, Row, ScopeSql, SqlCompiler } from '@colapi/sql-compiler';
import type { Knex } from 'knex';
import { isPoolTimeout } from '../database-errors.js';
import { keyValue } from './keys.js';
import { ResourceGraph } from './resource-graph.js';
import { DEFAULT_RETRY_BUDGET } from './retry-budget.js';
import { inTransaction } from './transaction.js';
import { Writer } from './writer.js';

type Op<K extends Operation['kind']> = Extract<Operation, { kind: K }>;

const WRITES: ReadonlySet<Operation['kind']> = new Set(['create', 'update', 'update-many', 'delete', 'update-linkage']);

/** Runs operations against the database. The only stage that does I/O. */
export class Executor {
  readonly graph: ResourceGraph;
  readonly writer: Writer;

  constructor(
    readonly compiler: SqlCompiler,
    readonly registry: Registry,
    /** Read replicas for reads outside a write; without them every statement runs on the primary. */
    readonly replicas?: ReplicaSet,
    /** Milliseconds a write may go on retrying deadlocks and serialization failures (`inTransaction`). */
    readonly retryBudget = DEFAULT_RETRY_BUDGET,
  ) {
    this.graph = new ResourceGraph(compiler, registry);
    this.writer = new Writer(compiler, registry);
  }

  get knex(): Knex {
    return this.compiler.knex;
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
        if (!db.isTransaction && this.singleStatement(operation)) return this.createInOneStatement(db, operation);
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
  inTransactionOf<T>(operation: Operation, work: (db: Knex) => Promise<T>, hooked = true, fromPrimary = false): Promise<T> {
    if (!WRITES.has(operation.kind)) return this.read(work, fromPrimary);
    const needed = hooked || !this.singleStatement(operation);
    return needed ? inTransaction(this.knex, this.compiler.dialect, work, this.retryBudget) : work(this.knex);
  }

  /**
   * A read outside any write, on a replica when one serves (unless `fromPrimary`). When the replica fails it
   * in a way the primary would not (its connection is lost, it is shutting down, replay cancelled the
   * statement), it leaves the rotation and the read runs again on the primary: a read changes nothing, so
   * running it twice is safe, and the client gets its answer instead of a 5xx.
   */
  private async read<T>(work: (db: Knex) => Promise<T>, fromPrimary: boolean): Promise<T> {
    const replica = fromPrimary ? undefined : this.replicas?.pick();
    if (!replica) return work(this.knex);
    try {
      return await work(replica);
    } catch (error) {
      if (!this.replicaFault(error)) throw error;
      this.replicas!.failed(replica, error);
      return work(this.knex);
    }
  }

  private replicaFault(error: unknown): boolean {
    const kind = this.compiler.dialect.classifyError(error);
    return kind === 'unavailable' || kind === 'serialization' || isPoolTimeout(error);
  }

  /**
   * A create of a bare resource (no relationships, no client id): its only write is one INSERT, atomic by
   * itself, so BEGIN and COMMIT would only add two round trips. Where the database returns inserted rows the
   * INSERT answers the whole row; elsewhere (MySQL) the row is read back by its new key.
   */
  singleStatement(operation: Operation): operation is Op<'create'> {
    return operation.kind === 'create' && operation.id === undefined && Object.keys(operation.write.relationships).length === 0;
  }

  private async createInOneStatement(db: Knex, op: Op<'create'>): Promise<OperationResult> {
    const model = op.collection.model;
    const row = this.compiler.dialect.returning
      ? await this.compiler.insertReturningRow(model, op.write.values)
      : await this.row(db, op.collection, String(await this.compiler.insertGeneratingKey(model, op.write.values)), undefined, this.graph.links(op.collection, op.query));
    const [resource] = await this.graph.load(db, op.collection, [row], op.query);
    return { kind: 'resource', resource: resource!, created: true };
  }

  /** Every write runs in one transaction; any error rolls all of it back. */
  private write(db: Knex, work: (trx: Knex) => Promise<OperationResult>): Promise<OperationResult> {
    return db.isTransaction ? work(db) : inTransaction(db, this.compiler.dialect, work, this.retryBudget);
  }

  async evaluate(db: Knex, op: Op<'evaluate'>): Promise<OperationResult> {
    if (op.functions.length === 0) return { kind: 'values', values: [] };
    const model = op.collection.model;
    // An aggregate is always one row: no `limit ?`, so an unfiltered one needs no bound parameter at all.
    const row = await this.compiler.evaluate(model, op.functions, op.filter, db);
    return { kind: 'values', values: this.compiler.decodeAggregates(model, op.functions, row) };
  }

  async create(trx: Knex, op: Op<'create'>): Promise<OperationResult> {
    const key = await this.writer.create(trx, op.collection, op.write, op.id);
    const row = await this.row(trx, op.collection, String(key), undefined, this.graph.links(op.collection, op.query));
    const [resource] = await this.graph.load(trx, op.collection, [row], op.query);
    return { kind: 'resource', resource: resource!, created: true };
  }

  async update(trx: Knex, op: Op<'update'>): Promise<OperationResult> {
    const before = await this.row(trx, op.collection, op.id);
    const key = before[op.collection.model.key];
    await this.writer.update(trx, op.collection, key, op.write);
    const row = await this.row(trx, op.collection, op.id, undefined, this.graph.links(op.collection, op.query));
    const [resource] = await this.graph.load(trx, op.collection, [row], op.query);
    return { kind: 'resource', resource: resource! };
  }

  async updateMany(trx: Knex, op: Op<'update-many'>): Promise<OperationResult> {
    const model = op.collection.model;
    const keys = (await this.compiler.keys(model, op.filter, trx)).map((r: Row) => r[model.key]);
    for (let i = 0; i < keys.length; i += 500) {
      if (Object.keys(op.values).length) await this.compiler.update(model, keys.slice(i, i + 500), op.values, trx);
    }
    return { kind: 'count', count: keys.length };
  }

  async remove(trx: Knex, op: Op<'delete'>): Promise<OperationResult> {
    await this.writer.remove(trx, op.collection, keyValue(op.collection.model, op.id, op.collection.name), op.id);
    return { kind: 'no-content' };
  }

  async updateLinkage(trx: Knex, op: Op<'update-linkage'>): Promise<OperationResult> {
    const row = await this.row(trx, op.collection, op.id);
    await this.writer.relate(trx, op.collection, row[op.collection.model.key], op.relation, op.change);
    const rel = op.collection.relationships.get(op.relation)!;
    const fresh = await this.row(trx, op.collection, op.id);
    return { kind: 'linkage', target: this.registry.target(rel), linkage: await this.graph.linkage(trx, op.collection, fresh, op.relation) };
  }

  /** The owner row of a related read, or 404; resolves the scope into SQL terms. */
  async scope(db: Knex, scope: RelatedScope): Promise<ScopeSql> {
    const sql = this.scopeSql(scope);
    await this.ownerExists(db, scope, sql);
    return sql;
  }

  /** The SQL terms of a scope; a malformed owner id is a 404 at once. */
  scopeSql(scope: RelatedScope): ScopeSql {
    const owner = scope.owner.model;
    const ownerKey = keyValue(owner, scope.ownerId, scope.owner.name);
    return { owner, ownerKey, relationship: owner.relationships.get(scope.relation)! };
  }

  /** 404 unless the owner of a scope exists. */
  async ownerExists(db: Knex, scope: RelatedScope, sql: ScopeSql): Promise<void> {
    const [found] = await this.compiler.run(this.compiler.byKeys(sql.owner, [sql.ownerKey], undefined, db), db);
    if (!found) throw ApiError.notFound(`${scope.owner.name} ${scope.ownerId} does not exist`);
  }

  /** One row by its id, or 404; `links` as in SqlCompiler.byKeys. */
  async row(db: Knex, collection: CollectionSchema, id: string, scope?: ScopeSql, links?: readonly RelationshipSchema[]): Promise<Row> {
    const key = keyValue(collection.model, id, collection.name);
    const [row] = await this.compiler.run(this.compiler.byKeys(collection.model, [key], scope, db, links).limit(1), db);
    if (!row) {
      const where = scope ? ` among the ${scope.relationship.name} of ${scope.owner.name} ${String(scope.ownerKey)}` : '';
      throw ApiError.notFound(`${collection.name} ${id} does not exist${where}`);
    }
    return row;
  }

  async list(db: Knex, op: Op<'list'>): Promise<OperationResult> {
    const { collection, query } = op;
    const scope = op.scope ? this.scopeSql(op.scope) : undefined;
    // The owner's existence does not change the SQL of the list: check it alongside the rows and the total.
    const owner = op.scope ? this.ownerExists(db, op.scope, scope!) : undefined;
    // Awaited below; this only keeps a 404 from being an unhandled rejection when compiling fails first.
    owner?.catch(() => undefined);
    const sql = this.compiler.list(collection, query, scope, db, this.graph.links(collection, query));
    if (query.single) {
      await owner;
      const rows = await this.compiler.run(sql.rows, db);
      if (rows.length !== 1) {
        throw rows.length === 0
          ? ApiError.noResult('no resource matches the filter')
          : ApiError.multipleResults('more than one resource matches the filter');
      }
      return { kind: 'collection', resources: await this.graph.load(db, collection, rows, query), paging: query.paging };
    }
    const [rows, total] = await Promise.all([
      this.compiler.run(sql.rows, db),
      this.total(db, collection, sql.count, !!(query.filter || scope || query.group.length)),
      owner,
    ]);
    return { kind: 'collection', resources: await this.graph.load(db, collection, rows, query), total, paging: query.paging };
  }

  /** `meta.total` as the collection chose: exact, the planner's estimate for an unfiltered table, or none. */
  async total(db: Knex, collection: CollectionSchema, count: Knex.QueryBuilder, restricted: boolean): Promise<number | undefined> {
    if (collection.total === 'none') return undefined;
    if (collection.total === 'estimated' && !restricted && this.compiler.dialect.estimateRows) {
      const n = await this.compiler.dialect.estimateRows(db, collection.model.table);
      if (n !== undefined) return n;
    }
    // A count is one row by nature; `first()` would add a `limit ?` the database must parse and bind.
    const [row] = await this.compiler.run(count, db);
    return Number(row?.total ?? 0);
  }

  async fetch(db: Knex, op: Op<'fetch'>): Promise<OperationResult> {
    const scope = op.scope ? await this.scope(db, op.scope) : undefined;
    const row = await this.row(db, op.collection, op.id, scope, this.graph.links(op.collection, op.query));
    const [resource] = await this.graph.load(db, op.collection, [row], op.query);
    return { kind: 'resource', resource: resource! };
  }

  async fetchRelatedOne(db: Knex, op: Op<'fetch-related-one'>): Promise<OperationResult> {
    const scope = await this.scope(db, op.scope);
    const page = { ...emptyReadQuery(), paging: { offset: 0, limit: 1 } };
    const rows = await this.compiler.run(this.compiler.list(op.collection, page, scope, db, this.graph.links(op.collection, op.query)).rows, db);
    const resources = await this.graph.load(db, op.collection, rows, op.query);
    return { kind: 'resource', resource: resources[0] ?? null };
  }

  /** The linkage of a relationship, and the resources the request includes along it, loaded set-wise. */
  async fetchLinkage(db: Knex, op: Op<'fetch-linkage'>): Promise<OperationResult> {
    const row = await this.row(db, op.collection, op.id, undefined, this.graph.relationshipLinks(op.collection, op.relation, op.query));
    const rel = op.collection.relationships.get(op.relation)!;
    const owner = await this.graph.relationship(db, op.collection, row, op.relation, op.query);
    return { kind: 'linkage', target: this.registry.target(rel), linkage: owner.linkage.get(op.relation)!, owner };
  }
}
