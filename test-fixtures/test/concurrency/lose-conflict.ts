import type { Knex } from 'knex';

/**
 * Runs `write` in the transaction `db`, which loses a real conflict with another connection (`other`): a
 * statement of `db` fails with the database's own deadlock or serialization error, the errors the server
 * retries. By knex client name. Persons 4 and 5 are the rows fought over; every change made here is undone.
 */
export const LOSE_CONFLICT: Record<string, (db: Knex, other: Knex, write: () => Promise<unknown>) => Promise<void>> = {
  // A stale snapshot: under REPEATABLE READ, updating a row another transaction changed since is SQLSTATE 40001.
  pg: async (db, other, write) => {
    await db.raw('set transaction isolation level repeatable read');
    await write();
    await other('person')
      .where('id', 5)
      .update({ age: other.raw('age') });
    await db('person')
      .where('id', 5)
      .update({ age: db.raw('age') });
  },
  // The same in WAL mode: a transaction that read a snapshot another connection has since written to cannot
  // write at all (SQLITE_BUSY_SNAPSHOT), so here `write` itself fails: SQLite has one writer at a time, and
  // once `write` had run the other connection could not write.
  'better-sqlite3': async (db, other, write) => {
    await db('person').where('id', 5).first('id');
    // A write that changes nothing leaves the snapshot current: one change, then its undoing.
    await other('person').where('id', 5).increment('age', 1);
    await other('person').where('id', 5).decrement('age', 1);
    await write();
  },
  // A lock cycle (errno 1213): InnoDB rolls back the lighter transaction, so the other one first writes 50 rows.
  mysql2: async (db, other, write) => {
    await write();
    await loseDeadlock(db, other);
  },
};

/**
 * Each transaction holds one of persons 4 and 5 and asks for the other: whichever asks last closes the cycle,
 * and InnoDB rolls back the one that wrote less, `db`.
 */
async function loseDeadlock(db: Knex, other: Knex): Promise<void> {
  await db('person')
    .where('id', 4)
    .update({ age: db.raw('coalesce(age, 0) + 1') });
  const blocker = await other.transaction();
  let crossing: Promise<unknown> = Promise.resolve();
  try {
    await blocker('task').insert(Array.from({ length: 50 }, (_, i) => ({ title: `weight ${i}` })));
    await blocker('person')
      .where('id', 5)
      .update({ age: blocker.raw('coalesce(age, 0) + 1') });
    // Not awaited: it waits for `db`, which is rolled back below, and then goes through.
    crossing = blocker('person')
      .where('id', 4)
      .update({ age: blocker.raw('coalesce(age, 0) + 1') })
      .catch(() => undefined);
    await db('person')
      .where('id', 5)
      .update({ age: db.raw('coalesce(age, 0) + 1') });
  } finally {
    await crossing;
    await blocker.rollback();
  }
}
