import { connect, disconnect, type Database } from '@colapi/sql-compiler';
import { type DatabaseKind, HttpClient, testDatabaseOrSkip, type TestDatabase } from '@colapi/test-fixtures/testing';
import { serveCatalogue, type CatalogueServer, type ServeOptions } from '../src/index.js';

/** A schema made in a scratch database and served by `colapi serve` in both formats. */
export interface ServedSchema {
  /** A connection of the test's own to the database, to read what a write stored. */
  readonly sql: Database;
  /** The Format A server, then the Format B one. */
  readonly servers: readonly CatalogueServer[];
  /** A client of each. */
  readonly a: HttpClient;
  readonly b: HttpClient;
  /** Stops both servers, closes the connection and drops the database. */
  close(): Promise<void>;
}

/**
 * A scratch database of `kind` (skipping the test where the database is out of reach, failing under CI),
 * `schema`'s statements run in it, then served with the configuration `config`, in both formats, each
 * server on a small pool.
 */
export async function serveSchema(
  context: Mocha.Context,
  kind: DatabaseKind,
  schema: readonly string[],
  config?: ServeOptions['config'],
): Promise<ServedSchema> {
  const db: TestDatabase = (await testDatabaseOrSkip(context, kind))!;
  const sql = connect(db.url, { pool: { min: 0, max: 1 } });
  for (const statement of schema) await sql.knex.raw(statement);
  const options = { databaseUrl: db.url, connect: { pool: { min: 0, max: 2 } }, ...(config ? { config } : {}) };
  const servers = [
    await serveCatalogue({ ...options, format: 'jsonapi' }),
    await serveCatalogue({ ...options, format: 'legacy' }),
  ];
  return {
    sql,
    servers,
    a: new HttpClient(servers[0]!.origin, 'application/vnd.api+json'),
    b: new HttpClient(servers[1]!.origin, 'application/json'),
    async close() {
      for (const s of servers) await s.close(500);
      await disconnect(sql);
      await db.drop();
    },
  };
}
