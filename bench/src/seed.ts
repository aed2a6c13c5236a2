import { connect, type Database } from '@colapi/sql-compiler';
import { createTables } from '@colapi/test-fixtures';
import { resetTables } from '@colapi/test-fixtures/testing';
import type { Knex } from 'knex';
import { row, SIZES, sizesAt, type BenchTable, type Sizes } from './dataset.js';

const ORDER: readonly BenchTable[] = ['person', 'article', 'comment', 'tag', 'article_tag'];
const DATETIME: Record<string, string> = { person: 'birth_datetime', article: 'publishtime' };
/** Rows per INSERT: large enough to be fast, small enough for every driver's limit on bindings. */
// knex writes SQLite's multi-row insert as a compound SELECT, which SQLite limits to 500 terms.
const ROWS_PER_STATEMENT: Record<string, number> = { postgres: 2000, mysql: 2000, sqlite: 400 };

async function counts(knex: Knex): Promise<Record<BenchTable, number>> {
  const out = {} as Record<BenchTable, number>;
  for (const t of ORDER) out[t] = Number(((await knex(t).count({ n: '*' }).first()) as { n: unknown }).n);
  return out;
}

async function insertTable(db: Database, table: BenchTable, sizes: Sizes): Promise<void> {
  const { knex, dialect } = db;
  const per = ROWS_PER_STATEMENT[dialect.name] ?? 500;
  const datetime = DATETIME[table];
  await knex.transaction(async (trx) => {
    for (let start = 1; start <= sizes[table]; start += per) {
      const batch: Record<string, unknown>[] = [];
      for (let i = start; i < start + per && i <= sizes[table]; i++) {
        const r = row(table, i, sizes);
        if (datetime && typeof r[datetime] === 'string') {
          r[datetime] = dialect.writeValue(knex, { name: datetime, type: 'datetime', nullable: true }, r[datetime]);
        }
        batch.push(r);
      }
      await trx(table).insert(batch);
    }
  });
}

/**
 * Fresh statistics, so the planners see the real sizes (and `total: estimated` has numbers). On PostgreSQL a
 * vacuum too, as autovacuum would soon after a bulk load in production (it is off on this machine): until
 * the pages are marked all-visible, every scan checks each row's visibility, and a count of 50,000 articles
 * took 2.74 ms instead of 2.2 ms, for both servers alike.
 */
async function analyze(db: Database): Promise<void> {
  const { knex, dialect } = db;
  if (dialect.name === 'mysql') {
    for (const t of [...ORDER, 'task']) await knex.raw('analyze table ??', [t]);
  } else if (dialect.name === 'postgres') await knex.raw('vacuum (analyze)');
  else await knex.raw('analyze');
}

/**
 * Deletes the rows the create scenario wrote (tags past the dataset's 200; tasks), so that every run starts
 * from the seeded tables and can send the same tag names again.
 */
export async function removeCreatedRows(db: Database): Promise<void> {
  const removed = Number(await db.knex('tag').where('id', '>', SIZES.tag).del()) + Number(await db.knex('task').del());
  // The dead rows a run leaves behind (tens of thousands of tags) are autovacuum's work in production. This
  // machine's PostgreSQL runs with autovacuum off, so without this every later read that touches tag would
  // wade through them: related fell to a tenth of its throughput from one round to the next. A vacuum leaves
  // the indexes at the size the churn grew them to (6-10 MB for tag's 200 rows after a few runs), which the
  // access variant's probes of tag by key read on every join row: its related ratio read 0.76 on indexes of
  // 6 MB (database 0.316 ms a request) and 0.84 once they were rebuilt (0.246 ms), with nothing else changed.
  // So they are rebuilt, then the tables vacuumed and analysed.
  if (removed > 0 && db.dialect.name === 'postgres') {
    await db.knex.raw('reindex table tag');
    await db.knex.raw('reindex table task');
    await db.knex.raw('vacuum (analyze) tag, task');
  }
}

/**
 * Creates the conformance tables and fills them with the bench dataset, unless every table already holds
 * exactly its share. Answers whether it seeded. Rows a create scenario left are removed first.
 */
export async function seedBenchData(url: string, scale: number, log: (line: string) => void): Promise<boolean> {
  const db = connect(url, { pool: { min: 0, max: 1 } });
  try {
    const { knex, dialect } = db;
    await createTables(knex, dialect);
    await removeCreatedRows(db);
    const sizes = sizesAt(scale);
    const have = await counts(knex);
    if (ORDER.every((t) => have[t] === sizes[t])) {
      await analyze(db);
      return false;
    }
    log(`seeding ${url} (${ORDER.map((t) => `${sizes[t]} ${t}`).join(', ')})`);
    const started = Date.now();
    await resetTables(knex, dialect);
    for (const t of ORDER) {
      const t0 = Date.now();
      await insertTable(db, t, sizes);
      log(`  ${t}: ${sizes[t]} rows in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
    if (dialect.name === 'postgres') {
      // Explicit ids leave the sequences behind; the create scenario needs them past the data.
      for (const t of ['person', 'article', 'comment', 'tag', 'task']) {
        await knex.raw(
          `select setval(pg_get_serial_sequence(?, 'id'), coalesce((select max(id) from ??), 0) + 1, false)`,
          [t, t],
        );
      }
    }
    await analyze(db);
    log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return true;
  } finally {
    await db.knex.destroy();
  }
}
