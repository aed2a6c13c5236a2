import type { Knex } from 'knex';
import { createHash } from 'node:crypto';
import { TABLES } from '../tables.js';

/**
 * A fingerprint of every row of the conformance tables, in key order: equal before and after a request
 * exactly when the request changed no row. Cheap enough to take around every write of a fuzz run.
 */
export async function tableDigest(knex: Knex, tables: readonly string[] = TABLES): Promise<string> {
  const hash = createHash('sha256');
  for (const table of tables) {
    const rows = await knex(table)
      .select('*')
      .orderBy(table === 'article_tag' ? ['article_id', 'tag_id'] : ['id']);
    hash.update(`${table}\u0000${JSON.stringify(rows)}\u0000`);
  }
  return hash.digest('hex');
}
