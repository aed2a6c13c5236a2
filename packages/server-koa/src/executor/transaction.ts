import { errorKind, type Dialect } from '@colapi/sql-compiler';
import type { Knex } from 'knex';
import { setTimeout as sleep } from 'node:timers/promises';
import { inStageSpan } from '../request-span.js';
import { backoffDelay } from './backoff-delay.js';
import { DEFAULT_RETRY_BUDGET } from './retry-budget.js';
import { retryObservers } from './retry-observers.js';

/**
 * Runs `work` in one transaction: all of it commits or none of it does. A deadlock or a serialization
 * failure has rolled all of it back, so the whole transaction runs again after a jittered, growing pause
 * (backoffDelay) — as long as the pause ends within `retryBudget` milliseconds of the first attempt; then the last failure stands (503). Nothing has been answered yet: the caller encodes the
 * response only from what the committed transaction returned.
 *
 * Only a transaction opened here is retried. Given a transaction (`knex` is one), `work` runs in a savepoint
 * of it: the failure has undone the outer transaction too, so retrying is for whoever opened that one.
 */
export async function inTransaction<T>(
  knex: Knex,
  dialect: Dialect,
  work: (trx: Knex.Transaction) => Promise<T>,
  retryBudget = DEFAULT_RETRY_BUDGET,
): Promise<T> {
  if (knex.isTransaction) return knex.transaction(work);
  const config = dialect.writeTransaction?.();
  const deadline = performance.now() + retryBudget;
  for (let attempt = 0; ; attempt++) {
    try {
      // A span per attempt: a retried write shows each attempt, the failed ones with their error.
      return await inStageSpan('transaction', () => knex.transaction(work, config), {
        'colapi.transaction.attempt': attempt + 1,
      });
    } catch (error) {
      if (errorKind(dialect, error) !== 'serialization') throw error;
      const delay = backoffDelay(attempt);
      if (performance.now() + delay > deadline) {
        retryObservers.get(knex)?.exhausted();
        throw error;
      }
      retryObservers.get(knex)?.retried();
      // The failed transaction has given its connection back: waiting holds no lock and no connection.
      await sleep(delay);
    }
  }
}
