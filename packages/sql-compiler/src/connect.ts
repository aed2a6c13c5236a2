import knexFactory, { type Knex } from 'knex';
import type { Dialect } from './dialect.js';
import { databaseUrlOptions } from './database-url-options.js';
import { dialectForUrl } from './dialects/index.js';

export interface Database {
  readonly knex: Knex;
  readonly dialect: Dialect;
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
}

/** Opens a knex pool for a database URL (postgres://, mysql://, sqlite:) with its dialect's settings. */
export function connect(databaseUrl: string, options: ConnectOptions = {}): Database {
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
