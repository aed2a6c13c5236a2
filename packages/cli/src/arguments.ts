import { parseClaimArgument } from '@colapi/auth';
import { corsProblem, workersProblem } from '@colapi/server-koa';
import { dialectForUrl, redactUrl } from '@colapi/sql-compiler';
import { isAbsolute, resolve } from 'node:path';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { environmentHelp, fromEnvironment, namingVariables } from './environment-options.js';
import { FORMAT_NAMES } from './formats.js';

/** A mistake on the command line: told in one line, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface ServeArguments {
  readonly command: 'serve';
  readonly databaseUrl: string;
  readonly format: string;
  readonly port: number;
  readonly host: string;
  /** PostgreSQL schema; undefined: the config file's, else `public`. */
  readonly schema?: string;
  /** Config file; undefined: `colapi.config.json` of the working directory, if any. */
  readonly config?: string;
  /** `--atomic`: serve atomic operations at /api/operations (also the configuration's root key `atomic`). */
  readonly atomic?: boolean;
  /** The directory relative paths start from: where the command was typed. */
  readonly cwd: string;
  /** `--log-level`: the request log's pino level; undefined: info. */
  readonly logLevel?: string;
  /** `--cursor-secret`: the key cursors are signed with; undefined: the configuration's, else random. */
  readonly cursorSecret?: string;
  /** `--admin-port`: the admin listener's port (/live, /ready, /metrics); undefined: none. */
  readonly adminPort?: number;
  /** `--admin-host`; undefined: the API's host. */
  readonly adminHost?: string;
  /** `--grace` in seconds; undefined: the config file's `grace`, else 5. */
  readonly grace?: number;
  /** `--ready-timeout` in milliseconds: how long /ready waits for the primary's answer. */
  readonly readyTimeout?: number;
  /** `--cors`: the origins browsers may call from, in place of the config file's `cors.origins`. */
  readonly cors?: readonly string[];
  /** `--require-if-match`: every write of an existing resource without If-Match is 428. */
  readonly requireIfMatch?: boolean;
  /** `--workers`: processes serving the port (node:cluster), 1 to 64; 1 serves from this process alone. */
  readonly workers: number;
}

/** `colapi token …`: a development token for a role of the configuration. */
export interface TokenArguments {
  readonly command: 'token';
  readonly role: string;
  readonly sub?: string;
  /** `--claim name=value`, typed by @colapi/auth's parseClaimArgument, in the order given. */
  readonly claims: Readonly<Record<string, string | number | boolean>>;
  /** A lifetime such as `30m`, `1h`, `7d`; default `1h`. */
  readonly expires: string;
  /** Config file; undefined: `colapi.config.json` of the working directory. */
  readonly config?: string;
  readonly cwd: string;
}

export type Arguments = ServeArguments | TokenArguments | { readonly command: 'help' };

/** The options of both commands, as node:util's parseArgs reads them. */
const OPTIONS = {
  format: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  schema: { type: 'string' },
  'cursor-secret': { type: 'string' },
  'admin-port': { type: 'string' },
  'admin-host': { type: 'string' },
  grace: { type: 'string' },
  'ready-timeout': { type: 'string' },
  workers: { type: 'string' },
  config: { type: 'string' },
  cors: { type: 'string' },
  'require-if-match': { type: 'boolean' },
  'log-level': { type: 'string' },
  role: { type: 'string' },
  claim: { type: 'string', multiple: true },
  sub: { type: 'string' },
  expires: { type: 'string' },
  atomic: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} satisfies ParseArgsOptionsConfig;

const SERVE_ONLY = [
  'format',
  'port',
  'host',
  'schema',
  'cursor-secret',
  'log-level',
  'atomic',
  'admin-port',
  'admin-host',
  'grace',
  'ready-timeout',
  'workers',
  'cors',
  'require-if-match',
];
const TOKEN_ONLY = ['role', 'claim', 'sub', 'expires'];
/** Every option of colapi serve may come from its variable (COLAPI_PORT…): the ones not of colapi token. */
const FROM_ENVIRONMENT = Object.keys(OPTIONS).filter((name) => name !== 'help' && !TOKEN_ONLY.includes(name));

/** pino's levels. */
const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

export const HELP = `Usage: colapi serve <database-url> [options]
       colapi token --role NAME [--claim NAME=VALUE]... [--sub ID] [--expires 1h] [--config FILE]

Serves every table of an existing database as a collection under /api, with no code: filters, sorting,
paging, includes, relationships, function evaluation and writes, the OpenAPI document at
/api/openapi.json and a browsable page at /. Relationships come from foreign keys and join tables.

  <database-url>       postgres://user@host:5432/db, mysql://user@host:3306/db (MariaDB too) or
                       sqlite:<file>; default the DATABASE_URL environment variable

Options:
  --format NAME        wire format: ${FORMAT_NAMES.join(' or ')} (default jsonapi)
  --port N             port to listen on (default 8080; 0 picks a free one)
  --host ADDR          address to bind (default 127.0.0.1; 0.0.0.0 for every interface)
  --schema NAME        PostgreSQL schema to serve (default public)
  --cursor-secret KEY  key that signs Format A's paging cursors (default the config's cursorSecret, else
                       random per process: give every worker of one API the same key)
  --require-if-match   refuse every write of an existing resource without If-Match (428), so that no
                       client overwrites a version it has not read (also requireIfMatch in the config)
  --config FILE        configuration file (default colapi.config.json here, if there is one): rename or
                       hide tables, columns and relationships, choose the tables, set each collection's
                       methods, allow_functions, allow_client_generated_ids, only and exclude; and
                       with auth and roles, who may see and change what (see colapi token)
  --cors ORIGIN[,…]    let pages of these origins call the API from a browser (exact origins such as
                       https://app.example.com, or *); the config file's cors sets credentials, maxAge
                       and exposeHeaders
  --atomic             serve JSON:API atomic operations at POST /api/operations (as "atomic": true in
                       the configuration file does)
  --log-level LEVEL    level of the request log, one JSON line (pino) per request on standard output:
                       ${LOG_LEVELS.join(', ')} (default info)
  --admin-port N       serve GET /live, /ready and /metrics (Prometheus) on this port, apart from the API
  --admin-host ADDR    address of the admin listener (default: the --host of the API)
  --ready-timeout MS   how long /ready waits for the database to answer "select 1" (default 1000)
  --grace SECONDS      on SIGTERM, keep serving this long with /ready at 503 before stopping (default:
                       grace in the configuration file, else 5)
  --workers N          processes sharing the port, one per core to use (1 to 64, default 1): each reads
                       the catalogue and has its own pool; the admin listener answers for all of them
                       (/ready 200 only when all N are ready, /metrics summed); a worker that dies is
                       told on standard error and replaced; without a cursor secret the workers share
                       one made at start
  -h, --help           show this help

${environmentHelp(FROM_ENVIRONMENT)}

Signals: SIGHUP reads the catalogue and the configuration again without a restart (requests in flight
finish on the schema they started with); SIGTERM drains: /ready answers 503 at once, requests are served
for the grace period, then the server stops accepting, finishes the requests in flight and exits 0;
Ctrl+C (SIGINT) skips the grace period. With --workers, send them to the first process (the primary,
whose id the start-up output gives): it sends them on to every worker.
With OTEL_EXPORTER_OTLP_ENDPOINT set (OpenTelemetry's variable), traces are sent there over OTLP/HTTP.

colapi token prints a bearer token for development and tests, signed with a shared secret of the
configuration's auth.jwt (the first secret verifier that accepts HS256, else the first secret verifier)
and carrying that verifier's issuer and audience:

  --role NAME          the role, one of the configuration's roles; written at auth.roleClaim
  --claim NAME=VALUE   a claim the rules read, such as tenant=1 (true/false and whole numbers are typed);
                       repeat for more
  --sub ID             the subject (the sub claim)
  --expires TIME       lifetime: a whole number and s, m, h or d (default 1h)
  --config FILE        the configuration holding auth and roles (default colapi.config.json here)`;

/**
 * A SQLite file named relative to where the command was typed. `pnpm colapi` runs in the repository's root,
 * and tells the directory it was typed in as INIT_CWD.
 */
function sqliteUrlFrom(url: string, cwd: string): string {
  const m = /^(sqlite:|file:)(\/\/)?(.*)$/i.exec(url);
  if (!m || m[3] === '' || m[3] === ':memory:' || isAbsolute(m[3]!)) return url;
  return `${m[1]}${resolve(cwd, m[3]!)}`;
}

/** A lifetime as @colapi/auth's signDevelopmentToken reads it. */
const LIFETIME = /^[1-9][0-9]*[smhd]$/;

/**
 * Reads `colapi serve …`, `colapi token …` (or `colapi --help`); relative paths start from `cwd`. An option
 * of serve left out is read from its variable (COLAPI_PORT…), and a mistake in it names the variable.
 */
export function parseArguments(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd = env.INIT_CWD || process.cwd(),
): Arguments {
  const taken = new Map<string, string>();
  try {
    return readArguments(argv, env, cwd, taken);
  } catch (error) {
    throw error instanceof UsageError && taken.size ? new UsageError(namingVariables(error.message, taken)) : error;
  }
}

function readArguments(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  taken: Map<string, string>,
): Arguments {
  let values: Record<string, string | boolean | string[] | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: OPTIONS,
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (see colapi --help)`);
  }
  if (values.help) return { command: 'help' };
  const [command, url, ...extra] = positionals;
  if (command === undefined)
    throw new UsageError('name a command: colapi serve <database-url>, or colapi token (see colapi --help)');
  if (command !== 'serve' && command !== 'token')
    throw new UsageError(`unknown command "${command}"; the commands are serve and token (see colapi --help)`);
  const foreign = (command === 'serve' ? TOKEN_ONLY : SERVE_ONLY).find((name) => values[name] !== undefined);
  if (foreign !== undefined)
    throw new UsageError(
      `--${foreign} is an option of colapi ${command === 'serve' ? 'token' : 'serve'}, not of colapi ${command}`,
    );
  if (command === 'token') {
    if (url !== undefined) throw new UsageError(`unexpected argument "${url}": colapi token takes options only`);
    return tokenArguments(values, cwd);
  }
  fromEnvironment(OPTIONS, FROM_ENVIRONMENT, values, env, taken, (message) => new UsageError(message));
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}" after the database URL`);
  const databaseUrl = url ?? (env.DATABASE_URL || undefined);
  if (databaseUrl === undefined) throw new UsageError('give the database URL: colapi serve <database-url>');
  try {
    dialectForUrl(databaseUrl);
  } catch {
    throw new UsageError(
      `the database URL must start with postgres://, mysql:// or sqlite:; got "${redactUrl(databaseUrl)}"`,
    );
  }
  const format = (values.format as string | undefined) ?? 'jsonapi';
  if (!FORMAT_NAMES.includes(format))
    throw new UsageError(`--format must be ${FORMAT_NAMES.join(' or ')}; got "${format}"`);
  const portText = (values.port as string | undefined) ?? '8080';
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535)
    throw new UsageError(`--port must be a number from 0 to 65535; got "${portText}"`);
  const workers = workersOf(values.workers as string | undefined);
  if (workers > 1 && /^(sqlite|file):(\/\/)?(:memory:)?$/i.test(databaseUrl))
    throw new UsageError(
      '--workers needs a database the workers share: an in-memory SQLite database is one per process',
    );
  const logLevel = values['log-level'] as string | undefined;
  if (logLevel !== undefined && !LOG_LEVELS.includes(logLevel))
    throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}; got "${logLevel}"`);
  return {
    command: 'serve',
    databaseUrl: sqliteUrlFrom(databaseUrl, cwd),
    format,
    port: Number(portText),
    host: (values.host as string | undefined) ?? '127.0.0.1',
    ...(values.schema === undefined ? {} : { schema: values.schema as string }),
    ...(values.config === undefined ? {} : { config: values.config as string }),
    ...(values.cors === undefined ? {} : { cors: corsOrigins(values.cors as string) }),
    ...(values.atomic ? { atomic: true } : {}),
    ...(logLevel === undefined ? {} : { logLevel }),
    ...cursorSecretOf(values['cursor-secret'] as string | undefined),
    ...(values['require-if-match'] ? { requireIfMatch: true } : {}),
    workers,
    cwd,
    ...adminArguments(values),
  };
}

/** The admin listener's and draining's options, each checked. */
function adminArguments(
  values: Record<string, string | boolean | string[] | undefined>,
): Pick<ServeArguments, 'adminPort' | 'adminHost' | 'grace' | 'readyTimeout'> {
  const text = (name: string) => values[name] as string | undefined;
  const adminPort = text('admin-port');
  if (adminPort !== undefined && (!/^\d{1,5}$/.test(adminPort) || Number(adminPort) > 65535))
    throw new UsageError(`--admin-port must be a number from 0 to 65535; got "${adminPort}"`);
  const adminHost = text('admin-host');
  if (adminHost === '') throw new UsageError('--admin-host must not be empty');
  const grace = text('grace');
  if (grace !== undefined && !(/^\d+(\.\d+)?$/.test(grace) && Number(grace) <= 3600))
    throw new UsageError(`--grace must be a number of seconds from 0 to 3600; got "${grace}"`);
  const readyTimeout = text('ready-timeout');
  if (readyTimeout !== undefined && !(/^\d{1,6}$/.test(readyTimeout) && Number(readyTimeout) > 0))
    throw new UsageError(`--ready-timeout must be a whole number of milliseconds, 1 or more; got "${readyTimeout}"`);
  return {
    ...(adminPort === undefined ? {} : { adminPort: Number(adminPort) }),
    ...(adminHost === undefined ? {} : { adminHost }),
    ...(grace === undefined ? {} : { grace: Number(grace) }),
    ...(readyTimeout === undefined ? {} : { readyTimeout: Number(readyTimeout) }),
  };
}

/** `--workers N`: 1 when left out. */
function workersOf(text: string | undefined): number {
  if (text === undefined) return 1;
  const problem = workersProblem(text);
  if (problem) throw new UsageError(`--workers must be ${problem}`);
  return Number(text);
}

function cursorSecretOf(secret: string | undefined): { cursorSecret?: string } {
  if (secret === undefined) return {};
  if (secret === '') throw new UsageError('--cursor-secret must not be empty');
  return { cursorSecret: secret };
}

/** `--cors a,b`: origins checked as the config file's are. */
function corsOrigins(text: string): readonly string[] {
  const origins = text.split(',').map((o) => o.trim());
  const problem = corsProblem({ origins });
  if (problem) throw new UsageError(`--cors: ${problem.reason.replace(/^must/, 'each origin must')}`);
  return origins;
}

function tokenArguments(values: Record<string, string | boolean | string[] | undefined>, cwd: string): TokenArguments {
  const role = values.role as string | undefined;
  if (role === undefined || role === '') throw new UsageError('give the role of the token: --role NAME');
  const claims = new Map<string, string | number | boolean>();
  for (const argument of (values.claim as string[] | undefined) ?? []) {
    let name: string;
    let value: string | number | boolean;
    try {
      [name, value] = parseClaimArgument(argument);
    } catch (error) {
      throw new UsageError(`--claim ${(error as Error).message}`);
    }
    if (claims.has(name)) throw new UsageError(`--claim ${name} is given twice`);
    claims.set(name, value);
  }
  const sub = values.sub as string | undefined;
  if (sub === '') throw new UsageError('--sub must not be empty');
  const expires = (values.expires as string | undefined) ?? '1h';
  if (!LIFETIME.test(expires))
    throw new UsageError(
      `--expires must be a whole number and s, m, h or d, such as 3600s, 30m, 1h or 7d; got "${expires}"`,
    );
  return {
    command: 'token',
    role,
    ...(sub === undefined ? {} : { sub }),
    // fromEntries makes own members, so a claim named __proto__ is a claim.
    claims: Object.fromEntries(claims),
    expires,
    ...(values.config === undefined ? {} : { config: values.config as string }),
    ...(values.atomic ? { atomic: true } : {}),
    cwd,
  };
}
