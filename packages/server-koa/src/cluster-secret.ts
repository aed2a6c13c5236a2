import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';

/** Where a primary hands the key to its workers: their environment, inherited when they are forked. */
const VARIABLE = 'COLAPI_WORKERS_CURSOR_SECRET';

let made: string | undefined;

/**
 * A random key shared by every process of one node:cluster, for what must read the same in each worker
 * when nothing is configured (the cursors of Format A: one worker signs, another reads). A primary makes it
 * on its first call, which must come before it forks; its workers take it from their environment; a single
 * process makes its own. Outside a cluster worker the variable is never read, so it cannot be set from
 * outside. A restart makes another key.
 */
export function clusterSecret(): string {
  const inherited = cluster.isWorker ? process.env[VARIABLE] : undefined;
  if (inherited) return inherited;
  made ??= randomBytes(32).toString('base64url');
  if (cluster.isPrimary) process.env[VARIABLE] = made;
  return made;
}
