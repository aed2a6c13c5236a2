import type { Database } from '@colapi/sql-compiler';

/** How long a run may wait for the database to go quiet, and how often it looks. */
const MAX_WAIT_MS = 15_000;
const POLL_MS = 50;
/** A pause once it is quiet, for what the last run left to the OS (sockets closing, backends going idle). */
const PAUSE_MS = 300;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Statements running on the bench database for other sessions than the bench's own. A run ends with up to
 * `connections` requests in flight, and a statement the database is still running when the next run starts
 * slows whichever server goes next: in alternating rounds that was always the first of the pair.
 */
async function busy(db: Database): Promise<number> {
  const { knex, dialect } = db;
  if (dialect.name === 'postgres') {
    const { rows } = await knex.raw(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'active' and pid <> pg_backend_pid()",
    );
    return rows[0].n;
  }
  if (dialect.name === 'mysql') {
    const [rows] = await knex.raw(
      "select count(*) as n from information_schema.processlist where db = database() and command not in ('Sleep', 'Daemon') and id <> connection_id()",
    );
    return Number(rows[0].n);
  }
  // SQLite runs inside the server's own process: nothing outlives a run there.
  return 0;
}

/**
 * Waits until no other session runs a statement on the bench database (at most 15 s); on PostgreSQL then
 * writes out what earlier runs left dirty (CHECKPOINT): a timed checkpoint otherwise lands in whichever run
 * happens to be going, and `create`'s runs leave tens of thousands of written rows behind. Then pauses briefly.
 */
export async function settle(db: Database): Promise<void> {
  const until = Date.now() + MAX_WAIT_MS;
  while (Date.now() < until && (await busy(db)) > 0) await sleep(POLL_MS);
  if (db.dialect.name === 'postgres') await db.knex.raw('checkpoint');
  await sleep(PAUSE_MS);
}
