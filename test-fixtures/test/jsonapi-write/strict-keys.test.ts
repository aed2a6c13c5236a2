import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { census, expectError, expectStatus, ref, rows } from './helpers.js';

/** Spellings of a key that are not its canonical one; each is refused, never read as a nearby key. */
const NOT_CANONICAL = [' 1', '1 ', '+1', '1.0', '01', '1e0', '1x', '1\u0000', '', '99999999999999999999'];

describeEachDatabase('Format A: ids in bodies and URLs are read by one strict key parser', (t) => {
  beforeEach(() => t().seed());

  for (const id of NOT_CANONICAL) {
    const shown = JSON.stringify(id);
    it(`a linkage id ${shown} is 400 at /data/id, nothing changed`, async () => {
      const before = await census(t());
      expectError(await t().http.patch('/api/article/1/relationships/author', { data: { type: 'person', id } }), 400, {
        pointer: '/data/id',
      });
      expectError(
        await t().http.post('/api/article/4/relationships/tags', { data: [ref('tag', 1), { type: 'tag', id }] }),
        400,
        { pointer: '/data/1/id' },
      );
      expect((await rows(t(), 'article', { id: 1 }))[0]!.author_id).to.equal(1);
      expect(await census(t())).to.deep.equal(before);
    });

    it(`a relationship in a resource object with id ${shown} is 400 at its pointer`, async () => {
      const body = { data: { type: 'article', id: '1', relationships: { author: { data: { type: 'person', id } } } } };
      expectError(await t().http.patch('/api/article/1', body), 400, { pointer: '/data/relationships/author/data/id' });
      expect((await rows(t(), 'article', { id: 1 }))[0]!.author_id).to.equal(1);
    });

    it(`a client-generated id ${shown} is 400 at /data/id, nothing created`, async () => {
      const before = await census(t());
      expectError(await t().http.post('/api/tag', { data: { type: 'tag', id, attributes: { name: 'strict' } } }), 400, {
        pointer: '/data/id',
      });
      expect(await census(t())).to.deep.equal(before);
    });
  }

  for (const id of ['%201', '1%20', '+1', '1.0', '01', '1e0', '1x', '1%00', '1%ff', '99999999999999999999']) {
    it(`a URL id spelt ${id} names no resource: 404, nothing deleted`, async () => {
      expectError(await t().http.get(`/api/person/${id}`), 404);
      expectError(await t().http.get(`/api/person/${id}/articles`), 404);
      expectError(await t().http.get(`/api/person/1/articles/${id}`), 404);
      const before = await census(t());
      expectError(await t().http.delete(`/api/task/${id}`), 404);
      expect(await census(t())).to.deep.equal(before);
    });
  }

  it('a canonical id beyond what the key column holds names no resource: 404, never a database error', async () => {
    for (const path of [
      '/api/person/99999999999',
      '/api/person/99999999999/articles',
      '/api/person/99999999999/relationships/articles',
      '/api/person/1/articles/99999999999',
      '/api/article/1/author',
    ]) {
      const res = await t().http.get(path);
      if (path.endsWith('/author')) expectStatus(res, 200);
      else expectError(res, 404);
    }
    const before = await census(t());
    expectError(await t().http.delete('/api/task/99999999999'), 404);
    expectError(
      await t().http.patch('/api/person/99999999999', {
        data: { type: 'person', id: '99999999999', attributes: { name: 'X' } },
      }),
      404,
    );
    expect(await census(t())).to.deep.equal(before);
  });

  it('the canonical spelling still names the resource', async () => {
    expect(expectStatus(await t().http.get('/api/person/1'), 200).body.data.id).to.equal('1');
    expectStatus(
      await t().http.post('/api/tag', { data: { type: 'tag', id: '77', attributes: { name: 'seventy-seven' } } }),
      201,
    );
    expectStatus(await t().http.patch('/api/article/4/relationships/author', { data: ref('person', 2) }), 204);
    expect((await rows(t(), 'article', { id: 4 }))[0]!.author_id).to.equal(2);
  });
});
