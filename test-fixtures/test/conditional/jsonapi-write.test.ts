import { describeEachDatabase, type TestTarget } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { census, expectError, expectStatus, ref, refs, resource, rows, tagsOf } from '../jsonapi-write/helpers.js';
import { checkAnswersAgainstDocument } from '../openapi/document-watch.js';

/** The row tag of a resource as a GET shows it (`Resource-ETag`). */
async function rowTagOf(t: TestTarget, path: string): Promise<string> {
  const tag = expectStatus(await t.http.get(path), 200).headers.get('resource-etag');
  expect(tag, `${path} has a Resource-ETag`).to.match(/^"[A-Za-z0-9_-]+"$/);
  return tag!;
}

const rename = (id: string, name: string) => resource('person', { name }, undefined, id);
const nameOf = async (t: TestTarget, id: number) => (await rows(t, 'person', { id }))[0]!.name;

describeEachDatabase('Format A: If-Match on writes (lost updates)', (t) => {
  checkAnswersAgainstDocument(t);
  beforeEach(() => t().seed());

  it('updates with the row tag of a GET, with or without include, and answers the new tag', async () => {
    const tag = await rowTagOf(t(), '/api/person/1?include=articles');
    expect(await rowTagOf(t(), '/api/person/1')).to.equal(tag);
    const res = expectStatus(
      await t().http.patch('/api/person/1', rename('1', 'Alicia'), { headers: { 'if-match': tag } }),
      200,
    );
    const fresh = res.headers.get('resource-etag');
    expect(fresh).to.match(/^"/).and.not.equal(tag);
    expect(await rowTagOf(t(), '/api/person/1')).to.equal(fresh);
    expect(await nameOf(t(), 1)).to.equal('Alicia');
  });

  it('refuses a stale tag with 412 naming If-Match, and changes nothing', async () => {
    const stale = await rowTagOf(t(), '/api/person/1');
    expectStatus(await t().http.patch('/api/person/1', rename('1', 'First')), 200);
    const before = await census(t());
    const res = await t().http.patch('/api/person/1', rename('1', 'Second'), { headers: { 'if-match': stale } });
    expectError(res, 412, { header: 'If-Match' });
    expect(await nameOf(t(), 1)).to.equal('First');
    expect(await census(t())).to.deep.equal(before);
  });

  it('compares If-Match strongly: a weak tag never matches; a list matches by any member; * by an existing row', async () => {
    const tag = await rowTagOf(t(), '/api/person/2');
    expectError(await t().http.patch('/api/person/2', rename('2', 'x'), { headers: { 'if-match': `W/${tag}` } }), 412, {
      header: 'If-Match',
    });
    expect(await nameOf(t(), 2)).to.equal('bob');
    expectStatus(
      await t().http.patch('/api/person/2', rename('2', 'Bob'), { headers: { 'if-match': `"old", ${tag}` } }),
      200,
    );
    expectStatus(await t().http.patch('/api/person/2', rename('2', 'Bobby'), { headers: { 'if-match': '*' } }), 200);
    expect(await nameOf(t(), 2)).to.equal('Bobby');
  });

  it('treats a tag read through a related URL or a relationship like the resource own one', async () => {
    const viaRelated = expectStatus(await t().http.get('/api/article/1/author'), 200).headers.get('resource-etag')!;
    expect(viaRelated).to.equal(await rowTagOf(t(), '/api/person/1'));
    expectStatus(await t().http.patch('/api/person/1', rename('1', 'A'), { headers: { 'if-match': viaRelated } }), 200);
  });

  it('leaves a missing resource 404, If-Match: * included (RFC 9110 §13.2.1)', async () => {
    for (const condition of ['*', '"x"']) {
      expectError(
        await t().http.patch('/api/person/999', rename('999', 'x'), { headers: { 'if-match': condition } }),
        404,
      );
      expectError(await t().http.delete('/api/person/999', { headers: { 'if-match': condition } }), 404);
      expectError(
        await t().http.patch(
          '/api/article/999/relationships/author',
          { data: ref('person', 1) },
          { headers: { 'if-match': condition } },
        ),
        404,
      );
    }
  });

  it('answers 412 to If-None-Match that matches the row on a write (* included), and writes otherwise', async () => {
    const tag = await rowTagOf(t(), '/api/person/3');
    for (const condition of ['*', tag, `W/${tag}`]) {
      expectError(
        await t().http.patch('/api/person/3', rename('3', 'x'), { headers: { 'if-none-match': condition } }),
        412,
        {
          header: 'If-None-Match',
        },
      );
    }
    expect(await nameOf(t(), 3)).to.equal('Carol');
    expectStatus(
      await t().http.patch('/api/person/3', rename('3', 'Caroline'), { headers: { 'if-none-match': '"other"' } }),
      200,
    );
    // If-Match is evaluated first: a false one is named, whatever If-None-Match says.
    expectError(
      await t().http.patch('/api/person/3', rename('3', 'y'), { headers: { 'if-match': tag, 'if-none-match': '*' } }),
      412,
      { header: 'If-Match' },
    );
  });

  it('deletes under If-Match: a stale tag keeps the row, the current one removes it', async () => {
    const tag = await rowTagOf(t(), '/api/task/1');
    expectError(await t().http.delete('/api/task/1', { headers: { 'if-match': '"stale"' } }), 412, {
      header: 'If-Match',
    });
    expect(await rows(t(), 'task', { id: 1 })).to.have.lengthOf(1);
    expectStatus(await t().http.delete('/api/task/1', { headers: { 'if-match': tag } }), 204);
    expect(await rows(t(), 'task', { id: 1 })).to.have.lengthOf(0);
  });

  it('guards the relationship endpoints with the owner row tag, and answers its new tag', async () => {
    const tag = await rowTagOf(t(), '/api/article/1');
    const author = '/api/article/1/relationships/author';
    expectError(await t().http.patch(author, { data: ref('person', 2) }, { headers: { 'if-match': '"stale"' } }), 412, {
      header: 'If-Match',
    });
    expect((await rows(t(), 'article', { id: 1 }))[0]!.author_id).to.equal(1);
    const changed = expectStatus(
      await t().http.patch(author, { data: ref('person', 2) }, { headers: { 'if-match': tag } }),
      204,
    );
    const fresh = changed.headers.get('resource-etag')!;
    expect(fresh).to.not.equal(tag);
    expect(await rowTagOf(t(), '/api/article/1')).to.equal(fresh);
    // The old tag no longer holds, on a to-many relationship too.
    const tags = '/api/article/1/relationships/tags';
    for (const [method, body] of [
      ['POST', { data: refs('tag', 3) }],
      ['PATCH', { data: refs('tag', 3) }],
      ['DELETE', { data: refs('tag', 1) }],
    ] as const) {
      expectError(await t().http.request(method, tags, { body, headers: { 'if-match': tag } }), 412, {
        header: 'If-Match',
      });
    }
    expect(await tagsOf(t(), 1)).to.deep.equal([1, 2]);
    const added = expectStatus(
      await t().http.post(tags, { data: refs('tag', 3) }, { headers: { 'if-match': fresh } }),
      204,
    );
    expect(await tagsOf(t(), 1)).to.deep.equal([1, 2, 3]);
    // The join table is not the row: its tag stays (docs/decisions.md).
    expect(added.headers.get('resource-etag')).to.equal(fresh);
  });

  it('lets exactly one of N concurrent PATCHes sent with the same tag succeed', async () => {
    const N = 8;
    for (let round = 0; round < 3; round++) {
      const tag = await rowTagOf(t(), '/api/person/4');
      const answers = await Promise.all(
        Array.from({ length: N }, (_, i) =>
          t().http.patch('/api/person/4', rename('4', `w-${round}-${i}`), { headers: { 'if-match': tag } }),
        ),
      );
      const statuses = answers.map((r) => r.status);
      expect(
        statuses.filter((s) => s === 200),
        statuses.join(),
      ).to.have.lengthOf(1);
      expect(
        statuses.filter((s) => s === 412),
        statuses.join(),
      ).to.have.lengthOf(N - 1);
      const winner = answers.findIndex((r) => r.status === 200);
      expect(await nameOf(t(), 4)).to.equal(`w-${round}-${winner}`);
    }
  });

  it('carries the new row tag on a create, and ignores preconditions there', async () => {
    const res = expectStatus(
      await t().http.post('/api/tag', resource('tag', { name: 'fresh' }), { headers: { 'if-match': '"x"' } }),
      201,
    );
    const tag = res.headers.get('resource-etag');
    expect(tag).to.match(/^"/);
    expect(await rowTagOf(t(), `/api/tag/${res.body.data.id}`)).to.equal(tag);
  });

  it('refuses a malformed If-Match on a write with 400, before writing', async () => {
    expectError(await t().http.patch('/api/person/1', rename('1', 'x'), { headers: { 'if-match': 'unquoted' } }), 400, {
      header: 'If-Match',
    });
    expect(await nameOf(t(), 1)).to.equal('Alice');
  });
});

describeEachDatabase(
  'Format A: requireIfMatch',
  (t) => {
    checkAnswersAgainstDocument(t, { requireIfMatch: true });
    beforeEach(() => t().seed());

    it('answers 428 naming If-Match to every write of a resource without it, relationship writes included', async () => {
      const before = await census(t());
      expectError(await t().http.patch('/api/person/1', rename('1', 'x')), 428, { header: 'If-Match' });
      expectError(await t().http.delete('/api/task/1'), 428, { header: 'If-Match' });
      expectError(await t().http.patch('/api/article/1/relationships/author', { data: null }), 428, {
        header: 'If-Match',
      });
      expectError(await t().http.post('/api/article/1/relationships/tags', { data: refs('tag', 3) }), 428, {
        header: 'If-Match',
      });
      expectError(await t().http.delete('/api/article/1/relationships/tags', { body: { data: refs('tag', 1) } }), 428, {
        header: 'If-Match',
      });
      expect(await census(t())).to.deep.equal(before);
      expect(await nameOf(t(), 1)).to.equal('Alice');
    });

    it('writes with If-Match, and creates without it', async () => {
      const tag = await rowTagOf(t(), '/api/person/1');
      expectStatus(await t().http.patch('/api/person/1', rename('1', 'Alicia'), { headers: { 'if-match': tag } }), 200);
      expectStatus(await t().http.patch('/api/person/2', rename('2', 'Bob'), { headers: { 'if-match': '*' } }), 200);
      expectStatus(await t().http.post('/api/tag', resource('tag', { name: 'free' })), 201);
      expectStatus(await t().http.get('/api/person/1'), 200);
    });
  },
  { api: { requireIfMatch: true } },
);
