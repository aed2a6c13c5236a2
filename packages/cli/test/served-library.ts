import type { CatalogueConfig } from '@colapi/catalogue';
import { connect, disconnect, type Database } from '@colapi/sql-compiler';
import {
  createLibrary,
  type DatabaseKind,
  HttpClient,
  testDatabaseOrSkip,
  type TestDatabase,
} from '@colapi/test-fixtures/testing';
import { serveCatalogue, type CatalogueServer } from '../src/index.js';

/** The DDL-only library on a database of its own, served by `colapi serve` in both formats. */
export interface ServedLibrary {
  /** A connection of the test's own to the library's database. */
  readonly sql: Database;
  readonly jsonapi: CatalogueServer;
  readonly legacy: CatalogueServer;
  /** Clients of the Format A and Format B servers. */
  readonly a: HttpClient;
  readonly b: HttpClient;
}

/**
 * Registers, in the calling `describe`, the hooks that create the library on a new database of `kind`
 * (skipped when unreachable outside CI) and serve it with `config` in both formats; closed and dropped after.
 * The answer gives the running library once the `before` hook has run.
 */
export function serveLibrary(kind: DatabaseKind, config: CatalogueConfig): () => ServedLibrary {
  let db: TestDatabase | undefined;
  let served: ServedLibrary | undefined;
  before(async function () {
    db = await testDatabaseOrSkip(this, kind);
    const sql = connect(db!.url, { pool: { min: 0, max: 1 } });
    await createLibrary(sql.knex, kind);
    const small = { pool: { min: 0, max: 2 } };
    const jsonapi = await serveCatalogue({ databaseUrl: db!.url, format: 'jsonapi', config, connect: small });
    const legacy = await serveCatalogue({ databaseUrl: db!.url, format: 'legacy', config, connect: small });
    served = {
      sql,
      jsonapi,
      legacy,
      a: new HttpClient(jsonapi.origin, 'application/vnd.api+json'),
      b: new HttpClient(legacy.origin, 'application/json'),
    };
  });
  after(async () => {
    await served?.jsonapi.close(500);
    await served?.legacy.close(500);
    if (served) await disconnect(served.sql);
    await db?.drop();
  });
  return () => served!;
}
