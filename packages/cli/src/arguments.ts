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
}

export type Arguments = ServeArguments | { readonly command: 'help' };

export const HELP = `Usage: colapi serve <database-url> [options]

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
  --config FILE        configuration file (default colapi.config.json here, if there is one): rename or
                       hide tables, columns and relationships, choose the tables, set each collection's
                       methods, allow_functions, allow_client_generated_ids, only and exclude
  -h, --help           show this help

Signals: SIGHUP reads the catalogue and the configuration again without a restart (requests in flight
finish on the schema they started with); SIGTERM or Ctrl+C stop after the requests in flight.`;

/**
 * A SQLite file named relative to where the command was typed. `pnpm colapi` runs in the repository's root,
 * and tells the directory it was typed in as INIT_CWD.
 */
function sqliteUrlFrom(url: string, cwd: string): string {
  const m = /^(sqlite:|file:)(\/\/)?(.*)$/i.exec(url);
  if (!m || m[3] === '' || m[3] === ':memory:' || isAbsolute(m[3]!)) return url;
  return `${m[1]}${resolve(cwd, m[3]!)}`;
}

/** Reads `colapi serve …` (or `colapi --help`); relative paths start from `cwd`. */
export function parseArguments(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd = env.INIT_CWD || process.cwd(),
): Arguments {
  let values: Record<string, string | boolean | undefined>;
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
  if (command === undefined) throw new UsageError('name a command: colapi serve <database-url> (see colapi --help)');
  if (command !== 'serve')
    throw new UsageError(`unknown command "${command}"; the command is serve (see colapi --help)`);
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
    cwd,
  };
}
