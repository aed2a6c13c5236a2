import { browsableApi, openApiRoute } from '@colapi/browser';
import type { Registry } from '@colapi/schema';
import {
  answerClientErrors,
  closeGracefully,
  createApi,
  requestLog,
  type AccessOptions,
  type ApiMetrics,
} from '@colapi/server-koa';
import { connect, disconnect, redactUrl, type Database } from '@colapi/sql-compiler';
import Koa from 'koa';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { prepareSqliteFolder } from './config.js';
import { formatByName } from './formats.js';
import { demoRegistry } from './registry.js';
import { seedIfEmpty } from './seed.js';
import { createTables } from './tables.js';

export interface DemoOptions {
  readonly databaseUrl: string;
  /** Read replicas of the database: reads outside a write go to them while they are well. */
  readonly replicaUrls?: readonly string[];
  readonly format?: string;
  /** Default 0: any free port. */
  readonly port?: number;
  readonly host?: string;
  /** Default: a silent logger. */
  readonly logger?: Logger;
  /** Middleware run before everything else (tests use it to hold a request in flight). */
  readonly before?: readonly Koa.Middleware[];
  /** Milliseconds to wait for the database at start; default 10 s. */
  readonly connectTimeout?: number;
  /** Identity and per-role rules (createApi's `access`); default none: every client may do everything. */
  readonly access?: AccessOptions;
  /** Prometheus metrics of the API and its database (for an admin listener); default none. */
  readonly metrics?: ApiMetrics;
}

export interface Demo {
  readonly app: Koa;
  readonly server: Server;
  readonly database: Database;
  readonly registry: Registry;
  /** e.g. http://127.0.0.1:8080 */
  readonly origin: string;
  /** Seeded rows at this start (0 when the tables held data already). */
  readonly seeded: number;
  /** Stops accepting connections, lets in-flight requests finish, then closes the pool. */
  close(graceMs?: number): Promise<void>;
}

/** The database could not be reached or opened at start; its message is one line fit for a user. */
export class DatabaseUnavailable extends Error {}

async function openDatabase(
  url: string,
  timeout: number,
  replicas: readonly string[] = [],
  logger?: Logger,
): Promise<Database> {
  prepareSqliteFolder(url);
  const database = connect(url, {
    acquireConnectionTimeout: timeout,
    replicas,
    replicaPolicy: {
      onChange: ({ replica, serving, reason }) =>
        serving
          ? logger?.info({ replica }, 'replica serves reads')
          : logger?.warn({ replica, reason }, 'replica taken out of rotation'),
    },
  });
  try {
    await database.knex.raw('select 1');
    return database;
  } catch (error) {
    await disconnect(database).catch(() => undefined);
    const reason = (error as Error).message?.split('\n')[0] || String(error);
    throw new DatabaseUnavailable(`cannot reach the database at ${redactUrl(url)}: ${reason}`);
  }
}

/** Creates the bookshop's tables and seeds them when empty; answers the rows seeded. */
async function prepare(database: Database, registry: Registry, logger: Logger): Promise<number> {
  await createTables(database.knex, database.dialect);
  const seeded = await seedIfEmpty(database.knex, database.dialect, registry);
  if (seeded) logger.info({ rows: seeded }, 'seeded the sample bookshop');
  return seeded;
}

/**
 * Creates and seeds the bookshop without serving it: what a cluster primary does once, so that its workers
 * (each a `startDemo`) find the tables ready instead of racing to create them.
 */
export async function prepareDemo(
  options: Pick<DemoOptions, 'databaseUrl' | 'logger' | 'connectTimeout'>,
): Promise<number> {
  const database = await openDatabase(options.databaseUrl, options.connectTimeout ?? 10_000);
  try {
    return await prepare(database, await demoRegistry(), options.logger ?? pino({ level: 'silent' }));
  } finally {
    await database.knex.destroy();
  }
}

/** The URL a client uses for a server listening on `host` and `port` (a wildcard address means this machine). */
export function originOf(host: string | undefined, port: number): string {
  const name = !host || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
}

/** Opens the database, creates and seeds the bookshop if needed, and serves it. */
export async function startDemo(options: DemoOptions): Promise<Demo> {
  const logger = options.logger ?? pino({ level: 'silent' });
  const format = formatByName(options.format ?? 'jsonapi');
  const database = await openDatabase(
    options.databaseUrl,
    options.connectTimeout ?? 10_000,
    options.replicaUrls,
    logger,
  );
  let server: Server | undefined;
  try {
    const registry = await demoRegistry();
    const seeded = await prepare(database, registry, logger);

    const app = new Koa();
    for (const m of options.before ?? []) app.use(m);
    app.use(requestLog(logger));
    const api = createApi({
      registry,
      database,
      format,
      serverTiming: true,
      // JSON:API's atomic operations at /api/operations, where the format has them (Format A).
      atomic: format.atomic !== undefined,
      onUnexpectedError: (err) => logger.error({ err }, 'unexpected error'),
      ...(options.access ? { access: options.access } : {}),
      ...(options.metrics ? { metrics: options.metrics } : {}),
    });
    options.metrics?.observe(database);
    app.use(browsableApi());
    app.use(
      openApiRoute('/api/openapi.json', registry, {
        format,
        title: 'colapi demo: a bookshop',
        ...(api.describeFor ? { describeFor: api.describeFor } : {}),
      }),
    );
    app.use(api);
    await api.ready;
    server = answerClientErrors(app.listen(options.port ?? 0, options.host ?? '127.0.0.1'));
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([e]) => Promise.reject(e as Error))]);
    const { port } = server.address() as AddressInfo;
    const listening = server;
    let stopping: Promise<void> | undefined;
    return {
      app,
      server: listening,
      database,
      registry,
      origin: originOf(options.host, port),
      seeded,
      close(graceMs = 10_000) {
        stopping ??= (async () => {
          await closeGracefully(listening, graceMs);
          await disconnect(database);
        })();
        return stopping;
      },
    };
  } catch (error) {
    server?.close();
    await disconnect(database).catch(() => undefined);
    throw error;
  }
}
