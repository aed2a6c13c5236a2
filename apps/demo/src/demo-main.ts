import { startOtlpTracing, stopTracing } from '@colapi/node-support';
import {
  clusterSecret,
  runPrimary,
  servingAdmin,
  servingChecks,
  type AdminServer,
  type ServingChecks,
} from '@colapi/server-koa';
import { redactUrl } from '@colapi/sql-compiler';
import cluster from 'node:cluster';
import { pino } from 'pino';
import { HELP, parseConfig, UsageError } from './config.js';
import { DatabaseUnavailable, originOf, prepareDemo, startDemo, type Demo } from './demo-app.js';

/** `pnpm demo`: starts the bookshop, tells where to open it, and stops gracefully on SIGTERM or Ctrl+C. */
async function main(): Promise<void> {
  const config = parseConfig(process.argv.slice(2), process.env);
  if (config.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  const logger = pino({ level: config.logLevel, base: undefined });
  const banner = (origin: string) =>
    process.stdout.write(
      [
        `colapi demo: a bookshop in ${config.format} on ${redactUrl(config.databaseUrl)}${config.replicaUrls.length ? ` (+${config.replicaUrls.length} read replicas)` : ''}${config.workers > 1 ? `, ${config.workers} workers` : ''}`,
        `  Browse   ${origin}/`,
        `  API      ${origin}/api/books`,
        `  OpenAPI  ${origin}/api/openapi.json`,
        'Press Ctrl+C to stop.',
        '',
      ].join('\n'),
    );
  const adminLine = (admin: AdminServer) => process.stdout.write(`  Admin    ${admin.origin}/live, /ready, /metrics\n`);
  if (config.workers > 1 && cluster.isPrimary) {
    // Listening first: /live answers while the tables are prepared, and /ready waits for every worker.
    const admin =
      config.adminPort === undefined
        ? undefined
        : await servingAdmin({ port: config.adminPort, host: config.host, workers: config.workers });
    // The tables are created and seeded once, here; then the workers share the port.
    await prepareDemo({ databaseUrl: config.databaseUrl, logger });
    // Made before the fork, so that every worker signs and reads cursors with this one key.
    clusterSecret();
    runPrimary({
      workers: config.workers,
      onListening: ({ port }) => {
        banner(originOf(config.host, port));
        if (admin) adminLine(admin);
      },
      // Each worker drains for the grace period, then finishes its requests in flight.
      stopWithin: config.grace * 1000 + 10_000,
      onStop: () => admin?.drain(),
    });
    return;
  }
  if (await startOtlpTracing('colapi-demo')) logger.info('sending traces to the OTLP endpoint');
  // A worker's checks go to its primary; a single process answers them on its own admin listener.
  let demo: Demo | undefined;
  // Workers see the same arguments: without --admin-port nothing is measured.
  const checks = config.adminPort !== undefined ? servingChecks(() => demo?.database) : undefined;
  const admin =
    cluster.isPrimary && checks
      ? await servingAdmin({ port: config.adminPort, host: config.host, workers: 1, checks })
      : undefined;
  demo = await startDemo({
    databaseUrl: config.databaseUrl,
    replicaUrls: config.replicaUrls,
    format: config.format,
    port: config.port,
    host: config.host,
    logger,
    ...(checks ? { metrics: checks.metrics } : {}),
  });
  if (cluster.isPrimary) banner(demo.origin);
  if (admin) adminLine(admin);
  stopOnSignals(demo, logger, config.grace, checks, admin);
}

function stopOnSignals(
  demo: Demo,
  logger: pino.Logger,
  grace: number,
  checks: ServingChecks | undefined,
  admin: AdminServer | undefined,
): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second signal means "now": the user does not want to wait for slow requests.
      process.exit(1);
    }
    stopping = true;
    // SIGTERM (an orchestrator) drains first, so that load balancers stop routing here; Ctrl+C does not.
    const wait = signal === 'SIGTERM' ? grace * 1000 : 0;
    checks?.drain();
    logger.info({ signal, grace: wait / 1000 }, 'stopping: draining, then finishing in-flight requests');
    new Promise((resolve) => setTimeout(resolve, wait))
      .then(() => demo.close())
      .then(() => admin?.close())
      .then(
        async () => {
          logger.info('stopped');
          await stopTracing();
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'failed to stop cleanly');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  // Expected failures get one line and no stack: they are about the environment, not the code.
  if (error instanceof UsageError) {
    process.stderr.write(`demo: ${error.message}\n`);
    process.exit(2);
  }
  if (error instanceof DatabaseUnavailable) {
    process.stderr.write(`demo: ${error.message}\n`);
    process.exit(1);
  }
  const code = (error as { code?: unknown }).code;
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    process.stderr.write(`demo: cannot listen: ${(error as Error).message}; choose another PORT\n`);
    process.exit(1);
  }
  process.stderr.write(
    `demo: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
