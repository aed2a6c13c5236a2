/** The pause before the first retry may last up to this many milliseconds; each further one up to twice the last. */
export const FIRST_BACKOFF = 10;
/** No pause lasts more than this: past it, doubling would only waste the retry budget. */
export const MAX_BACKOFF = 500;

/**
 * How long to wait before retry `attempt` (0 for the first) of a transaction that lost a deadlock or a
 * serialization failure: a random time up to an exponentially growing ceiling ("full jitter"). The random
 * part keeps the transactions that collided from colliding again in step; the growth gives way to a longer
 * queue of lock holders.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  return random() * Math.min(MAX_BACKOFF, FIRST_BACKOFF * 2 ** attempt);
}
