import type { Knex } from 'knex';
import type { ListAnswer, ListPlan } from './compile-list.js';
import type { Dialect } from './dialect.js';
import { runEach } from './run-each.js';
import { runStatement } from './run-statement.js';

/** Runs a list plan on `db` (a pool or a transaction): its statements, then its fallback if needed. */
export async function runList(db: Knex, dialect: Dialect, plan: ListPlan): Promise<ListAnswer> {
  // One statement where the dialect folds the head (PostgreSQL): its answer is the whole answer.
  const only = plan.statements.length === 1 ? await runStatement(db, dialect, plan.statements[0]!) : undefined;
  const parts = only ? [only] : await runEach(db, plan.statements, (s) => runStatement(db, dialect, s));
  let answer = Object.assign({ rows: [] }, ...parts) as ListAnswer;
  if (plan.fallback && answer.total === undefined)
    answer = { ...answer, ...(await runStatement(db, dialect, plan.fallback)) };
  return answer;
}
