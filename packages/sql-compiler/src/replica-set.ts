import type { Knex } from 'knex';
import type { Dialect } from './dialect.js';
import { redactUrl } from './redact-url.js';

/** How a replica set decides which replicas serve reads. */
export interface ReplicaPolicy {
  /** A replica further behind its primary than this (milliseconds) serves no reads. Default 5000. */
  readonly maxLag?: number;
  /** Milliseconds between health checks of every replica. Default 500. */
  readonly checkInterval?: number;
  /** Told when a replica leaves or rejoins the rotation, for the operator's log. */
  readonly onChange?: (change: ReplicaChange) => void;
}

export interface ReplicaChange {
  /** The replica's URL without its password. */
  readonly replica: string;
  readonly serving: boolean;
  /** Why it left the rotation: the failure or the lag measured. */
  readonly reason?: string;
}

/** What a replica set knows of one replica. */
export interface ReplicaState {
  readonly replica: string;
  readonly serving: boolean;
  /** The lag of the last successful check, in milliseconds. */
  readonly lag?: number;
  readonly reason?: string;
}

interface Replica {
  readonly url: string;
  readonly knex: Knex;
  serving: boolean;
  lag?: number;
  reason?: string;
  checking?: Promise<void>;
  /** Checks in a row that found it beyond maxLag. */
  overLag: number;
}

/**
 * Read replicas of one primary and which of them serve reads now. A replica joins the rotation only after a
 * check found it reachable and within `maxLag`; a failed check, two checks in a row beyond `maxLag`, or a
 * read that lost its connection (`failed`) takes it out, and the next good check brings it back. Each process keeps its own
 * view: nothing in it changes what a read answers beyond the lag bound every replica must meet.
 */
export class ReplicaSet {
  readonly maxLag: number;
  readonly checkInterval: number;
  private readonly replicas: Replica[];
  private next = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dialect: Dialect,
    pools: readonly { readonly url: string; readonly knex: Knex }[],
    private readonly policy: ReplicaPolicy = {},
  ) {
    if (!dialect.replicaLag) throw new Error(`${dialect.name} cannot serve reads from replicas`);
    this.maxLag = positive(policy.maxLag ?? 5000, 'replica maxLag');
    this.checkInterval = positive(policy.checkInterval ?? 500, 'replica checkInterval');
    this.replicas = pools.map(({ url, knex }) => ({
      url: redactUrl(url),
      knex,
      serving: false,
      reason: 'not checked yet',
      overLag: 0,
    }));
    void this.check();
    this.timer = setInterval(() => void this.check(), this.checkInterval);
    // The checks alone must not keep a process alive that has nothing else to do.
    this.timer.unref();
  }

  /** A replica's pool to read from, taken in turn among those serving; undefined when none is. */
  pick(): Knex | undefined {
    const n = this.replicas.length;
    for (let i = 0; i < n; i++) {
      const replica = this.replicas[(this.next + i) % n]!;
      if (replica.serving) {
        this.next = (this.next + i + 1) % n;
        return replica.knex;
      }
    }
    return undefined;
  }

  /** Takes the replica of `knex` out of the rotation at once, until a check finds it well again. */
  failed(knex: Knex, error: unknown): void {
    const replica = this.replicas.find((r) => r.knex === knex);
    if (replica) this.set(replica, false, `a read failed: ${message(error)}`);
  }

  /** True when `knex` is one of this set's replicas. */
  has(knex: Knex): boolean {
    return this.replicas.some((r) => r.knex === knex);
  }

  /** Checks every replica now (the timer does so every `checkInterval`); resolves when all have answered. */
  async check(): Promise<void> {
    await Promise.all(
      this.replicas.map(
        (replica) => (replica.checking ??= this.checkOne(replica).finally(() => (replica.checking = undefined))),
      ),
    );
  }

  /** Each replica's pool, by its URL without password (for metrics). */
  pools(): [string, Knex][] {
    return this.replicas.map((r) => [r.url, r.knex]);
  }

  state(): ReplicaState[] {
    return this.replicas.map(({ url, serving, lag, reason }) => ({
      replica: url,
      serving,
      ...(lag === undefined ? {} : { lag }),
      ...(reason ? { reason } : {}),
    }));
  }

  /** Stops the checks and closes every replica's pool. */
  async destroy(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await Promise.all(this.replicas.map((r) => r.knex.destroy()));
  }

  private async checkOne(replica: Replica): Promise<void> {
    try {
      const lag = await withTimeout(this.dialect.replicaLag!(replica.knex), Math.max(this.checkInterval, 1000));
      replica.lag = lag;
      replica.overLag = lag > this.maxLag ? replica.overLag + 1 : 0;
      // Two checks in a row: one may catch WAL that carries no commit (a vacuum) on its way to replay after
      // a quiet spell, which PostgreSQL reports as the age of the last commit replayed, however old.
      if (replica.overLag >= 2 || (replica.overLag === 1 && !replica.serving)) {
        this.set(replica, false, `it is ${Math.round(lag)} ms behind its primary, more than ${this.maxLag}`);
      } else if (replica.overLag === 0) this.set(replica, true);
    } catch (error) {
      this.set(replica, false, `its health check failed: ${message(error)}`);
    }
  }

  private set(replica: Replica, serving: boolean, reason?: string): void {
    const changed = replica.serving !== serving;
    replica.serving = serving;
    replica.reason = reason;
    if (changed && this.timer) this.policy.onChange?.({ replica: replica.url, serving, ...(reason ? { reason } : {}) });
  }
}

function positive(n: number, what: string): number {
  if (!(Number.isFinite(n) && n > 0)) throw new Error(`${what} must be a positive number of milliseconds, not ${n}`);
  return n;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A check that hangs (a replica whose network dropped) counts as failed instead of holding its slot. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
