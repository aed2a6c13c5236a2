import knexFactory, { type Knex } from 'knex';
import type { Dialect } from './dialect.js';
import { databaseUrlOptions } from './database-url-options.js';
import { dialectForUrl } from './dialects/index.js';
import { redactUrl } from './redact-url.js';
import { ReplicaSet, type ReplicaPolicy } from './replica-set.js';

export interface Database {
  /** The primary's pool: every write, and every read a write makes, runs here. */
  readonly knex: Knex;
  readonly dialect: Dialect;
  /** Read replicas that may serve reads outside a write; none when absent. */
  readonly replicas?: ReplicaSet;
}

/** knex settings to override, plus the options every dialect understands. */
export interface ConnectOptions extends Partial<Knex.Config> {
  /**
   * Longest time, in milliseconds, one statement may run before the database cancels it (the server answers
   * 503). PostgreSQL: `statement_timeout`; MariaDB `max_statement_time` (MySQL `max_execution_time`, which
   * bounds SELECTs only); SQLite: a watchdog thread per connection calls `sqlite3_interrupt()`
   * (SQLITE_INTERRUPT), from an extension of this package that is compiled with the machine's C compiler
   * (`cc`, or `CC`) at the first connect() that asks for it, then cached; without a compiler connect() throws.
   * On SQLite it also bounds the wait for a lock another connection holds (`busy_timeout`). Default: no
   * limit (SQLite's lock wait: 5 seconds).
   */
  readonly statementTimeout?: number;
  /**
   * False for a transaction-mode pooler (PgBouncer before 1.21, RDS Proxy, Supavisor): each statement then
   * runs unnamed, since the next transaction may reach a server connection that never saw the name, or one
   * that already holds it. Also set by the URL parameter `prepared_statements=false`, which connect() takes
   * out of the URL. Default true: PostgreSQL names the statements it plans once per connection.
   */
  readonly preparedStatements?: boolean;
  /**
   * URLs of read replicas of this database (PostgreSQL streaming replicas, MariaDB/MySQL replicas): reads
   * that belong to no write go to one of them, in turn, while it is reachable and within `replicaPolicy`'s
   * lag bound. Each gets a pool of its own with the same settings (a URL may carry its own
   * `prepared_statements`). Not for SQLite.
   */
  readonly replicas?: readonly string[];
  readonly replicaPolicy?: ReplicaPolicy;
}

/** Opens a knex pool for a database URL (postgres://, mysql://, sqlite:) with its dialect's settings. */
export function connect(databaseUrl: string, options: ConnectOptions = {}): Database {
  const { replicas = [], replicaPolicy, ...single } = options;
  if (replicas.length > 0) {
    // Refused before any pool opens: a refusal after would leave pools nobody can close.
    const dialect = dialectForUrl(databaseUrlOptions(databaseUrl).url);
    if (!dialect.replicaLag) throw new Error(`${dialect.name} cannot serve reads from replicas`);
    for (const url of replicas) {
      if (dialectForUrl(databaseUrlOptions(url).url) !== dialect) {
        throw new Error(`the replica ${redactUrl(url)} is not a ${dialect.name} database`);
      }
    }
  }
  const primary = connectOne(databaseUrl, single);
  if (replicas.length === 0) return primary;
  const pools = replicas.map((url) => ({ url, knex: connectOne(url, single).knex }));
  return { ...primary, replicas: new ReplicaSet(primary.dialect, pools, replicaPolicy) };
}

/** Closes the primary's pool and every replica's. */
export async function disconnect(database: Database): Promise<void> {
  await Promise.all([database.knex.destroy(), database.replicas?.destroy()]);
}

function connectOne(databaseUrl: string, options: Omit<ConnectOptions, 'replicas' | 'replicaPolicy'>): Database {
  const { statementTimeout, preparedStatements: asked, ...overrides } = options;
  if (statementTimeout !== undefined && !(Number.isInteger(statementTimeout) && statementTimeout > 0)) {
    throw new Error(`statementTimeout must be a positive whole number of milliseconds, not ${statementTimeout}`);
  }
  const { url, preparedStatements: inUrl } = databaseUrlOptions(databaseUrl);
  const preparedStatements = asked ?? inUrl;
  const dialect = dialectForUrl(url);
  const base = dialect.knexConfig(url, {
    ...(statementTimeout === undefined ? {} : { statementTimeout }),
    ...(preparedStatements === undefined ? {} : { preparedStatements }),
  });
  // A pool override keeps the dialect's connection set-up (afterCreate): strict mode, pragmas, time limits.
  const pool = base.pool || overrides.pool ? { ...base.pool, ...overrides.pool } : undefined;
  const knex = knexFactory({ ...base, ...overrides, ...(pool ? { pool } : {}) });
  return { knex, dialect };
}
