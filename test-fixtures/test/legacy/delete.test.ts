import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { count, expectMessage, getOk, rows, snapshot, tagIds } from './helpers.js';

describeEachDatabase(
  'Format B: deleting',
  (t) => {
    beforeEach(() => t().seed());

    it('DELETE of an instance answers 204 with no body, and it is gone', async () => {
      const res = await t().http.delete('/api/task/2');
      expect(res.status).to.equal(204);
      expect(res.text).to.equal('');
      expectMessage(await t().http.get('/api/task/2'), 404);
      expect(await count(t(), 'task')).to.equal(2);
    });

    it('DELETE of an instance takes its many-to-many links with it', async () => {
      expect((await t().http.delete('/api/tag/2')).status).to.equal(204);
      expect(await tagIds(t(), 1)).to.deep.equal([1]);
      expect(await tagIds(t(), 3)).to.deep.equal([]);
    });

    it('DELETE of an instance others still refer to is refused with 400 (an integrity error), nothing deleted', async () => {
      const before = await snapshot(t());
      expectMessage(
        await t().http.delete('/api/person/1'),
        400,
        /person 1 cannot be deleted: its articles still refer to it/,
      );
      expect(await snapshot(t())).to.equal(before);
    });

    it('DELETE of a related instance removes it from a to-many relation and keeps it', async () => {
      expect((await t().http.delete('/api/person/1/articles/2')).status).to.equal(204);
      expect((await rows(t(), 'article', { id: 2 }))[0]).to.include({ title: 'hello again', author_id: null });
      expect((await getOk(t(), '/api/person/1')).body.articles.map((a: { id: number }) => a.id)).to.deep.equal([1]);
    });

    it('DELETE of a related instance removes it from a many-to-many relation only', async () => {
      expect((await t().http.delete('/api/article/1/tags/2')).status).to.equal(204);
      expect(await tagIds(t(), 1)).to.deep.equal([1]);
      expect(await tagIds(t(), 3)).to.deep.equal([2]);
      expect(await count(t(), 'tag')).to.equal(3);
    });

    it('DELETE of a related instance unsets a to-one relation', async () => {
      expect((await t().http.delete('/api/article/3/author/2')).status).to.equal(204);
      expect((await getOk(t(), '/api/article/3')).body).to.include({ author_id: null, author: null });
      expect(await count(t(), 'person')).to.equal(5);
    });

    const REFUSED: [string, string, number][] = [
      ['an instance that does not exist', '/api/task/99', 404],
      ['an id that cannot be a key', '/api/task/x', 404],
      ['a relation that does not exist', '/api/article/1/friends/1', 404],
      ['a related instance that does not exist', '/api/article/1/tags/99', 404],
      ['the related instance of an owner that does not exist', '/api/article/99/tags/1', 404],
      ['a collection path', '/api/task', 405],
      ['a related collection path', '/api/article/1/tags', 405],
      ['a collection that does not enable DELETE', '/api/comment/1', 405],
      ['a related instance of a collection that does not enable DELETE', '/api/person_private/1/articles/1', 405],
    ];
    for (const [name, path, status] of REFUSED) {
      it(`refuses ${name} (${status}) and deletes nothing`, async () => {
        const before = await snapshot(t());
        const res = await t().http.delete(path);
        expectMessage(res, status);
        if (status === 405) expect(res.headers.get('allow')).to.be.a('string').and.not.include('DELETE, DELETE');
        expect(await snapshot(t())).to.equal(before);
      });
    }
  },
  { format: 'legacy' },
);
