import { connect } from '@colapi/sql-compiler';

/**
 * statement_timeout as `n` sessions of the PostgreSQL database at `url` have it, read inside transactions held
 * open at once: behind a transaction pooler each is then lent a server connection of its own (up to the
 * pooler's pool size, 20 in tools/pg-topology). The sessions set nothing themselves: no statement timeout,
 * no named statements.
 */
export async function sessionTimeouts(url: string, n: number): Promise<string[]> {
  const plain = connect(url, { pool: { min: 0, max: n } });
  try {
    const transactions = await Promise.all(Array.from({ length: n }, () => plain.knex.transaction()));
    const shown = await Promise.all(
      transactions.map(async (trx) => String((await trx.raw('show statement_timeout')).rows[0].statement_timeout)),
    );
    await Promise.all(transactions.map((trx) => trx.commit()));
    return shown;
  } finally {
    await plain.knex.destroy();
  }
}
