import { jsonApiFormat } from '@colapi/format-jsonapi';
import { Registry } from '@colapi/schema';
import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { census, expectError, expectStatus, refs, resource, tagsOf } from './helpers.js';
import { ownServer } from '../shared/own-server.js';

/**
 * A server of its own, on the test database, whose `article` collection refuses to-many replacement and
 * removal (allow_to_many_replacement / allow_to_many_removal false); `tag` keeps the defaults.
 */
describeEachDatabase('Format A: registration options that refuse to-many replacement and removal', (t) => {
  const http = ownServer(
    t,
    ({ target }) => {
      const models = target.registry.models;
      const registry = new Registry([
        { model: models.get('Person')!, options: { name: 'person' } },
        {
          model: models.get('Article')!,
          options: { name: 'article', allow_to_many_replacement: false, allow_to_many_removal: false },
        },
        { model: models.get('Comment')!, options: { name: 'comment' } },
        { model: models.get('Tag')!, options: { name: 'tag' } },
      ]);
      return { registry, format: jsonApiFormat() };
    },
    'application/vnd.api+json',
  );
  beforeEach(() => t().seed());

  const REFUSED: [string, string, unknown][] = [
    ['PATCH', '/api/article/1/relationships/tags', { data: refs('tag', 3) }],
    ['PATCH', '/api/article/1/relationships/comments', { data: [] }],
    ['DELETE', '/api/article/1/relationships/tags', { data: refs('tag', 1) }],
    ['DELETE', '/api/article/1/relationships/comments', { data: refs('comment', 1) }],
    ['PATCH', '/api/article/1', resource('article', { title: 'X' }, { tags: refs('tag', 3) }, '1')],
  ];
  for (const [method, path, body] of REFUSED) {
    it(`${method} ${path}${method === 'PATCH' && !path.includes('relationships') ? ' with a to-many relationship' : ''}: 403, nothing changed`, async () => {
      const before = await census(t());
      expectError(await http().request(method, path, { body }), 403);
      expect(await census(t())).to.deep.equal(before);
      expect(await tagsOf(t(), 1)).to.deep.equal([1, 2]);
      expect((await t().target.database.knex('article').where({ id: 1 }).first()).title).to.equal('Hello World');
    });
  }

  it('still appends with POST, and creates with to-many linkage', async () => {
    expectStatus(await http().post('/api/article/1/relationships/tags', { data: refs('tag', 3) }), 204);
    expect(await tagsOf(t(), 1)).to.deep.equal([1, 2, 3]);
    const created = expectStatus(
      await http().post('/api/article', resource('article', { title: 'New' }, { tags: refs('tag', 1) })),
      201,
    );
    expect(await tagsOf(t(), Number(created.body.data.id))).to.deep.equal([1]);
  });

  it('still changes a to-one relationship and attributes with PATCH', async () => {
    expectStatus(await http().patch('/api/article/1', resource('article', { title: 'Y' }, { author: null }, '1')), 200);
    expectStatus(await http().patch('/api/article/1/relationships/author', { data: { type: 'person', id: '2' } }), 204);
  });

  it('leaves the other collections at the defaults (tag.articles)', async () => {
    expectStatus(await http().patch('/api/tag/1/relationships/articles', { data: refs('article', 2) }), 204);
    expectStatus(
      await http().request('DELETE', '/api/tag/2/relationships/articles', { body: { data: refs('article', 1) } }),
      204,
    );
    expect(await tagsOf(t(), 1)).to.deep.equal([]);
    expect(await tagsOf(t(), 2)).to.deep.equal([1]);
  });
});
