import { catalogueReader } from '@colapi/catalogue';
import { startOtlpTracing, stopTracing } from '@colapi/node-support';
import { runPrimary, servingAdmin, type AdminServer } from '@colapi/server-koa';
import { redactUrl } from '@colapi/sql-compiler';
import cluster from 'node:cluster';
import { pino } from 'pino';
import { HELP, parseArguments, UsageError, type ServeArguments } from './arguments.js';
import { DEFAULT_CONFIG_FILE, loadConfig } from './config-file.js';
import { withCorsOrigins } from './cors-origins.js';
import { DatabaseUnavailable, type Generation } from './generation.js';
import { originOf, readCatalogueOnce, serveCatalogue, type CatalogueServer, type ServeOptions } from './serve.js';
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
    // The command line wins over the file; the file is read as it stands at start.
    const grace = args.grace ?? loadConfig(args.config, args.cwd).config.grace ?? 5;
    if (args.workers > 1 && cluster.isPrimary) {
      // The workers being forked read the catalogue as it stands now: a reload asked meanwhile is moot.
      await startPrimary(args, out, grace).finally(() => process.off('SIGHUP', hold));
      return undefined;
    }
    const worker = args.workers > 1;
    const running = await start(args, out, worker).finally(() => process.off('SIGHUP', hold));
    handleSignals(running, out, grace, worker);
    if (early) process.emit('SIGHUP', 'SIGHUP');
    return undefined;
  } catch (error) {
    return failure(error, out);
  }
}

/** The configuration file, read again at each reload. */
const configReader = (args: ServeArguments) => () =>
  withCorsOrigins(loadConfig(args.config, args.cwd).config, args.cors);

/** What `colapi serve` serves, from its arguments. */
function serveOptions(args: ServeArguments, out: Output, worker = false): ServeOptions {
  const readConfig = configReader(args);
  return {
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
    ...(worker ? { worker: true } : {}),
  };
}

/** One process serving, or (`worker`) one of the workers of a primary, which tells the start for all. */
async function start(args: ServeArguments, out: Output, worker: boolean): Promise<CatalogueServer> {
  if ((await startOtlpTracing('colapi')) && !worker) out.stderr('colapi: sending traces to the OTLP endpoint\n');
  const running = await serveCatalogue(serveOptions(args, out, worker));
  if (worker) return running;
  tellServing(args, running.current(), out);
  out.stdout(`listening on ${running.origin}\n`);
  if (running.admin) out.stdout(`admin on ${running.admin.origin} (/live, /ready, /metrics)\n`);
  browseLine(running.origin, out);
  return running;
}

/** What is served, who may ask and what to mind: told once at start. */
function tellServing(args: ServeArguments, g: Generation, out: Output, workers = ''): void {
  // The schema is worth naming where one is chosen; elsewhere it is the database of the URL.
  const chosen = catalogueReader(g.database.dialect.name).defaultSchema !== undefined;
  const where = `${redactUrl(args.databaseUrl)}${chosen && g.schema !== undefined ? ` (schema ${g.schema})` : ''}`;
  out.stderr(`colapi: serving ${summary(g)} of ${where} in ${args.format}${workers}\n`);
  out.stderr(`${accessLine(g)}\n`);
  for (const w of g.warnings) out.stderr(`warning: ${w}\n`);
}

function browseLine(origin: string, out: Output): void {
  out.stderr(
    `  browse ${origin}/  ·  OpenAPI ${origin}/api/openapi.json  ·  kill -HUP ${process.pid} reloads the catalogue\n`,
  );
}

/**
 * `--workers N`: this process runs the admin listener, reads the catalogue once to check it and tell what is
 * served, then forks the workers, which share the API's port, and answers for them all.
 */
async function startPrimary(args: ServeArguments, out: Output, grace: number): Promise<void> {
  const { workers } = args;
  // Listening first: /live answers while the workers start, and /ready waits for every one of them.
  const admin: AdminServer | undefined =
    args.adminPort === undefined
      ? undefined
      : await servingAdmin({
          port: args.adminPort,
          host: args.adminHost ?? args.host,
          workers,
          ...(args.readyTimeout === undefined ? {} : { readyTimeout: args.readyTimeout }),
        });
  try {
    // A mistake in the configuration or an unreachable database is told once, with its exit code.
    const g = await readCatalogueOnce(serveOptions(args, out));
    tellServing(args, g, out, `, ${workers} workers`);
    await g.retire();
    if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
      out.stderr('colapi: sending traces to the OTLP endpoint from every worker\n');
  } catch (error) {
    await admin?.close();
    throw error;
  }
  // Cursors must read the same in every worker: without a key configured, the primary's random one
  // (formats.ts made it on import, before any fork) is theirs too.
  runPrimary({
    workers,
    onListening: ({ port }) => {
      const origin = originOf(args.host, port);
      out.stdout(`listening on ${origin}\n`);
      if (admin) out.stdout(`admin on ${admin.origin} (/live, /ready, /metrics)\n`);
      browseLine(origin, out);
    },
    onStop: (signal) => {
      admin?.drain();
      if (signal === 'SIGTERM' && grace > 0)
        out.stderr(`colapi: SIGTERM: /ready answers 503; the workers serve for ${grace} s more, then stop\n`);
    },
    // Each worker drains for the grace period, then has its requests in flight to finish (10 s at most).
    stopWithin: grace * 1000 + 15_000,
    forwardReload: true,
    report: (line) => out.stderr(`colapi: ${line}\n`),
  });
  // Each worker reloads and says so; who may ask and what to mind is told once, from a reading of its own.
  process.on('SIGHUP', () => {
    out.stderr('colapi: SIGHUP: every worker reads the configuration and the catalogue again\n');
    readCatalogueOnce(serveOptions(args, out)).then(
      async (g) => {
        out.stderr(`${accessLine(g)}\n`);
        for (const w of g.warnings) out.stderr(`warning: ${w}\n`);
        await g.retire();
      },
      () => undefined,
    );
  });
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

/** Signals to one serving process; a worker's come from its primary, which tells them once for all. */
function handleSignals(running: CatalogueServer, out: Output, grace: number, worker: boolean): void {
  // Each worker reloads on its own, and may fail on its own: its lines name it.
  const who = worker ? `colapi: worker ${process.pid}:` : 'colapi:';
  process.on('SIGHUP', () => {
    if (!worker) out.stderr('colapi: SIGHUP: reading the configuration and the catalogue again\n');
    running.reload().then(
      (g) => {
        if (!worker) {
          out.stderr(`${accessLine(g)}\n`);
          for (const w of g.warnings) out.stderr(`warning: ${w}\n`);
        }
        out.stdout(`reloaded: ${summary(g)}${worker ? ` (worker ${process.pid})` : ''}\n`);
      },
      (error: unknown) => out.stderr(`${who} reload failed, still serving the previous schema: ${message(error)}\n`),
    );
  });
  let stopping = false;
  // SIGTERM (an orchestrator) drains for the grace period first; Ctrl+C is someone at the terminal.
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second signal means now; a worker may get Ctrl+C from the terminal and from its primary: the
      // primary kills it if asked twice.
      if (worker) return;
      process.exit(1);
    }
    stopping = true;
    if (signal === 'SIGTERM' && grace > 0 && !worker)
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
