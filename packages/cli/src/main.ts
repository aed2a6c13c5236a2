import { catalogueReader } from '@colapi/catalogue';
import { startOtlpTracing, stopTracing } from '@colapi/node-support';
import { redactUrl } from '@colapi/sql-compiler';
import { pino } from 'pino';
import { HELP, parseArguments, UsageError, type ServeArguments } from './arguments.js';
import { DEFAULT_CONFIG_FILE, loadConfig } from './config-file.js';
import { withCorsOrigins } from './cors-origins.js';
import { DatabaseUnavailable, type Generation } from './generation.js';
import { serveCatalogue, type CatalogueServer } from './serve.js';
import { developmentToken } from './token.js';
import { ConfigError } from './validate-config.js';

export interface Output {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const STD: Output = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) };

/**
 * `colapi …`: answers the exit code for a command that ends by itself (help, a token, a mistake, a failed
 * start), or undefined once the server runs (it then ends on SIGTERM or SIGINT).
 */
export async function main(argv: readonly string[], out: Output = STD): Promise<number | undefined> {
  try {
    const args = parseArguments(argv);
    if (args.command === 'help') {
      out.stdout(`${HELP}\n`);
      return 0;
    }
    if (args.command === 'token') {
      out.stdout(`${await developmentToken(args)}\n`);
      return 0;
    }
    // A signal during the start would otherwise end the process: it is kept, and answered once serving.
    let early = false;
    const hold = () => (early = true);
    process.on('SIGHUP', hold);
    const running = await start(args, out).finally(() => process.off('SIGHUP', hold));
    // The command line wins over the file; the file is read as it stands at start.
    handleSignals(running, out, args.grace ?? loadConfig(args.config, args.cwd).config.grace ?? 5);
    if (early) process.emit('SIGHUP', 'SIGHUP');
    return undefined;
  } catch (error) {
    return failure(error, out);
  }
}

/** The configuration file, read again at each reload. */
const configReader = (args: ServeArguments) => () =>
  withCorsOrigins(loadConfig(args.config, args.cwd).config, args.cors);

async function start(args: ServeArguments, out: Output): Promise<CatalogueServer> {
  if (await startOtlpTracing('colapi')) out.stderr('colapi: sending traces to the OTLP endpoint\n');
  const readConfig = configReader(args);
  const running = await serveCatalogue({
    databaseUrl: args.databaseUrl,
    format: args.format,
    port: args.port,
    host: args.host,
    ...(args.schema === undefined ? {} : { schema: args.schema }),
    ...(args.cursorSecret === undefined ? {} : { cursorSecret: args.cursorSecret }),
    config: readConfig,
    ...(args.requireIfMatch ? { api: { requireIfMatch: true } } : {}),
    configSource: args.config ?? DEFAULT_CONFIG_FILE,
    ...(args.atomic ? { api: { atomic: true } } : {}),
    // One JSON line per request on standard output, as the demo writes them.
    logger: pino({ level: args.logLevel ?? 'info', base: undefined }),
    ...(args.adminPort === undefined
      ? {}
      : {
          admin: {
            port: args.adminPort,
            ...(args.adminHost === undefined ? {} : { host: args.adminHost }),
            ...(args.readyTimeout === undefined ? {} : { readyTimeout: args.readyTimeout }),
          },
        }),
    // One JSON line per audited request (@colapi/auth's auditLine: never the token).
    audit: (line) => out.stderr(`${line}\n`),
    onUnexpectedError: (error) =>
      out.stderr(
        `colapi: a request failed with 500: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      ),
  });
  const g = running.current();
  // The schema is worth naming where one is chosen; elsewhere it is the database of the URL.
  const chosen = catalogueReader(g.database.dialect.name).defaultSchema !== undefined;
  const where = `${redactUrl(args.databaseUrl)}${chosen && g.schema !== undefined ? ` (schema ${g.schema})` : ''}`;
  out.stderr(`colapi: serving ${summary(g)} of ${where} in ${args.format}\n`);
  out.stderr(`${accessLine(g)}\n`);
  for (const w of g.warnings) out.stderr(`warning: ${w}\n`);
  out.stdout(`listening on ${running.origin}\n`);
  if (running.admin) out.stdout(`admin on ${running.admin.origin} (/live, /ready, /metrics)\n`);
  out.stderr(
    `  browse ${running.origin}/  ·  OpenAPI ${running.origin}/api/openapi.json  ·  kill -HUP ${process.pid} reloads the catalogue\n`,
  );
  return running;
}

function summary(g: Generation): string {
  const names = [...g.registry.collections.keys()];
  return `${names.length} collection${names.length === 1 ? '' : 's'} (${names.join(', ')})`;
}

/** Who may ask: said at start and after each reload, since a reload may add or remove the rules. */
function accessLine(g: Generation): string {
  if (!g.access)
    return `colapi: no auth in the configuration: every client has the database role's full access (add auth and roles to restrict it)`;
  const roles = [...g.access.policy.roles];
  const anonymous = g.access.auth.anonymous;
  return `colapi: access rules for role${roles.length === 1 ? '' : 's'} ${roles.join(', ') || '(none)'}; a request without a token ${
    anonymous === undefined ? 'is refused (401)' : `acts as ${anonymous}`
  }`;
}

function handleSignals(running: CatalogueServer, out: Output, grace: number): void {
  process.on('SIGHUP', () => {
    out.stderr('colapi: SIGHUP: reading the configuration and the catalogue again\n');
    running.reload().then(
      (g) => {
        out.stderr(`${accessLine(g)}\n`);
        for (const w of g.warnings) out.stderr(`warning: ${w}\n`);
        out.stdout(`reloaded: ${summary(g)}\n`);
      },
      (error: unknown) => out.stderr(`colapi: reload failed, still serving the previous schema: ${message(error)}\n`),
    );
  });
  let stopping = false;
  // SIGTERM (an orchestrator) drains for the grace period first; Ctrl+C is someone at the terminal.
  const stop = (signal: NodeJS.Signals) => {
    // A second signal means now.
    if (stopping) process.exit(1);
    stopping = true;
    if (signal === 'SIGTERM' && grace > 0)
      out.stderr(`colapi: SIGTERM: /ready answers 503; serving for ${grace} s more, then stopping\n`);
    (signal === 'SIGTERM' ? running.drain(grace) : running.close()).then(
      () => stopTracing().then(() => process.exit(0)),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Expected failures are one line and an exit code; anything else keeps its stack. */
function failure(error: unknown, out: Output): number {
  if (error instanceof UsageError || error instanceof ConfigError) {
    out.stderr(`colapi: ${error.message}\n`);
    return 2;
  }
  if (error instanceof DatabaseUnavailable) {
    out.stderr(`colapi: ${error.message}\n`);
    return 1;
  }
  const code = (error as { code?: unknown }).code;
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    out.stderr(`colapi: cannot listen: ${message(error)}; choose another --port\n`);
    return 1;
  }
  out.stderr(`colapi: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 1;
}
