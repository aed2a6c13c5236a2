import { answerClientErrors, createApi, type ApiOptions } from '@colapi/server-koa';
import { connect, disconnect, type ConnectOptions, type Database } from '@colapi/sql-compiler';
import type { Registry } from '@colapi/schema';
import type { WireFormat } from '@colapi/wire-format';
import Koa from 'koa';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { conformanceRegistry } from './conformance-registry.js';
import { formatByName } from './formats.js';
import { createTables } from './tables.js';

export interface ConformanceTarget {
  readonly app: Koa;
  readonly database: Database;
  readonly registry: Registry;
  /** The wire format it serves. */
  readonly format: WireFormat;
  readonly server: Server;
  /** The database URL it serves. */
  readonly url: string;
  /** e.g. http://127.0.0.1:8080 */
  readonly origin: string;
  close(): Promise<void>;
}

export interface ConformanceOptions {
  readonly url: string;
  readonly format?: string;
  readonly port?: number;
  /** Extra createApi options (hooks, limits) for tests. */
  readonly api?: Partial<ApiOptions>;
  /** Options of the database connection, e.g. a statement timeout. */
  readonly connect?: ConnectOptions;
}

/** Opens the database, creates missing tables and serves the conformance collections on 127.0.0.1. */
export async function startConformanceTarget(options: ConformanceOptions): Promise<ConformanceTarget> {
  const format = await formatByName(options.format ?? 'jsonapi');
  const database = connect(options.url, options.connect);
  await createTables(database.knex, database.dialect);
  const registry = await conformanceRegistry(format);
  const app = new Koa();
  const api = createApi({ registry, database, format, ...options.api });
  app.use(api);
  await api.ready;
  const server = answerClientErrors(app.listen(options.port ?? 0, '127.0.0.1'));
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    app,
    database,
    registry,
    format,
    server,
    url: options.url,
    origin: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await disconnect(database);
    },
  };
}
