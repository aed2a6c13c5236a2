import type { Knex } from 'knex';

/**
 * `work` for each item on `db`: at once on a pool, where each gets a connection of its own; in turn on a
 * transaction, whose one connection takes one statement at a time (node-postgres queues the others with a
 * warning that it will stop doing so). Answers the results in the items' order.
 */
export async function runEach<T, R>(db: Knex, items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  if (!db.isTransaction) return Promise.all(items.map(work));
  const results: R[] = [];
  for (const item of items) results.push(await work(item));
  return results;
}
