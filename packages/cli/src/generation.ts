import { browsableApi, openApiRoute } from '@colapi/browser';
import {
  CatalogueConfigError,
  catalogueReader,
  readCatalogue,
  registryFromCatalogue,
  type Catalogue,
} from '@colapi/catalogue';
import type { Registry } from '@colapi/schema';
import { compression, cors, createApi, requestLog, type ApiOptions, type RequestLogger } from '@colapi/server-koa';
import {
  connect,
  dialectForUrl,
  disconnect,
  redactUrl,
  type ConnectOptions,
  type Database,
} from '@colapi/sql-compiler';
import Koa from 'koa';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkAccess, type ServedAccess } from './check-access.js';
import { wireFormat } from './formats.js';
import { ConfigError, type ColapiConfig } from './validate-config.js';

/** The database could not be reached or read; the message is one line fit for a user. */
export class DatabaseUnavailable extends Error {
  override name = 'DatabaseUnavailable';
}

export interface GenerationSettings {
  readonly databaseUrl: string;
  readonly format: string;
  /** The schema asked for on the command line; else the configuration's; else the reader's default. */
  readonly schema?: string;
  /** The catalogue's settings, and `auth` with `roles` for access control (without them, none). */
  readonly config: ColapiConfig;
  /** How errors of the configuration name it, e.g. its file; default `configuration`. */
  readonly configSource?: string;
  /** Under access control, told of what createApi audits, one JSON line at a time. */
  readonly audit?: (line: string) => void;
  /** Extra connection settings (tests: a small pool). */
  readonly connect?: ConnectOptions;
  /** Extra createApi options (tests: hooks, limits). */
  readonly api?: Partial<ApiOptions>;
  readonly onUnexpectedError?: (error: unknown) => void;
  /** Where one line per request goes (requestLog: route template, status, duration, bytes, sub, role); default none. */
  readonly logger?: RequestLogger;
  /** `--cursor-secret`: signs cursors; before the configuration's `cursorSecret`. */
  readonly cursorSecret?: string;
}

/**
 * One reading of the catalogue, served: its own pool, registry and Koa app. A reload makes a new generation
 * and retires the old one, which finishes the requests it has begun and then closes its pool; a pool of its
 * own means no connection keeps a statement prepared against the schema before the migration.
 */
export interface Generation {
  readonly registry: Registry;
  readonly warnings: readonly string[];
  /** The configuration's `auth` and `roles`, checked against this registry; undefined without them. */
  readonly access?: ServedAccess;
  readonly database: Database;
  /** The schema read (PostgreSQL) or database name (MariaDB/MySQL); undefined for SQLite. */
  readonly schema?: string;
  /** Serves one request, counting it in flight until its answer is complete. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Resolves once the requests in flight are answered and the pool is closed. */
  retire(): Promise<void>;
}

/** Opens a pool, reads the catalogue and builds the app; throws DatabaseUnavailable or a configuration error. */
export async function openGeneration(settings: GenerationSettings): Promise<Generation> {
  const dialect = dialectForUrl(settings.databaseUrl);
  const schema = settings.schema ?? settings.config.schema;
  if (schema !== undefined && catalogueReader(dialect.name).defaultSchema === undefined) {
    throw new ConfigError(`a schema cannot be chosen on ${dialect.name}: it serves the database the URL names`);
  }
  const database = connect(settings.databaseUrl, {
    acquireConnectionTimeout: 10_000,
    // Unqualified table names must find the chosen schema's tables first.
    ...(schema === undefined ? {} : { searchPath: [schema] }),
    ...settings.connect,
  });
  try {
    const catalogue = await read(database, settings.databaseUrl, schema);
    const { registry, warnings } = fromCatalogue(catalogue, settings);
    const access = checkAccess(settings.config, registry, settings.configSource ?? 'configuration', settings.audit);
    const cursorSecret = settings.cursorSecret ?? settings.config.cursorSecret;
    const format = wireFormat(settings.format, cursorSecret === undefined ? {} : { cursorSecret });
    if ((settings.config.atomic || settings.api?.atomic) && !format.atomic)
      throw new ConfigError(
        `${settings.configSource ?? 'configuration'}: atomic: the ${settings.format} format has no atomic operations (a JSON:API extension); serve --format jsonapi`,
      );
    const api = createApi({
      registry,
      database,
      format,
      serverTiming: true,
      ...(settings.config.requireIfMatch ? { requireIfMatch: true } : {}),
      ...(access ? { access: access.options } : {}),
      ...(settings.config.atomic ? { atomic: true } : {}),
      ...(settings.onUnexpectedError ? { onUnexpectedError: settings.onUnexpectedError } : {}),
      ...settings.api,
    });
    const app = new Koa();
    // First, so that every answer is logged as it leaves, whatever answered it.
    if (settings.logger) app.use(requestLog(settings.logger));
    // First: a preflight is answered before anything else, for the OpenAPI document too.
    if (settings.config.cors) app.use(cors(settings.config.cors));
    // The OpenAPI document and the page too (the API's answers are compressed by createApi).
    app.use(compression());
    app.use(browsableApi());
    app.use(
      openApiRoute('/api/openapi.json', registry, {
        format,
        title: `colapi: ${catalogue.schema ?? redactUrl(settings.databaseUrl)}`,
        ...(settings.config.atomic || settings.api?.atomic ? { atomic: true } : {}),
        // The document says If-Match is required, and 428, exactly when the API requires it.
        ...(settings.config.requireIfMatch || settings.api?.requireIfMatch ? { requireIfMatch: true } : {}),
        // Under access rules, each caller's document shows what its role may see (401/403 as the API would).
        ...(api.describeFor ? { describeFor: api.describeFor } : {}),
      }),
    );
    app.use(api);
    await api.ready;
    return servedGeneration(app, database, registry, warnings, catalogue.schema, access);
  } catch (error) {
    await disconnect(database).catch(() => undefined);
    throw error;
  }
}

/** The registry of a catalogue; a configuration that does not fit it is an error naming the file. */
function fromCatalogue(catalogue: Catalogue, settings: GenerationSettings) {
  try {
    return registryFromCatalogue(catalogue, settings.config);
  } catch (error) {
    if (error instanceof CatalogueConfigError)
      throw new ConfigError(`${settings.configSource ?? 'configuration'}: ${error.message}`);
    throw error;
  }
}

async function read(database: Database, url: string, schema: string | undefined) {
  try {
    await database.knex.raw('select 1');
  } catch (error) {
    const reason = (error as Error).message?.split('\n')[0] || String(error);
    throw new DatabaseUnavailable(`cannot reach the database at ${redactUrl(url)}: ${reason}`);
  }
  return readCatalogue(database, schema === undefined ? {} : { schema });
}

function servedGeneration(
  app: Koa,
  database: Database,
  registry: Registry,
  warnings: readonly string[],
  schema: string | undefined,
  access: ServedAccess | undefined,
): Generation {
  const handler = app.callback();
  let inFlight = 0;
  let retired: (() => void) | undefined;
  let closed: Promise<void> | undefined;
  const settle = () => {
    if (retired && inFlight === 0) retired();
  };
  return {
    registry,
    warnings,
    ...(access ? { access } : {}),
    database,
    ...(schema === undefined ? {} : { schema }),
    handle(req, res) {
      inFlight++;
      // Koa's handler settles once the answer is written (or failed): then the request no longer needs the pool.
      void Promise.resolve(handler(req, res)).finally(() => {
        inFlight--;
        settle();
      });
    },
    retire() {
      closed ??= new Promise<void>((resolve) => {
        retired = resolve;
        settle();
      }).then(() => disconnect(database));
      return closed;
    },
  };
}
