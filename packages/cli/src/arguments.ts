import { parseClaimArgument } from '@colapi/auth';
import { dialectForUrl, redactUrl } from '@colapi/sql-compiler';
import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
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
  /** The directory relative paths start from: where the command was typed. */
  readonly cwd: string;
  /** `--require-if-match`: every write of an existing resource without If-Match is 428. */
  readonly requireIfMatch?: boolean;
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
  --require-if-match   refuse every write of an existing resource without If-Match (428), so that no
                       client overwrites a version it has not read (also requireIfMatch in the config)
  --config FILE        configuration file (default colapi.config.json here, if there is one): rename or
                       hide tables, columns and relationships, choose the tables, set each collection's
                       methods, allow_functions, allow_client_generated_ids, only and exclude; and
                       with auth and roles, who may see and change what (see colapi token)
  -h, --help           show this help

Signals: SIGHUP reads the catalogue and the configuration again without a restart (requests in flight
finish on the schema they started with); SIGTERM or Ctrl+C stop after the requests in flight.

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

const SERVE_ONLY = ['format', 'port', 'host', 'schema', 'require-if-match'];
const TOKEN_ONLY = ['role', 'claim', 'sub', 'expires'];

/** A lifetime as @colapi/auth's signDevelopmentToken reads it. */
const LIFETIME = /^[1-9][0-9]*[smhd]$/;

/** Reads `colapi serve …`, `colapi token …` (or `colapi --help`); relative paths start from `cwd`. */
export function parseArguments(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd = env.INIT_CWD || process.cwd(),
): Arguments {
  let values: Record<string, string | boolean | string[] | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: {
        format: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        schema: { type: 'string' },
        config: { type: 'string' },
        role: { type: 'string' },
        claim: { type: 'string', multiple: true },
        sub: { type: 'string' },
        expires: { type: 'string' },
        'require-if-match': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
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
  return {
    command: 'serve',
    databaseUrl: sqliteUrlFrom(databaseUrl, cwd),
    format,
    port: Number(portText),
    host: (values.host as string | undefined) ?? '127.0.0.1',
    ...(values.schema === undefined ? {} : { schema: values.schema as string }),
    ...(values.config === undefined ? {} : { config: values.config as string }),
    ...(values['require-if-match'] ? { requireIfMatch: true } : {}),
    cwd,
  };
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
    cwd,
  };
}
