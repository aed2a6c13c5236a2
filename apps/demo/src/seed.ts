import type { Registry } from '@colapi/schema';
import type { Dialect } from '@colapi/sql-compiler';
import type { Knex } from 'knex';
import { generateBookshop, type Rows } from './seed-data.js';
import { TABLES } from './tables.js';

/** After rows with explicit ids, the next generated id must come after them; only PostgreSQL needs telling. */
const AFTER_EXPLICIT_IDS: Readonly<Record<string, (trx: Knex.Transaction, table: string) => Promise<void>>> = {
  postgres: async (trx, table) => {
    await trx.raw(`select setval(pg_get_serial_sequence(?, 'id'), coalesce((select max(id) from ??), 0) + 1, false)`, [
      table,
      table,
    ]);
  },
};

/** True when no table of the bookshop holds a row. */
export async function isEmpty(knex: Knex): Promise<boolean> {
  for (const [table] of TABLES) {
    if (await knex(table).first(knex.raw('1 as present'))) return false;
  }
  return true;
}

/**
 * Fills empty tables with the sample data, in one transaction; does nothing when any row exists, so a
 * restart never duplicates or overwrites what a user changed. Answers the number of rows written.
 */
export async function seedIfEmpty(
  knex: Knex,
  dialect: Dialect,
  registry: Registry,
  rows: Rows = generateBookshop(),
): Promise<number> {
  if (!(await isEmpty(knex))) return 0;
  let written = 0;
  await knex.transaction(async (trx) => {
    for (const [table] of TABLES) {
      const list = rows[table] ?? [];
      // Values go through the dialect as the API's own writes do (booleans on SQLite, timestamps on MySQL).
      const model = [...registry.models.values()].find((m) => m.table === table);
      const prepared = list.map((row) => {
        const out: Record<string, unknown> = {};
        for (const [name, value] of Object.entries(row)) {
          const column = model?.columns.get(name);
          out[name] = column && value !== null ? dialect.writeValue(trx, column, value) : value;
        }
        return out;
      });
      // Small batches keep every dialect under its limit of bound parameters per statement.
      for (let i = 0; i < prepared.length; i += 100) await trx(table).insert(prepared.slice(i, i + 100));
      if (list.length && model) await AFTER_EXPLICIT_IDS[dialect.name]?.(trx, table);
      written += list.length;
    }
  });
  return written;
}
