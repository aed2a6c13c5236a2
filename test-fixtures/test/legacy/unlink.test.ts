import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectMessage, rows, snapshot, tagIds } from './helpers.js';

/** Spellings of 1 that are not its one canonical spelling, each of which must name no key. */
export const NOT_CANONICAL = [
  '1x',
  '%201',
  '1%20',
  '+1',
  '1.0',
  '01',
  '1e0',
  '0x1',
  '1%00',
  '1%ff',
  '%ff',
  '99999999999999999999',
  '-',
];

describeEachDatabase(
  'Format B: DELETE of a related instance removes only the instance that is related now',
  (t) => {
    beforeEach(() => t().seed());

    it('unsets a to-one relation when the id names its instance', async () => {
      expect((await t().http.delete('/api/article/2/author/1')).status).to.equal(204);
      expect((await rows(t(), 'article', { id: 2 }))[0]).to.include({ author_id: null });
    });

    for (const id of NOT_CANONICAL) {
      it(`refuses a to-one related id that is no valid key (${id}) with 400, changing nothing`, async () => {
        const before = await snapshot(t());
        expectMessage(await t().http.delete(`/api/article/2/author/${id}`), 400, /not a valid id of person/);
        expect(await snapshot(t())).to.equal(before);
        expect((await rows(t(), 'article', { id: 2 }))[0]).to.include({ author_id: 1 });
      });
    }

    for (const [name, path] of [
      ['an instance that does not exist', '/api/article/2/author/7'],
      ['an instance that exists but is not the related one', '/api/article/2/author/2'],
      ['an owner whose to-one relation is empty', '/api/article/4/author/1'],
      ['an instance of another to-many relation', '/api/person/1/articles/3'],
      ['an instance that does not exist, to-many', '/api/person/1/articles/99'],
      ['a many-to-many instance not linked', '/api/article/1/tags/3'],
      ['the related instance of an owner that does not exist', '/api/article/99/author/1'],
      ['an id beyond what the key column holds', '/api/article/2/author/99999999999'],
      ['an id beyond what the key column holds, to-many', '/api/person/1/articles/99999999999'],
      ['an id beyond what the key column holds, many-to-many', '/api/article/1/tags/99999999999'],
    ] as const) {
      it(`answers 404 for ${name}, changing nothing`, async () => {
        const before = await snapshot(t());
        expectMessage(await t().http.delete(path), 404);
        expect(await snapshot(t())).to.equal(before);
      });
    }

    for (const id of ['1x', '+1', '1.0', '%201', '1%ff']) {
      it(`refuses a to-many related id that is no valid key (${id}) with 400`, async () => {
        const before = await snapshot(t());
        expectMessage(await t().http.delete(`/api/person/1/articles/${id}`), 400);
        expectMessage(await t().http.delete(`/api/article/1/tags/${id}`), 400);
        expect(await snapshot(t())).to.equal(before);
      });
    }

    it('removes a linked many-to-many instance, and only it', async () => {
      expect((await t().http.delete('/api/article/1/tags/1')).status).to.equal(204);
      expect(await tagIds(t(), 1)).to.deep.equal([2]);
      // Once gone it is not related any more: the same request is now 404.
      expectMessage(await t().http.delete('/api/article/1/tags/1'), 404);
    });
  },
  { format: 'legacy' },
);

describeEachDatabase(
  'Format B: keys from a client are read strictly',
  (t) => {
    beforeEach(() => t().seed());

    for (const id of NOT_CANONICAL) {
      it(`an id in the URL spelt ${id} names no resource (404) and deletes nothing`, async () => {
        expectMessage(await t().http.get(`/api/person/${id}`), 404);
        const before = await snapshot(t());
        expectMessage(await t().http.delete(`/api/task/${id}`), 404);
        expectMessage(await t().http.patch(`/api/person/${id}`, { name: 'X' }), 404);
        expect(await snapshot(t())).to.equal(before);
      });
    }

    for (const id of [' 1', '1 ', '+1', '1.0', '01', '1e0', '1\u0000', '99999999999999999999', 1.5, true]) {
      it(`an id in a body spelt ${JSON.stringify(id)} is 400 with its place named, nothing changed`, async () => {
        const before = await snapshot(t());
        expectMessage(await t().http.patch('/api/article/1', { author: { id } }), 400, /author/);
        expectMessage(await t().http.patch('/api/article/1', { tags: [{ id }] }), 400, /tags\/0/);
        expectMessage(await t().http.patch('/api/article/1', { tags: { remove: [{ id }] } }), 400, /tags\/remove\/0/);
        expect(await snapshot(t())).to.equal(before);
      });
    }

    it('a canonical id beyond what the key column holds names no resource: 404 on every path', async () => {
      for (const path of [
        '/api/person/99999999999',
        '/api/person/99999999999/articles',
        '/api/person/1/articles/99999999999',
        '/api/person/-99999999999',
      ]) {
        expectMessage(await t().http.get(path), 404);
      }
      const before = await snapshot(t());
      expectMessage(await t().http.delete('/api/task/99999999999'), 404);
      expectMessage(await t().http.patch('/api/person/99999999999', { name: 'X' }), 404);
      expect(await snapshot(t())).to.equal(before);
    });

    it('a numeric id in a body names its key, as a number or as its text', async () => {
      expect((await t().http.patch('/api/article/4', { author: { id: 2 } })).status).to.equal(200);
      expect((await t().http.patch('/api/article/5', { author: { id: '2' } })).status).to.equal(200);
      expect((await rows(t(), 'article', { author_id: 2 })).map((r) => Number(r.id))).to.deep.equal([3, 4, 5]);
    });
  },
  { format: 'legacy' },
);
