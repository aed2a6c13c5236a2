import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, disconnect, dialects, type Database } from '../../src/index.js';

/** The dialects under test: `DATABASES=sqlite,postgres` narrows the run; default all. */
export const TESTED_DIALECTS: readonly string[] = Object.keys(dialects).filter((name) =>
  (process.env.DATABASES || Object.keys(dialects).join(','))
    .split(',')
    .map((s) => s.trim())
    .includes(name),
);

/** This machine's servers, unless `<NAME>_URL` (or PG_URL) names another. */
export const SERVERS: Readonly<Record<string, string>> = {
  postgres: process.env.POSTGRES_URL || process.env.PG_URL || 'postgres://root@127.0.0.1:5432/test',
  mysql: process.env.MYSQL_URL || 'mysql://root@127.0.0.1:3306/test',
};

/** Under CI (or REQUIRE_DATABASES=1) a server that cannot be reached fails the run instead of skipping it. */
export const mustReachDatabases = () => process.env.CI === 'true' || process.env.REQUIRE_DATABASES === '1';

export interface ScratchDatabase {
  readonly database: Database;
  drop(): Promise<void>;
}

let made = 0;

/**
 * A new, empty database of a dialect for this test process, made the way the dialect makes one
 * (Dialect.createDatabase on its server, or a file), and dropped by `drop`.
 */
export async function scratchDatabase(name: string): Promise<ScratchDatabase> {
  const dialect = dialects[name]!;
  const db = `colapi_sql_${process.pid}_${made++}`;
  if (!dialect.createDatabase) {
    const dir = mkdtempSync(join(tmpdir(), 'colapi-sql-'));
    const database = connect(`${dialect.schemes[0]}${join(dir, `${db}.db`)}`);
    const drop = async () => {
      await disconnect(database);
      rmSync(dir, { recursive: true, force: true });
    };
    return { database, drop };
  }
  const server = SERVERS[name]!;
  const admin = connect(server, { pool: { min: 0, max: 1 }, acquireConnectionTimeout: 5000 });
  try {
    await dialect.createDatabase(admin.knex, db);
  } finally {
    await disconnect(admin);
  }
  const url = new URL(server);
  url.pathname = `/${db}`;
  const database = connect(url.toString());
  return {
    database,
    async drop() {
      await disconnect(database);
      const again = connect(server, { pool: { min: 0, max: 1 } });
      try {
        await dialect.dropDatabase!(again.knex, db);
      } finally {
        await disconnect(again);
      }
    },
  };
}

/**
 * A scratch database of `name` for a `before` hook: where its server cannot be reached, the run fails under
 * CI (mustReachDatabases) and the suite is skipped, with a warning, elsewhere.
 */
export async function scratchDatabaseOrSkip(context: Mocha.Context, name: string): Promise<ScratchDatabase> {
  try {
    return await scratchDatabase(name);
  } catch (error) {
    if (mustReachDatabases()) throw error;
    console.warn(`  ! ${name} is not reachable (${(error as Error).message}); skipping`);
    context.skip();
  }
}
