import { countQueries, describeEachDatabase, type TestResponse } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { census, expectError, expectStatus, ref, refs, resource, rows, tagsOf } from './helpers.js';

/**
 * Requests that fail after they have already written: each case checks that the server did send a write
 * statement before failing, and that every table is exactly as before.
 */
describeEachDatabase('Format A: a write that fails half-way leaves no trace', (t) => {
  beforeEach(() => t().seed());

  /** Runs a request; answers it with the SQL the server sent meanwhile. */
  const traced = async (send: () => Promise<TestResponse>) => {
    const { result, sql } = await countQueries(t().target.database.knex, send);
    return { res: result, writes: sql.filter((s) => /^\s*(insert|update|delete)\b/i.test(s)) };
  };

  const CASES: [string, () => Promise<TestResponse>, RegExp][] = [
    [
      'POST article with tags [existing, missing]',
      () =>
        t().http.post(
          '/api/article',
          resource('article', { title: 'Half' }, { author: ref('person', 1), tags: refs('tag', 1, 99) }),
        ),
      /^\s*insert into .?article.? /i,
    ],
    [
      'POST person with articles [existing, missing]',
      () => t().http.post('/api/person', resource('person', { name: 'Half' }, { articles: refs('article', 4, 99) })),
      /^\s*insert into .?person.? /i,
    ],
    [
      'PATCH person with attributes and articles [missing]',
      () =>
        t().http.patch(
          '/api/person/1',
          resource('person', { name: 'Changed', age: 99 }, { articles: refs('article', 99) }, '1'),
        ),
      /^\s*update .?person.? /i,
    ],
    [
      'PATCH article with a title, an author and tags [existing, missing]',
      () =>
        t().http.patch(
          '/api/article/1',
          resource('article', { title: 'Changed' }, { author: ref('person', 2), tags: refs('tag', 3, 99) }, '1'),
        ),
      /^\s*update .?article.? /i,
    ],
    [
      'PATCH article with tags first replaced, then an author that is missing',
      () =>
        t().http.patch('/api/article/1', {
          data: {
            type: 'article',
            id: '1',
            relationships: { tags: { data: refs('tag', 3) }, comments: { data: refs('comment', 99) } },
          },
        }),
      /^\s*(delete from|insert into) .?article_tag.? /i,
    ],
  ];

  for (const [name, send, write] of CASES) {
    it(`${name}: 404, every table as before`, async () => {
      const before = await census(t());
      const [alice] = await rows(t(), 'person', { id: 1 });
      const articles = await rows(t(), 'article');
      const { res, writes } = await traced(send);
      expectError(res, 404);
      expect(
        writes.some((s) => write.test(s)),
        `a write was sent first: ${writes.join(' | ')}`,
      ).to.equal(true);
      expect(await census(t())).to.deep.equal(before);
      expect((await rows(t(), 'person', { id: 1 }))[0]).to.deep.equal(alice);
      expect(await rows(t(), 'article')).to.deep.equal(articles);
      expect(await tagsOf(t(), 1)).to.deep.equal([1, 2]);
    });
  }

  it('the same requests succeed once the missing resource is left out', async () => {
    const created = expectStatus(
      await t().http.post('/api/article', resource('article', { title: 'Whole' }, { tags: refs('tag', 1) })),
      201,
    );
    expect(await tagsOf(t(), Number(created.body.data.id))).to.deep.equal([1]);
    expectStatus(
      await t().http.patch(
        '/api/person/1',
        resource('person', { name: 'Changed' }, { articles: refs('article', 1) }, '1'),
      ),
      200,
    );
    expect((await rows(t(), 'article', { id: 2 }))[0]!.author_id).to.equal(null);
  });

  it('a unique violation after the relationships were checked leaves no trace', async () => {
    const before = await census(t());
    expectError(
      await t().http.post('/api/tag', resource('tag', { name: 'news' }, { articles: refs('article', 2) })),
      409,
    );
    expect(await census(t())).to.deep.equal(before);
  });

  it('concurrent idempotent appends leave one join row each', async () => {
    const path = '/api/article/2/relationships/tags';
    const results = await Promise.all(
      Array.from({ length: 12 }, () => t().http.post(path, { data: refs('tag', 1, 2) })),
    );
    for (const res of results) expectStatus(res, 204);
    expect(await tagsOf(t(), 2)).to.deep.equal([1, 2]);
  });
});
