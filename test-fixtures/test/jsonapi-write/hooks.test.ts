import type { Filter, OperationResult } from '@colapi/query-ast';
import { ApiError, type HookTable } from '@colapi/server-koa';
import { describeEachDatabase, filterParam } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { census, count, expectError, expectStatus, ref, resource, rows } from './helpers.js';

const adults: Filter = { kind: 'compare', field: { relations: [], column: 'age' }, op: 'ge', value: 18 };
const calls: string[] = [];

/** Hooks of every kind the issue names, on a dedicated server. */
const hooks: HookTable = {
  person: {
    // Changes the body: whatever the client sends, the name is forced.
    create: { before: (op) => ({ ...op, write: { ...op.write, values: { ...op.write.values, name: 'Forced' } } }) },
    // Changes the query: lists show adults only, on top of the client's own filter.
    list: {
      before: (op) => ({
        ...op,
        query: { ...op.query, filter: op.query.filter ? { kind: 'and', filters: [op.query.filter, adults] } : adults },
      }),
    },
    // Rejects with a chosen status, error and header.
    delete: {
      before: () => {
        throw new ApiError(401, 'Unauthorized', 'log in to delete people', undefined, { 'www-authenticate': 'Bearer' });
      },
    },
  },
  article: {
    delete: {
      before: () => {
        throw new ApiError(403, 'Forbidden', 'articles are archived, never deleted');
      },
    },
    // Writes through the operation's transaction: kept when the update succeeds, undone when it fails.
    update: {
      before: async (op, ctx) => void (await ctx.db!('tag').insert({ name: `audit ${op.kind} ${Date.now()}` })),
    },
  },
  tag: {
    // Changes the result: names are shown in capitals.
    fetch: {
      after: (result): OperationResult =>
        result.kind === 'resource' && result.resource
          ? {
              ...result,
              resource: {
                ...result.resource,
                values: { ...result.resource.values, name: String(result.resource.values.name).toUpperCase() },
              },
            }
          : result,
    },
  },
  task: {
    // An after hook that refuses: the write it follows is rolled back.
    create: {
      after: (result) => {
        if (result.kind === 'resource' && result.resource?.values.title === 'refused')
          throw ApiError.conflict('no such tasks');
      },
    },
  },
  network: {
    fetch: {
      before: () => void calls.push('network.fetch.before'),
      after: () => void calls.push('network.fetch.after'),
    },
  },
  '*': {
    '*': {
      before: (op) => void (op.collection.name === 'network' && calls.push(`*.${op.kind}.before`)),
      after: (_result, op) => void (op.collection.name === 'network' && calls.push(`*.${op.kind}.after`)),
    },
  },
};

describeEachDatabase(
  'Format A: hooks before and after operations',
  (t) => {
    beforeEach(() => t().seed());

    it('a before hook changes the body of a create', async () => {
      const res = expectStatus(
        await t().http.post('/api/person', resource('person', { name: 'Mallory', age: 50 })),
        201,
      );
      expect(res.body.data.attributes).to.include({ name: 'Forced', age: 50 });
      expect((await rows(t(), 'person', { id: Number(res.body.data.id) }))[0]!.name).to.equal('Forced');
    });

    it('a before hook changes the query of a list, totals and paging included', async () => {
      const all = expectStatus(await t().http.get('/api/person'), 200);
      expect(all.body.data.map((r: { id: string }) => r.id)).to.deep.equal(['1', '4', '5']);
      expect(all.body.meta.total).to.equal(3);
      const filtered = expectStatus(
        await t().http.get(`/api/person?${filterParam([{ name: 'name', op: 'in', val: ['Alice', 'bob'] }])}`),
        200,
      );
      expect(filtered.body.data.map((r: { id: string }) => r.id)).to.deep.equal(['1']);
      expectStatus(await t().http.get('/api/person/2'), 200);
    });

    it('a before hook rejects with its own status, error and headers; nothing is deleted', async () => {
      const res = await t().http.delete('/api/person/5');
      const error = expectError(res, 401);
      expect(error).to.include({ title: 'Unauthorized', detail: 'log in to delete people' });
      expect(res.headers.get('www-authenticate')).to.equal('Bearer');
      const forbidden = expectError(await t().http.delete('/api/article/5'), 403);
      expect(forbidden.detail).to.equal('articles are archived, never deleted');
      expect(await count(t(), 'person', { id: 5 })).to.equal(1);
      expect(await count(t(), 'article', { id: 5 })).to.equal(1);
    });

    it('an after hook changes the result', async () => {
      const res = expectStatus(await t().http.get('/api/tag/1'), 200);
      expect(res.body.data.attributes.name).to.equal('NEWS');
      expect((await rows(t(), 'tag', { id: 1 }))[0]!.name).to.equal('news');
    });

    it('an after hook that throws rolls the write back', async () => {
      const before = await census(t());
      expectError(await t().http.post('/api/task', resource('task', { title: 'refused', duration: 60 })), 409);
      expect(await census(t())).to.deep.equal(before);
      expectStatus(await t().http.post('/api/task', resource('task', { title: 'fine' })), 201);
    });

    it('what a hook writes through context.db commits or rolls back with the operation', async () => {
      expectStatus(await t().http.patch('/api/article/2', resource('article', { title: 'Kept' }, undefined, '2')), 200);
      expect(await count(t(), 'tag')).to.equal(4);
      expectError(
        await t().http.patch(
          '/api/article/2',
          resource('article', { title: 'Lost' }, { author: ref('person', 99) }, '2'),
        ),
        404,
      );
      expect(await count(t(), 'tag')).to.equal(4);
      expect((await rows(t(), 'article', { id: 2 }))[0]!.title).to.equal('Kept');
    });

    it('runs the collection hooks before the "*" ones, before and after', async () => {
      calls.length = 0;
      expectStatus(await t().http.get('/api/network/1'), 200);
      expect(calls).to.deep.equal(['network.fetch.before', '*.fetch.before', 'network.fetch.after', '*.fetch.after']);
    });
  },
  { api: { hooks } },
);
