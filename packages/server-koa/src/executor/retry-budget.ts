/**
 * Milliseconds a write may go on retrying its transaction after deadlocks and serialization failures,
 * counted from its first attempt, unless createApi's `transactionRetryBudget` says otherwise. Enough for a
 * dozen attempts behind MariaDB's immediate deadlock detection and a few behind PostgreSQL's one-second
 * `deadlock_timeout`, yet well inside the timeouts of ordinary HTTP clients.
 */
export const DEFAULT_RETRY_BUDGET = 5000;

/** The budget option checked: a whole number of milliseconds, 0 for no retry at all. */
export function retryBudget(option: number | undefined): number {
  if (option === undefined) return DEFAULT_RETRY_BUDGET;
  if (!Number.isInteger(option) || option < 0) {
    throw new Error(`transactionRetryBudget must be a whole number of milliseconds, 0 or more, not ${option}`);
  }
  return option;
}
