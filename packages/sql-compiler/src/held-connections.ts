import type { Knex } from 'knex';

/** The parts of knex's pool (tarn) used here, all public: its events and its count of waiting acquires. */
interface PoolEvents {
  on(event: 'acquireRequest' | 'poolDestroyRequest', listener: () => void): void;
  numPendingAcquires(): number;
}

interface KnexClientInternals {
  readonly pool?: PoolEvents;
  readonly config: { readonly pool?: Record<string, unknown> };
  /** Set by knex when the connection settings come from a function (they may expire). */
  readonly connectionConfigProvider?: unknown;
  validateConnection(connection: unknown): boolean;
}

/** How long a held connection may sit unused before it goes back to the pool, where idle connections expire. */
const IDLE_MS = 1000;

/**
 * Connections the compiled statements keep between them instead of handing each back to knex's pool and
 * acquiring it again: a pool acquire (a pending operation with its own timeout timer and promise chain) had
 * cost about as much CPU as the driver's work for a statement, and several kilobytes of garbage.
 *
 * A statement takes the connection released last, checked as the pool checks it (not disposed, still valid).
 * Everything else still goes through the pool and finds it as before:
 * - a connection is handed back to the pool at once whenever anybody waits for one (`numPendingAcquires`);
 * - when anybody asks the pool for a connection (a transaction, knex's own queries), every held one goes back
 *   first (tarn's `acquireRequest` event), so they are never starved;
 * - held connections unused for a second go back, and all of them when the pool is destroyed.
 * A pool that validates connections its own way (`validate`, a maximum lifetime, expiring connection settings)
 * is always used as it is.
 */
export class HeldConnections {
  private readonly idle: unknown[] = [];
  private usedSinceTick = false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(
    private readonly client: Knex.Client,
    private readonly pool: PoolEvents,
  ) {
    pool.on('acquireRequest', () => this.returnAll());
    pool.on('poolDestroyRequest', () => {
      this.closed = true;
      this.returnAll();
    });
  }

  /** The client's held connections, or undefined when its pool must see every acquire. */
  static of(client: Knex.Client): HeldConnections | undefined {
    let held = registry.get(client);
    if (held === undefined) {
      held = usable(client) ? new HeldConnections(client, (client as unknown as KnexClientInternals).pool!) : null;
      registry.set(client, held);
    }
    return held ?? undefined;
  }

  /** A held connection that is still good, or undefined (then acquire one from the pool). */
  take(): unknown {
    const { idle } = this;
    while (idle.length > 0) {
      const connection = idle.pop();
      if (isGood(this.client, connection)) {
        this.usedSinceTick = true;
        return connection;
      }
      // The pool validates it at its next acquire and destroys it.
      void this.client.releaseConnection(connection);
    }
    return undefined;
  }

  /** A connection a statement is done with: kept, or back to the pool when anybody waits for one. */
  give(connection: unknown): void {
    if (this.closed || this.pool.numPendingAcquires() > 0 || !isGood(this.client, connection)) {
      void this.client.releaseConnection(connection);
      return;
    }
    this.idle.push(connection);
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.tick(), IDLE_MS);
      this.timer.unref();
    }
  }

  private tick(): void {
    if (!this.usedSinceTick) this.returnAll();
    this.usedSinceTick = false;
  }

  private returnAll(): void {
    if (this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
    const connections = this.idle.splice(0);
    for (const connection of connections) void this.client.releaseConnection(connection);
  }
}

const registry = new WeakMap<Knex.Client, HeldConnections | null>();

function usable(client: Knex.Client): boolean {
  const internals = client as unknown as KnexClientInternals;
  const pool = internals.pool;
  if (!pool || typeof pool.on !== 'function' || typeof pool.numPendingAcquires !== 'function') return false;
  const options = internals.config.pool ?? {};
  return (
    options.validate === undefined &&
    options.maxConnectionLifetimeMillis === undefined &&
    internals.connectionConfigProvider === undefined
  );
}

function isGood(client: Knex.Client, connection: unknown): boolean {
  const c = connection as { __knex__disposed?: unknown } | null;
  return !!c && !c.__knex__disposed && (client as unknown as KnexClientInternals).validateConnection(c);
}
