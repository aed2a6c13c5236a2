import type { Knex } from 'knex';

/** Told of a write transaction's retries (ApiMetrics counts them). */
export interface RetryObserver {
  retried(): void;
  /** The last failure stands: the next retry would have ended past the budget. */
  exhausted(): void;
}

/**
 * Observers by primary pool: looked up only once a transaction has failed, so that a server without
 * metrics pays nothing on the path of a write that commits.
 */
export const retryObservers = new WeakMap<Knex, RetryObserver>();
