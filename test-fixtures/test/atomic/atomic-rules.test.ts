import { ApiError, type HookTable } from '@colapi/server-koa';
import { describeEachDatabase, tableDigest } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { ACCESS, TENANT_DATA, token } from '../access/tenants.js';
import { count, rows } from '../jsonapi-write/helpers.js';
import { ATOMIC_HEADERS, atomic, expectOneError, id, res, resultsOf } from './helpers.js';

const OPS = '/atomic:operations';
const calls: string[] = [];

/** Hooks on a server of their own: each operation of an atomic request meets them as its single request would. */
const hooks: HookTable = {
  person: {
    create: { before: (op) => ({ ...op, write: { ...op.write, values: { ...op.write.values, name: 'Forced' } } }) },
    update: { before: (op) => ({ ...op, write: { ...op.write, values: { ...op.write.values, other: 1.5 } } }) },
  },
  article: {
    delete: {
      before: () => {
        throw new ApiError(403, 'Forbidden', 'articles are archived, never deleted');
      },
    },
    // Writes through the request's transaction: kept when every operation succeeds, undone otherwise.
    update: { before: async (_op, ctx) => void (await ctx.db!('tag').insert({ name: 'audit' })) },
  },
  tag: {
    '*': { before: (op) => void calls.push(op.kind), after: (result) => void calls.push(`after ${result.kind}`) },
  },
};

describeEachDatabase(
  'Atomic operations: hooks run for each operation, in its transaction',
  (t) => {
    beforeEach(async () => {
      calls.length = 0;
      await t().seed();
    });

    it('a before hook that changes the write: the create answers what was written', async () => {
      const [result] = resultsOf(await atomic(t(), [{ op: 'add', data: res('person', { name: 'Asked' }) }]));
      expect(result!.data.attributes.name).to.equal('Forced');
    });
    it('a hook that writes what the client did not send: the update answers the resource', async () => {
      const [result] = resultsOf(
        await atomic(t(), [{ op: 'update', data: { type: 'person', id: '3', attributes: { name: 'C' } } }]),
      );
      expect(result!.data.attributes).to.include({ name: 'C', other: 1.5 });
    });
    it('every operation meets its hooks, in order, before and after', async () => {
      const r = await atomic(t(), [
        { op: 'add', data: res('tag', { name: 'x' }) },
        { op: 'update', data: { type: 'tag', id: '1', attributes: { name: 'y' } } },
        { op: 'remove', ref: id('tag', 3) },
      ]);
      expect(r.status, r.text).to.equal(200);
      expect(calls).to.deep.equal([
        'create',
        'after resource',
        'update',
        'after resource',
        'delete',
        'after no-content',
      ]);
    });
    it("a hook's refusal: its status at the operation, every earlier operation and hook write undone", async () => {
      const before = await tableDigest(t().target.database.knex);
      const r = await atomic(t(), [
        { op: 'update', data: { type: 'article', id: '1', attributes: { title: 'audited' } } },
        { op: 'add', data: res('tag', { name: 'undone' }) },
        { op: 'remove', ref: id('article', 4) },
      ]);
      expect(expectOneError(r, 403, `${OPS}/2`)).to.equal('articles are archived, never deleted');
      expect(await tableDigest(t().target.database.knex)).to.equal(before);
    });
    it("a hook's write is kept with the operations when all succeed", async () => {
      const r = await atomic(t(), [
        { op: 'update', data: { type: 'article', id: '1', attributes: { title: 'audited' } } },
      ]);
      expect(r.status, r.text).to.equal(204);
      expect(await count(t(), 'tag', { name: 'audit' })).to.equal(1);
    });
  },
  { api: { atomic: true, hooks } },
);

describeEachDatabase(
  'Atomic operations under access rules: each operation as its single request',
  (t) => {
    let ann: Record<string, string>; // tenant 1, person 1
    let cid: Record<string, string>; // tenant 1, person 3
    beforeEach(async () => {
      await t().seed(TENANT_DATA);
      ann = { ...ATOMIC_HEADERS, authorization: `Bearer ${await token('member', { tenant: 1, person: 1 })}` };
      cid = { ...ATOMIC_HEADERS, authorization: `Bearer ${await token('member', { tenant: 1, person: 3 })}` };
    });
    const post = (operations: unknown[], headers: Record<string, string>) =>
      t().http.post('/api/operations', { 'atomic:operations': operations }, { headers });
    const refused = async (status: number, pointer: string, operations: unknown[], headers: Record<string, string>) => {
      const before = await tableDigest(t().target.database.knex);
      const r = await post(operations, headers);
      expectOneError(r, status, pointer);
      expect(await tableDigest(t().target.database.knex), 'a refused request changed rows').to.equal(before);
      return r;
    };

    it('the rules set the owner of a create and a tag is created beside it', async () => {
      const results = resultsOf(
        await post(
          [
            { op: 'add', data: res('article', { title: 'mine' }) },
            { op: 'add', data: res('tag', { name: 't' }) },
          ],
          ann,
        ),
      );
      expect((await rows(t(), 'article', { id: Number(results[0]!.data.id) }))[0]!.author_id).to.equal(1);
    });
    it('a create whose check fails: 403 at it, the operation before undone', () =>
      refused(
        403,
        `${OPS}/1`,
        [
          { op: 'add', data: res('tag', { name: 'gone' }) },
          { op: 'add', data: res('article', { title: 'a forbidden title' }) },
        ],
        ann,
      ));
    it('an update of an article the caller may read but not update: 403', () =>
      refused(
        403,
        `${OPS}/1`,
        [
          { op: 'add', data: res('tag', { name: 'gone' }) },
          { op: 'update', data: { type: 'article', id: '1', attributes: { title: 'x' } } },
        ],
        cid,
      ));
    it('an update of a row the caller cannot read: 404, as if missing', () =>
      refused(
        404,
        `${OPS}/0`,
        [{ op: 'update', data: { type: 'article', id: '2', attributes: { title: 'x' } } }],
        ann,
      ));
    it('a field outside the update columns: 403 with a pointer to it', () =>
      refused(
        403,
        `${OPS}/0/data/attributes/age`,
        [{ op: 'update', data: { type: 'person', id: '1', attributes: { age: 5 } } }],
        ann,
      ));
    it('an operation the role may not do at all (create a comment): 403', () =>
      refused(403, `${OPS}/0`, [{ op: 'add', data: res('comment', { content: 'x' }) }], ann));
    it('the anonymous role: only what it may do (tags are read-only to it): 403', async () => {
      await refused(403, `${OPS}/0`, [{ op: 'add', data: res('tag', { name: 'anon' }) }], ATOMIC_HEADERS);
    });
    it('a relationship change that moves a row out of the scope: 403, nothing changed', () =>
      refused(
        403,
        `${OPS}/0`,
        [{ op: 'update', ref: { ...id('article', 1), relationship: 'author' }, data: id('person', 3) }],
        ann,
      ));
  },
  { api: { atomic: true, access: ACCESS }, seed: false },
);
