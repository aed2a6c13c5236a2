/**
 * Milliseconds a write may go on retrying its transaction after deadlocks and serialization failures,
 * counted from its first attempt, unless createApi's `transactionRetryBudget` says otherwise. Enough for a
 * dozen attempts behind MariaDB's immediate deadlock detection and a few behind PostgreSQL's one-second
 * `deadlock_timeout`, yet well inside the timeouts of ordinary HTTP clients.
 */
export const DEFAULT_RETRY_BUDGET = 5000;

const BUDGET = Symbol('colapi.transactionRetryBudget');

type Budgeted = { readonly [BUDGET]?: number };

/** The budget option checked: a whole number of milliseconds, 0 for no retry at all. */
export function retryBudget(option: number | undefined): number {
  if (option === undefined) return DEFAULT_RETRY_BUDGET;
  if (!Number.isInteger(option) || option < 0) {
    throw new Error(`transactionRetryBudget must be a whole number of milliseconds, 0 or more, not ${option}`);
  }
  return option;
}

/**
 * `work` carrying the retry budget of its request. The budget travels with the work itself, since the
 * executor hands a request's work on to `inTransaction` unchanged and knows nothing of the API's options.
 */
export function withRetryBudget<F extends (...args: never[]) => unknown>(budget: number, work: F): F {
  const carried = ((...args: Parameters<F>) => work(...args)) as F;
  Object.defineProperty(carried, BUDGET, { value: budget });
  return carried;
}

/** The budget `work` carries, or the default for work run without a request (the Executor used directly). */
export function retryBudgetOf(work: object): number {
  return (work as Budgeted)[BUDGET] ?? DEFAULT_RETRY_BUDGET;
}
