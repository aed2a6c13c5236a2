import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { census, count, expectError, expectStatus, rows, tagsOf } from './helpers.js';

/*
 * A delete never deletes or detaches the resources that refer to the one deleted: while any does (an
 * article by a person, a comment on an article), the delete is refused with 409. Rows of a join table
 * are not resources: they go with either side.
 */
describeEachDatabase('Format A: DELETE removes a resource', (t) => {
  beforeEach(() => t().seed());

  it('answers 204 with no body; the resource is gone (GET 404)', async () => {
    const res = expectStatus(await t().http.delete('/api/person/5'), 204);
    expect(res.text).to.equal('');
    expect(res.headers.get('content-type')).to.equal(null);
    expectError(await t().http.get('/api/person/5'), 404);
    expect(await count(t(), 'person', { id: 5 })).to.equal(0);
  });

  it('answers 404 for a missing id or one that cannot be a key', async () => {
    const before = await census(t());
    expectError(await t().http.delete('/api/person/99'), 404);
    expectError(await t().http.delete('/api/person/abc'), 404);
    expect(await census(t())).to.deep.equal(before);
  });

  it('answers 404 the second time', async () => {
    expectStatus(await t().http.delete('/api/task/1'), 204);
    expectError(await t().http.delete('/api/task/1'), 404);
  });

  it('refuses with 409 to delete a person whom articles still refer to; nothing is deleted', async () => {
    const before = await census(t());
    const error = expectError(await t().http.delete('/api/person/1'), 409);
    expect(error.detail).to.include('articles');
    expect(await census(t())).to.deep.equal(before);
    expect((await rows(t(), 'article', { id: 1 }))[0]!.author_id).to.equal(1);
  });

  it('refuses with 409 to delete a person whom only comments refer to', async () => {
    expectError(await t().http.delete('/api/person/3'), 409);
    expect(await count(t(), 'person', { id: 3 })).to.equal(1);
  });

  it('refuses with 409 to delete an article with comments, and keeps its tags joined', async () => {
    expectError(await t().http.delete('/api/article/1'), 409);
    expect(await tagsOf(t(), 1)).to.deep.equal([1, 2]);
  });

  it('deletes an article with its article_tag rows but not the tags', async () => {
    expectStatus(await t().http.delete('/api/article/5'), 204);
    expect(await count(t(), 'article', { id: 5 })).to.equal(0);
    expect(await count(t(), 'article_tag', { article_id: 5 })).to.equal(0);
    expect(await count(t(), 'tag', { id: 3 })).to.equal(1);
    expect(await count(t(), 'article_tag')).to.equal(3);
  });

  it('deletes a tag with its article_tag rows but not the articles', async () => {
    expectStatus(await t().http.delete('/api/tag/2'), 204);
    expect(await count(t(), 'article_tag', { tag_id: 2 })).to.equal(0);
    expect(await count(t(), 'article')).to.equal(5);
    expect(await tagsOf(t(), 1)).to.deep.equal([1]);
  });

  it('deletes a person once what referred to them is gone', async () => {
    expectStatus(await t().http.patch('/api/person/4/relationships/articles', { data: [] }), 204);
    expectStatus(await t().http.delete('/api/person/4'), 204);
    expect((await rows(t(), 'article', { id: 5 }))[0]!.author_id).to.equal(null);
  });
});
