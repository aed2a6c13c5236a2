import type { HookContext } from '@colapi/server-koa';
import { connect, disconnect, type Database } from '@colapi/sql-compiler';
import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { LOSE_CONFLICT } from '../concurrency/lose-conflict.js';
import { ATOMIC_HEADERS, expectOneError, lid, res, resultsOf } from './helpers.js';

/**
 * An atomic request whose transaction loses a real deadlock or serialization failure in its second
 * operation runs again whole (lids and results from scratch), as a single write does.
 */
let attempts = 0;
let other: Database | undefined;

async function loseConflicts(_op: unknown, context: HookContext): Promise<void> {
  const lose = context.request.headers['x-test-lose'];
  if (lose === undefined) return;
  attempts++;
  const db = context.db!;
  const write = () => db('task').insert({ title: `attempt ${attempts}` });
  if (lose !== 'always' && attempts > Number(lose)) return void (await write());
  await LOSE_CONFLICT[(db.client.config as { client: string }).client]!(db, other!.knex, write);
}

describeEachDatabase(
  'Atomic operations: a lost deadlock or serialization failure reruns the whole request',
  (t) => {
    before(() => {
      other = connect(t().target.url);
    });
    after(async () => {
      await disconnect(other!);
    });
    beforeEach(async () => {
      attempts = 0;
      await t().seed();
    });
    const send = (lose: string) =>
      t().http.post(
        '/api/operations',
        {
          'atomic:operations': [
            // First: PostgreSQL's losing transaction sets its isolation level before any statement.
            { op: 'update', data: { type: 'person', id: '3', attributes: { name: 'Renamed' } } },
            { op: 'add', data: res('person', { name: 'Retried' }, undefined, { lid: 'p' }) },
            { op: 'add', data: res('article', { title: 'after' }, { author: lid('person', 'p') }) },
          ],
        },
        { headers: { ...ATOMIC_HEADERS, 'x-test-lose': lose } },
      );

    it('commits once, from the attempt that succeeds', async () => {
      const results = resultsOf(await send('2'));
      expect(attempts).to.equal(3);
      const people = await t().target.database.knex('person').where({ name: 'Retried' }).select('id');
      expect(people.map((p: { id: unknown }) => String(p.id))).to.deep.equal([results[1]!.data.id]);
      expect(results[2]!.data.relationships.author.data.id).to.equal(results[1]!.data.id);
      expect((await t().target.database.knex('person').where({ id: 3 }))[0].name).to.equal('Renamed');
      expect(await t().target.database.knex('task').where('title', 'like', 'attempt %').pluck('title')).to.deep.equal([
        'attempt 3',
      ]);
    });
    it('503 once the budget is spent, nothing kept', async () => {
      expectOneError(await send('always'), 503);
      expect(await t().target.database.knex('person').where({ name: 'Retried' })).to.have.lengthOf(0);
      expect((await t().target.database.knex('person').where({ id: 3 }))[0].name).to.equal('Carol');
    });
  },
  { api: { atomic: true, hooks: { person: { update: { before: loseConflicts } } }, transactionRetryBudget: 1000 } },
);
