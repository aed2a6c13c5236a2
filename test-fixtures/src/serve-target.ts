import { runPrimary, workersOption } from '@colapi/server-koa';
import { connect, replicaUrls, type ReplicaChange } from '@colapi/sql-compiler';
import cluster from 'node:cluster';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startConformanceTarget } from './conformance-app.js';
import { quietKnexLog, startupMessage } from './startup-error.js';
import { createTables } from './tables.js';

/**
 * `pnpm conformance:serve [--workers N]`: DATABASE_URL, PORT and API_FORMAT as conformance/SCHEMA.md says;
 * DATABASE_REPLICA_URLS lists read replicas of DATABASE_URL.
 * With N > 1 a node:cluster primary forks N workers sharing the port and prints the listening line once.
 */
const url = process.env.DATABASE_URL || `sqlite:${join(tmpdir(), 'colapi-conformance.sqlite')}`;

/** Every 500 leaves one line on stderr with its cause, so that an operator can see why (the client is told nothing). */
function logUnexpected(error: unknown): void {
  const describe = (e: unknown): string =>
    e instanceof Error
      ? `${e.name}: ${e.message}${e.stack ? `\n${e.stack.split('\n').slice(1, 4).join('\n')}` : ''}${e.cause === undefined ? '' : `\ncaused by: ${describe(e.cause)}`}`
      : String(e);
  const cause = describe(error);
  process.stderr.write(
    `${JSON.stringify({ level: 'error', time: new Date().toISOString(), msg: 'request failed with 500', cause })}\n`,
  );
}

/** A replica leaving or rejoining the rotation is the operator's business too. */
function logReplica(change: ReplicaChange): void {
  const msg = change.serving ? 'replica serves reads' : 'replica taken out of rotation';
  process.stderr.write(
    `${JSON.stringify({ level: change.serving ? 'info' : 'warn', time: new Date().toISOString(), msg, replica: change.replica, reason: change.reason })}\n`,
  );
}

async function main() {
  const port = Number(process.env.PORT || 8080);
  const format = process.env.API_FORMAT || 'jsonapi';
  const line = `listening on http://127.0.0.1:${port}\n`;
  const workers = cluster.isPrimary ? workersOption(process.argv.slice(2)) : 1;
  if (cluster.isPrimary && workers > 1) {
    // The tables are created once, here: workers racing to create them would collide.
    const db = connect(url, { log: quietKnexLog });
    try {
      await createTables(db.knex, db.dialect);
    } finally {
      await db.knex.destroy();
    }
    runPrimary({ workers, onListening: () => process.stdout.write(line) });
    return;
  }
  // DATABASE_REPLICA_URLS: read replicas of DATABASE_URL (comma-separated) serving reads outside writes.
  const replicas = replicaUrls(process.env.DATABASE_REPLICA_URLS);
  const target = await startConformanceTarget({
    url,
    port,
    format,
    connect: { log: quietKnexLog, replicas, replicaPolicy: { onChange: logReplica } },
    api: { onUnexpectedError: logUnexpected },
  });
  if (cluster.isPrimary) process.stdout.write(line);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(0), 4000);
    force.unref();
    target.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${startupMessage(error, url)}\n`);
  process.exit(1);
});
