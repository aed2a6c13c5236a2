import type { Database } from '@colapi/sql-compiler';
import type { Knex } from 'knex';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { retryObservers } from '../executor/retry-observers.js';

/** What createApi tells of one request, once it is answered. */
export type RequestDone = (collection: string, operation: string, method: string, status: number) => void;

/** knex's pool (tarn): the figures read at each scrape, and the events counted. */
interface Pool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  on(event: 'acquireFail', listener: (eventId: number, error: unknown) => void): void;
  removeListener(event: 'acquireFail', listener: (eventId: number, error: unknown) => void): void;
}

/** Methods a request may use; any other counts as `other`, so that a client cannot add label values. */
const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS']);

/**
 * The Prometheus metrics of one process serving colapi, in a registry of their own (`registry`), with
 * prom-client's default process metrics. Give it to createApi (`metrics`) for the request figures, and
 * `observe` each open database for its pools, statements, retries and replicas; nothing is measured on a
 * request's path without it. Every label value is bounded: collections and operations come from the
 * registry and the decoded operation, never from the URL, and no id appears.
 */
export class ApiMetrics {
  readonly registry = new Registry();
  readonly #databases = new Map<Database, () => void>();
  readonly #duration: Histogram<'collection' | 'operation' | 'method' | 'status_class'>;
  readonly #inFlight: Gauge;
  readonly #acquireTimeouts: Counter<'pool'>;
  readonly #statements: Counter<'outcome'>;
  readonly #timeouts: Counter;
  readonly #retries: Counter;
  readonly #exhausted: Counter;
  readonly #reloads: Counter<'outcome'>;
  readonly #refusals: Counter<'status' | 'reason'>;
  readonly #byWorker: Counter<'worker'> | undefined;
  readonly #worker: string | undefined;

  /**
   * `worker`: in a cluster worker, its name (the process id): requests are also counted by worker
   * (`colapi_worker_requests_total{worker}`), which a primary's summed metrics keep apart.
   */
  constructor(options: { readonly prefix?: string; readonly defaultMetrics?: boolean; readonly worker?: string } = {}) {
    const p = options.prefix ?? 'colapi_';
    const registers = [this.registry];
    this.#duration = new Histogram({
      name: `${p}http_request_duration_seconds`,
      help: 'Time from the request head to the answer written, by collection, operation kind, method and status class',
      labelNames: ['collection', 'operation', 'method', 'status_class'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.#inFlight = new Gauge({
      name: `${p}http_requests_in_flight`,
      help: 'Requests begun and not yet answered',
      registers,
    });
    const databases = this.#databases;
    const poolGauge = (name: string, help: string, read: (pool: Pool) => number) =>
      new Gauge({
        name: `${p}${name}`,
        help,
        labelNames: ['pool'],
        registers,
        collect() {
          this.reset();
          for (const database of databases.keys())
            for (const [label, knex] of pools(database)) {
              const pool = poolOf(knex);
              if (pool) this.inc({ pool: label }, read(pool));
            }
        },
      });
    poolGauge('pool_connections_in_use', 'Connections lent to a statement or a transaction', (pool) => pool.numUsed());
    poolGauge('pool_connections_idle', 'Open connections waiting in the pool', (pool) => pool.numFree());
    poolGauge('pool_acquires_waiting', 'Statements waiting for a connection', (pool) => pool.numPendingAcquires());
    this.#acquireTimeouts = new Counter({
      name: `${p}pool_acquire_timeouts_total`,
      help: 'Waits for a connection that ran out of time (the request answered 503)',
      labelNames: ['pool'],
      registers,
    });
    this.#statements = new Counter({
      name: `${p}statements_total`,
      help: 'Statements run, by outcome: ok, or the kind of error the dialect classified (other when none)',
      labelNames: ['outcome'],
      registers,
    });
    this.#timeouts = new Counter({
      name: `${p}statement_timeouts_total`,
      help: 'Statements the database cancelled for running past the statement timeout',
      registers,
    });
    this.#retries = new Counter({
      name: `${p}transaction_retries_total`,
      help: 'Write transactions run again after a deadlock or serialization failure',
      registers,
    });
    this.#exhausted = new Counter({
      name: `${p}transaction_retry_budget_exhausted_total`,
      help: 'Writes that answered 503 because the next retry would have ended past the retry budget',
      registers,
    });
    new Gauge({
      name: `${p}replica_serving`,
      help: 'Whether a read replica is in the rotation (1) or out of it (0); averaged over workers',
      labelNames: ['replica'],
      aggregator: 'average',
      registers,
      collect() {
        this.reset();
        for (const database of databases.keys())
          for (const r of database.replicas?.state() ?? []) this.set({ replica: r.replica }, r.serving ? 1 : 0);
      },
    });
    new Gauge({
      name: `${p}replica_lag_seconds`,
      help: "A read replica's lag behind its primary at its last successful check; the largest over workers",
      labelNames: ['replica'],
      aggregator: 'max',
      registers,
      collect() {
        this.reset();
        for (const database of databases.keys())
          for (const r of database.replicas?.state() ?? [])
            if (r.lag !== undefined) this.set({ replica: r.replica }, r.lag / 1000);
      },
    });
    this.#reloads = new Counter({
      name: `${p}catalogue_reloads_total`,
      help: 'Readings of the catalogue and configuration after start (SIGHUP), by outcome: ok or failed',
      labelNames: ['outcome'],
      registers,
    });
    this.#refusals = new Counter({
      name: `${p}access_refusals_total`,
      help: 'Requests refused by access control, by status (401 or 403) and reason',
      labelNames: ['status', 'reason'],
      registers,
    });
    this.#worker = options.worker;
    this.#byWorker =
      options.worker === undefined
        ? undefined
        : new Counter({
            name: `${p}worker_requests_total`,
            help: 'Requests answered, by the cluster worker (its process id) that answered them',
            labelNames: ['worker'],
            registers,
          });
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  /** Called by createApi as a request begins; the answer is told to the function returned. */
  begin(): RequestDone {
    const start = performance.now();
    this.#inFlight.inc();
    return (collection, operation, method, status) => {
      this.#inFlight.dec();
      if (this.#worker !== undefined) this.#byWorker?.inc({ worker: this.#worker });
      this.#duration.observe(
        {
          collection,
          operation,
          method: METHODS.has(method) ? method : 'other',
          status_class: `${Math.floor(status / 100)}xx`,
        },
        (performance.now() - start) / 1000,
      );
    };
  }

  /** A request refused by access control; `reason` is @colapi/auth's failure reason, or `rule`. */
  refused(status: 401 | 403, reason: string): void {
    this.#refusals.inc({ status: String(status), reason });
  }

  /** A reading of the catalogue after start. */
  reloaded(ok: boolean): void {
    this.#reloads.inc({ outcome: ok ? 'ok' : 'failed' });
  }

  /**
   * Counts the statements, retries and acquire timeouts of `database` and reports its pools and replicas at
   * each scrape, until `forget` (a closed database is forgotten by whoever closes it).
   */
  observe(database: Database): void {
    if (this.#databases.has(database)) return;
    const { dialect } = database;
    const undo: (() => void)[] = [];
    for (const [label, knex] of pools(database)) {
      const response = () => this.#statements.inc({ outcome: 'ok' });
      // knex's event carries the statement text: classified as runStatement classifies it.
      const failure = (error: unknown, statement: { sql: string }) => {
        const kind = dialect.classifyError(error, statement);
        this.#statements.inc({ outcome: kind ?? 'other' });
        if (kind === 'timeout') this.#timeouts.inc();
      };
      knex.on('query-response', response);
      knex.on('query-error', failure);
      const pool = poolOf(knex);
      // tarn's TimeoutError keeps the name Error: its class tells it from a failed connection attempt.
      const acquireFail = (_: number, error: unknown) => {
        if ((error as object | undefined)?.constructor?.name === 'TimeoutError')
          this.#acquireTimeouts.inc({ pool: label });
      };
      pool?.on('acquireFail', acquireFail);
      retryObservers.set(knex, { retried: () => this.#retries.inc(), exhausted: () => this.#exhausted.inc() });
      undo.push(() => {
        knex.off('query-response', response);
        knex.off('query-error', failure);
        pool?.removeListener('acquireFail', acquireFail);
        retryObservers.delete(knex);
      });
    }
    this.#databases.set(database, () => {
      for (const u of undo) u();
    });
  }

  /** Stops observing `database` (closed, or replaced by a reload). */
  forget(database: Database): void {
    this.#databases.get(database)?.();
    this.#databases.delete(database);
  }
}

/** The primary's pool and each replica's, named for the `pool` label. */
function pools(database: Database): [string, Knex][] {
  const list: [string, Knex][] = [['primary', database.knex]];
  const replicas = database.replicas;
  if (replicas) for (const [replica, knex] of replicas.pools()) list.push([replica, knex]);
  return list;
}

function poolOf(knex: Knex): Pool | undefined {
  return (knex.client as { pool?: Pool }).pool;
}
