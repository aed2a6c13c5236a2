import { workersProblem } from '@colapi/server-koa';
import { dialectForUrl, redactUrl, replicaUrls } from '@colapi/sql-compiler';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FORMATS } from './formats.js';

export interface DemoConfig {
  readonly databaseUrl: string;
  /** Read replicas of the database, serving reads outside writes. */
  readonly replicaUrls: readonly string[];
  readonly port: number;
  readonly host: string;
  readonly format: string;
  readonly logLevel: string;
  /** Processes serving the port (node:cluster); 1 serves from this process alone. */
  readonly workers: number;
  /** The admin listener's port (/live, /ready, /metrics); undefined: none. */
  readonly adminPort?: number;
  /** Seconds SIGTERM keeps serving with /ready at 503 before stopping. */
  readonly grace: number;
  readonly help: boolean;
}

/** A mistake in the command line or the environment: told in one line, with exit code 2. */
export class UsageError extends Error {}

const DATA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'data');
export const DEFAULT_DATABASE_URL = `sqlite:${join(DATA_DIR, 'bookshop.sqlite')}`;

export const HELP = `Usage: pnpm demo [options]

Serves a sample bookshop (authors, books, reviews, tags, publishers) as a REST API, with a browsable
page at / and the OpenAPI document at /api/openapi.json. Empty tables are created and seeded on start.

Options (each also read from the environment variable in capitals):
  --database-url URL  DATABASE_URL  postgres://user@host:5432/db, mysql://user@host:3306/db or sqlite:<file>
                                    (default: sqlite:apps/demo/data/bookshop.sqlite, created on first start)
  --replica-urls URLS DATABASE_REPLICA_URLS  read replicas of the database, comma-separated: reads outside
                                    a write go to them (send Colapi-Read-From: primary to read your write)
  --port N            PORT          port to listen on (default 8080; 0 picks a free one)
  --host ADDR         HOST          address to bind (default 127.0.0.1; 0.0.0.0 for every interface)
  --format NAME       API_FORMAT    wire format: ${Object.keys(FORMATS).join(' or ')} (default jsonapi)
  --log-level LEVEL   LOG_LEVEL     request log level: info (default), debug, warn, error or silent
  --workers N         WORKERS       processes sharing the port, one per core to use (default 1, at most 64)
  --admin-port N      ADMIN_PORT    serve GET /live, /ready and /metrics (Prometheus) on this port, on the
                                    same host (with --workers, every worker's figures and readiness)
  --grace SECONDS     GRACE         on SIGTERM, keep serving this long with /ready at 503 (default 5)
  -h, --help                        show this help

Logs are JSON lines (pino) on standard output. SIGTERM drains (the grace period, then the requests in
flight) and stops; Ctrl+C stops after the requests in flight. With
OTEL_EXPORTER_OTLP_ENDPOINT set (OpenTelemetry's variable), traces are sent there over OTLP/HTTP.`;

/** Reads the configuration from arguments first, then the environment, then the defaults. */
export function parseConfig(argv: readonly string[], env: NodeJS.ProcessEnv): DemoConfig {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        'database-url': { type: 'string' },
        'replica-urls': { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        format: { type: 'string' },
        'log-level': { type: 'string' },
        workers: { type: 'string' },
        'admin-port': { type: 'string' },
        grace: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (see --help)`);
  }
  const pick = (flag: string, name: string) => (values[flag] as string | undefined) ?? (env[name] || undefined);
  const databaseUrl = pick('database-url', 'DATABASE_URL') ?? DEFAULT_DATABASE_URL;
  const portText = pick('port', 'PORT') ?? '8080';
  const format = pick('format', 'API_FORMAT') ?? 'jsonapi';
  const workersText = pick('workers', 'WORKERS') ?? '1';
  const adminText = pick('admin-port', 'ADMIN_PORT');
  const graceText = pick('grace', 'GRACE') ?? '5';
  const config: DemoConfig = {
    databaseUrl,
    replicaUrls: replicaUrls(pick('replica-urls', 'DATABASE_REPLICA_URLS')),
    port: Number(portText),
    host: pick('host', 'HOST') ?? '127.0.0.1',
    format,
    logLevel: pick('log-level', 'LOG_LEVEL') ?? 'info',
    workers: Number(workersText),
    ...(adminText === undefined ? {} : { adminPort: Number(adminText) }),
    grace: Number(graceText),
    help: values.help === true,
  };
  if (config.help) return config;
  if (!/^\d{1,5}$/.test(portText) || config.port > 65535)
    throw new UsageError(`PORT must be a number from 0 to 65535; got "${portText}"`);
  if (adminText !== undefined && (!/^\d{1,5}$/.test(adminText) || Number(adminText) > 65535))
    throw new UsageError(`ADMIN_PORT must be a number from 0 to 65535; got "${adminText}"`);
  if (!/^\d+(\.\d+)?$/.test(graceText) || config.grace > 3600)
    throw new UsageError(`GRACE must be a number of seconds from 0 to 3600; got "${graceText}"`);
  const workersWrong = workersProblem(workersText);
  if (workersWrong) throw new UsageError(`WORKERS must be ${workersWrong}`);
  if (!FORMATS[format])
    throw new UsageError(`API_FORMAT must be one of ${Object.keys(FORMATS).join(', ')}; got "${format}"`);
  if (!['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'].includes(config.logLevel)) {
    throw new UsageError(
      `LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent; got "${config.logLevel}"`,
    );
  }
  try {
    dialectForUrl(databaseUrl);
  } catch {
    throw new UsageError(
      `DATABASE_URL must start with postgres://, mysql:// or sqlite:; got "${redactUrl(databaseUrl)}"`,
    );
  }
  for (const replica of config.replicaUrls) {
    let same = false;
    try {
      same = dialectForUrl(replica) === dialectForUrl(databaseUrl) && !databaseUrl.startsWith('sqlite:');
    } catch {
      // Not a database URL at all: told below like one of another kind.
    }
    if (!same)
      throw new UsageError(
        `DATABASE_REPLICA_URLS must list replicas of the PostgreSQL or MariaDB/MySQL database at DATABASE_URL; got "${redactUrl(replica)}"`,
      );
  }
  return config;
}

/** The default SQLite file lives in a folder that a fresh clone does not have yet. */
export function prepareSqliteFolder(url: string): void {
  if (url === DEFAULT_DATABASE_URL) mkdirSync(DATA_DIR, { recursive: true });
}
