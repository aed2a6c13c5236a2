import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { census, count, expectError, expectStatus, ref, refs, rows, tagsOf } from './helpers.js';

/** Relationship endpoints answer 204: the relationship is then exactly what the request asked for. */
describeEachDatabase('Format A: /relationships/ endpoints change linkage', (t) => {
  beforeEach(() => t().seed());

  const linkage = async (path: string) => expectStatus(await t().http.get(path), 200).body.data;
  const articleOf = async (comment: number) => (await rows(t(), 'comment', { id: comment }))[0]!.article_id;

  describe('a to-one relationship (article.author)', () => {
    const path = '/api/article/1/relationships/author';

    it('PATCH sets it: 204, then GET shows it', async () => {
      const res = expectStatus(await t().http.patch(path, { data: ref('person', 2) }), 204);
      expect(res.text).to.equal('');
      expect(await linkage(path)).to.deep.equal(ref('person', 2));
      expect((await rows(t(), 'article', { id: 1 }))[0]!.author_id).to.equal(2);
    });

    it('PATCH with null clears it', async () => {
      expectStatus(await t().http.patch(path, { data: null }), 204);
      expect(await linkage(path)).to.equal(null);
      expect((await rows(t(), 'article', { id: 1 }))[0]!.author_id).to.equal(null);
    });

    const REFUSED: [string, unknown, number, string?][] = [
      ['a missing person', { data: ref('person', 99) }, 404],
      ['a linkage of another type', { data: ref('tag', 1) }, 409, '/data/type'],
      ['a list', { data: refs('person', 2) }, 400, '/data'],
      ['no data', { meta: {} }, 400, '/data'],
    ];
    for (const [name, body, status, pointer] of REFUSED) {
      it(`PATCH with ${name}: ${status}, unchanged`, async () => {
        expectError(await t().http.patch(path, body), status, pointer ? { pointer } : undefined);
        expect((await rows(t(), 'article', { id: 1 }))[0]!.author_id).to.equal(1);
      });
    }

    for (const method of ['POST', 'DELETE']) {
      it(`${method} is 405 with Allow, whatever the body`, async () => {
        for (const body of [{ data: ref('person', 2) }, { data: [ref('person', 2)] }, undefined]) {
          const res = await t().http.request(method, path, body === undefined ? {} : { body });
          expectError(res, 405);
          expect(res.headers.get('allow')).to.equal('GET, PATCH');
        }
        expect((await rows(t(), 'article', { id: 1 }))[0]!.author_id).to.equal(1);
      });
    }
  });

  describe('a many-to-many relationship (article.tags)', () => {
    const path = '/api/article/1/relationships/tags';

    it('POST appends', async () => {
      expectStatus(await t().http.post(path, { data: refs('tag', 3) }), 204);
      expect(await tagsOf(t(), 1)).to.deep.equal([1, 2, 3]);
      expect(await linkage(path)).to.deep.equal(refs('tag', 1, 2, 3));
    });

    it('POST is idempotent: a tag already there, or named twice, leaves one join row', async () => {
      expectStatus(await t().http.post(path, { data: refs('tag', 1) }), 204);
      expectStatus(await t().http.post(path, { data: refs('tag', 1) }), 204);
      expectStatus(await t().http.post(path, { data: refs('tag', 3, 3) }), 204);
      expect(await count(t(), 'article_tag', { article_id: 1, tag_id: 1 })).to.equal(1);
      expect(await count(t(), 'article_tag', { article_id: 1, tag_id: 3 })).to.equal(1);
      expect(await tagsOf(t(), 1)).to.deep.equal([1, 2, 3]);
    });

    it('PATCH replaces', async () => {
      expectStatus(await t().http.patch(path, { data: refs('tag', 2, 3) }), 204);
      expect(await tagsOf(t(), 1)).to.deep.equal([2, 3]);
      expect(await tagsOf(t(), 3), 'other articles keep theirs').to.deep.equal([2]);
    });

    it('PATCH with [] clears, keeping the tags', async () => {
      expectStatus(await t().http.patch(path, { data: [] }), 204);
      expect(await tagsOf(t(), 1)).to.deep.equal([]);
      expect(await count(t(), 'tag')).to.equal(3);
    });

    it('DELETE removes the named ones, keeping the tags', async () => {
      expectStatus(await t().http.request('DELETE', path, { body: { data: refs('tag', 1) } }), 204);
      expect(await tagsOf(t(), 1)).to.deep.equal([2]);
      expect(await count(t(), 'tag')).to.equal(3);
    });

    it('DELETE of a tag that is not there changes nothing', async () => {
      expectStatus(await t().http.request('DELETE', path, { body: { data: refs('tag', 3) } }), 204);
      expect(await tagsOf(t(), 1)).to.deep.equal([1, 2]);
    });

    it('from the other side too (tag.articles)', async () => {
      expectStatus(await t().http.post('/api/tag/3/relationships/articles', { data: refs('article', 2) }), 204);
      expect(await tagsOf(t(), 2)).to.deep.equal([3]);
    });

    const REFUSED: [string, string, unknown, number, string?][] = [
      ['POST', 'a missing tag among existing ones', { data: refs('tag', 3, 99) }, 404],
      ['PATCH', 'a missing tag among existing ones', { data: refs('tag', 3, 99) }, 404],
      ['DELETE', 'a missing tag', { data: refs('tag', 99) }, 404],
      ['POST', 'one identifier instead of a list', { data: ref('tag', 3) }, 400, '/data'],
      ['PATCH', 'null', { data: null }, 400, '/data'],
      ['POST', 'an identifier of another type', { data: [ref('tag', 3), ref('person', 1)] }, 409, '/data/1/type'],
      ['POST', 'an identifier without id', { data: [{ type: 'tag' }] }, 400, '/data/0/id'],
      ['POST', 'an id that is a number', { data: [{ type: 'tag', id: 3 }] }, 400, '/data/0/id'],
    ];
    for (const [method, name, body, status, pointer] of REFUSED) {
      it(`${method} with ${name}: ${status}, unchanged`, async () => {
        const before = await census(t());
        expectError(await t().http.request(method, path, { body }), status, pointer ? { pointer } : undefined);
        expect(await census(t())).to.deep.equal(before);
        expect(await tagsOf(t(), 1)).to.deep.equal([1, 2]);
      });
    }
  });

  describe('a to-many relationship kept by the foreign key of the others (article.comments)', () => {
    const path = '/api/article/1/relationships/comments';

    it('DELETE unlinks (article_id null) without deleting the comments', async () => {
      expectStatus(await t().http.request('DELETE', path, { body: { data: refs('comment', 1) } }), 204);
      expect(await articleOf(1)).to.equal(null);
      expect(await articleOf(2)).to.equal(1);
      expect(await count(t(), 'comment')).to.equal(4);
      expect(await linkage(path)).to.deep.equal(refs('comment', 2));
    });

    it('DELETE of a comment of another article leaves it there', async () => {
      expectStatus(await t().http.request('DELETE', path, { body: { data: refs('comment', 3) } }), 204);
      expect(await articleOf(3)).to.equal(3);
    });

    it('POST links a comment, moving it from where it was', async () => {
      expectStatus(await t().http.post(path, { data: refs('comment', 3, 4) }), 204);
      expect(await linkage(path)).to.deep.equal(refs('comment', 1, 2, 3, 4));
      expect(await linkage('/api/article/3/relationships/comments')).to.deep.equal([]);
    });

    it('PATCH replaces: comments left out are unlinked, not deleted', async () => {
      expectStatus(await t().http.patch(path, { data: refs('comment', 2, 4) }), 204);
      expect(await articleOf(1)).to.equal(null);
      expect(await articleOf(4)).to.equal(1);
      expect(await count(t(), 'comment')).to.equal(4);
    });
  });

  describe('paths that name no relationship, or a resource that does not exist', () => {
    const CASES: [string, string, unknown, number][] = [
      ['PATCH', '/api/article/99/relationships/author', { data: null }, 404],
      ['POST', '/api/article/99/relationships/tags', { data: refs('tag', 1) }, 404],
      ['POST', '/api/article/abc/relationships/tags', { data: refs('tag', 1) }, 404],
      ['POST', '/api/article/1/relationships/nothing', { data: [] }, 404],
      ['PATCH', '/api/person_private/1/relationships/comments', { data: [] }, 404],
    ];
    for (const [method, path, body, status] of CASES) {
      it(`${method} ${path}: ${status}`, async () => {
        const before = await census(t());
        expectError(await t().http.request(method, path, { body }), status);
        expect(await census(t())).to.deep.equal(before);
      });
    }

    it('a collection without PATCH (comment) answers 405 with Allow', async () => {
      const res = await t().http.patch('/api/comment/1/relationships/author', { data: null });
      expectError(res, 405);
      expect(res.headers.get('allow')).to.equal('GET');
      expect((await rows(t(), 'comment', { id: 1 }))[0]!.author_id).to.equal(2);
    });
  });
});
