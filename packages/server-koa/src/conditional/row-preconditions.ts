import type { Knex } from 'knex';
import type { Executor } from '../executor/executor.js';
import { rowTag } from './row-tag.js';
import { checkRowPreconditions, type WritePreconditions } from './write-preconditions.js';

/**
 * Runs a write's `work` in its transaction `db` after its preconditions: the target row read with every
 * column and locked (Executor.lockedRow), its tag compared, so that no other writer can slip between the
 * check and the write; 404 when the row is missing, 412 (nothing written) when a precondition is false.
 * Without preconditions, `work` itself: no extra turn of the event loop on the requests that carry none.
 */
export function underPreconditions<T>(
  preconditions: WritePreconditions | undefined,
  executor: Executor,
  db: Knex,
  work: () => Promise<T>,
): Promise<T> {
  return preconditions?.target ? checkedFirst(preconditions, executor, db, work) : work();
}

async function checkedFirst<T>(
  preconditions: WritePreconditions,
  executor: Executor,
  db: Knex,
  work: () => Promise<T>,
): Promise<T> {
  const target = preconditions.target!;
  const row = await executor.lockedRow(db, target.collection, target.id);
  checkRowPreconditions(preconditions, rowTag(target.collection, row.values));
  return work();
}
