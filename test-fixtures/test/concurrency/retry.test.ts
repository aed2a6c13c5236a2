import type { HookContext } from '@colapi/server-koa';
import { connect, disconnect, type Database } from '@colapi/sql-compiler';
import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { LOSE_CONFLICT } from './lose-conflict.js';

/**
 * A write whose transaction loses a real deadlock or serialization failure runs again, whole, after a pause,
 * until it commits or its retry budget is spent (then 503). A hook of the update of a person makes each
 * attempt lose a conflict with another connection, as many times as the header `x-test-lose` says (or
 * `always`), and leaves a row per attempt first: only the row of the attempt that commits may remain.
 */
const BUDGET = 1000;
/** The longest pause between two attempts (server-koa's MAX_BACKOFF). */
const LONGEST_PAUSE = 500;
/** When each attempt of the last request began. */
let attempts: number[] = [];
let other: Database | undefined;

async function loseConflicts(_op: unknown, context: HookContext): Promise<void> {
  const lose = context.request.headers['x-test-lose'];
  if (lose === undefined) return;
  attempts.push(performance.now());
  const db = context.db!;
  const title = `attempt ${attempts.length}`;
  const write = () => db('task').insert({ title });
  if (lose !== 'always' && attempts.length > Number(lose)) return void (await write());
  await LOSE_CONFLICT[(db.client.config as { client: string }).client]!(db, other!.knex, write);
}

describeEachDatabase(
  'concurrency: a write that loses a deadlock or a serialization failure',
  (t) => {
    before(() => {
      other = connect(t().target.url);
    });
    after(async () => {
      await disconnect(other!);
    });
    beforeEach(async () => {
      attempts = [];
      await t().seed();
    });

    const rename = (lose: string) =>
      t().http.request('PATCH', '/api/person/3', {
        headers: { 'x-test-lose': lose },
        body: { data: { type: 'person', id: '3', attributes: { name: 'Renamed' } } },
      });
    const attemptRows = () =>
      t().target.database.knex('task').where('title', 'like', 'attempt %').orderBy('title').pluck('title');

    it('runs again, whole, and answers from the attempt that commits', async () => {
      const res = await rename('2');
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.attributes.name).to.equal('Renamed');
      expect(attempts).to.have.length(3);
      expect(await attemptRows()).to.deep.equal(['attempt 3']);
      const [weights] = await t().target.database.knex('task').where('title', 'like', 'weight %').count({ n: '*' });
      expect(Number(weights!.n)).to.equal(0);
    });

    it('answers 503 once the next pause would end past its retry budget, having changed nothing', async () => {
      const start = performance.now();
      const res = await rename('always');
      const elapsed = performance.now() - start;
      expect(res.status, res.text).to.equal(503);
      expect(res.body.errors[0].detail).to.match(/conflicted with a concurrent one/);
      expect(attempts.length).to.be.at.least(3);
      // Every attempt began within the budget (give or take a late timer), and it gave up only when the next
      // pause would have overrun it.
      expect(attempts.at(-1)! - attempts[0]!).to.be.below(BUDGET + 250);
      expect(elapsed).to.be.above(BUDGET - LONGEST_PAUSE);
      expect(elapsed).to.be.below(BUDGET + 2000);
      expect(await attemptRows()).to.deep.equal([]);
      const [person] = await t().target.database.knex('person').where('id', 3).select('name');
      expect(person.name).to.equal('Carol');
    });
  },
  { api: { hooks: { person: { update: { before: loseConflicts } } }, transactionRetryBudget: BUDGET } },
);
