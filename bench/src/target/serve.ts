import { runPrimary, workersOption } from '@colapi/server-koa';
import { connect } from '@colapi/sql-compiler';
import { createTables, startConformanceTarget } from '@colapi/test-fixtures';
import cluster from 'node:cluster';
import { BENCH_ACCESS, BENCH_ACCESS_NATIVE } from '../access-rules.js';

/**
 * The conformance target as test-fixtures/src/serve.ts starts it (the same compiled startConformanceTarget,
 * DATABASE_URL, PORT, API_FORMAT, --workers N), with one difference: POOL_SIZE sets the size of the
 * connection pool on PostgreSQL and MariaDB, so that the bench can give it the floor server's pool (16).
 * serve.ts has no such setting (the dialects' pool is 10); SQLite keeps its single connection.
 * No read replicas: the topology mode runs serve.ts itself.
 */
const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const port = Number(process.env.PORT || 8080);
const format = process.env.API_FORMAT || 'jsonapi';
const poolSize = Number(process.env.POOL_SIZE || 0);
const pool = poolSize > 0 && !url.startsWith('sqlite:') ? { pool: { max: poolSize } } : {};
const log = {
  warn: (m: unknown) => process.stderr.write(`knex: ${String(m).split('\n')[0]}\n`),
  error: (m: unknown) => process.stderr.write(`knex: ${String(m).split('\n')[0]}\n`),
  deprecate: () => undefined,
  debug: () => undefined,
};
const line = `listening on http://127.0.0.1:${port}\n`;
const workers = cluster.isPrimary ? workersOption(process.argv.slice(2)) : 1;

if (cluster.isPrimary && workers > 1) {
  const db = connect(url, { log });
  try {
    await createTables(db.knex, db.dialect);
  } finally {
    await db.knex.destroy();
  }
  runPrimary({ workers, onListening: () => process.stdout.write(line) });
} else {
  const target = await startConformanceTarget({
    url,
    port,
    format,
    connect: { log, ...pool },
    api: {
      ...(process.env.BENCH_ACCESS === '1' ? { access: BENCH_ACCESS } : {}),
      ...(process.env.BENCH_ACCESS === 'native' ? { access: BENCH_ACCESS_NATIVE } : {}),
      onUnexpectedError: (e: unknown) =>
        process.stderr.write(
          `${JSON.stringify({ level: 'error', msg: 'request failed with 500', cause: e instanceof Error ? `${e.name}: ${e.message}` : String(e) })}\n`,
        ),
    },
  });
  if (cluster.isPrimary) process.stdout.write(line);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(0), 4000).unref();
    target.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
