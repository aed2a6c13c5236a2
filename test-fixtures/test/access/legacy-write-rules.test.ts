import { describeEachDatabase, tableDigest, type TestResponse } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { ACCESS, bearer, TENANT_DATA, token } from './tenants.js';

type Auth = { headers: Record<string, string> };

const q = (search: unknown) => `q=${encodeURIComponent(JSON.stringify(search))}`;
const everyTitle = { filters: [{ name: 'title', op: 'like', val: '%' }] };

describeEachDatabase(
  'access control: writes under the rules (Format B)',
  (t) => {
    let ann: Auth; // tenant 1, person 1: owns article 1
    let cid: Auth; // tenant 1, person 3: owns article 3
    beforeEach(async () => {
      await t().seed(TENANT_DATA);
      ann = bearer(await token('member', { tenant: 1, person: 1 }));
      cid = bearer(await token('member', { tenant: 1, person: 3 }));
    });

    const knex = () => t().target.database.knex;
    const titles = async () =>
      (await knex()('article').orderBy('id')).map((r: { id: number; title: string }) => [Number(r.id), r.title]);
    const links = async () =>
      (await knex()('article_tag').orderBy(['article_id', 'tag_id'])).map(
        (r: { article_id: number; tag_id: number }) => `${r.article_id}/${r.tag_id}`,
      );

    /** A Format B error: the status, `{message}` and nothing else. */
    function expectMessage(res: TestResponse, status: number): string {
      expect(res.status, res.text).to.equal(status);
      expect(res.headers.get('content-type'), res.text).to.match(/^application\/json/);
      expect(res.body, res.text).to.have.all.keys('message');
      return res.body.message;
    }

    /** A refused write: the status in Format B's error shape, and no row of any table changed. */
    async function refused(status: number, send: () => Promise<TestResponse>): Promise<TestResponse> {
      const before = await tableDigest(knex());
      const res = await send();
      expectMessage(res, status);
      expect(await tableDigest(knex()), `a refused write changed rows: ${res.text}`).to.equal(before);
      return res;
    }

    /** Two refused writes, one naming a row of tenant 2 (2, or `id`) and one a missing row (999): the same answer. */
    async function sameAsMissing(status: number, send: (id: string) => Promise<TestResponse>, id = '2'): Promise<void> {
      const hidden = await refused(status, () => send(id));
      const missing = await refused(status, () => send('999'));
      expect(hidden.text.replaceAll(new RegExp(`\\b${id}\\b`, 'g'), 'ID')).to.equal(
        missing.text.replaceAll('999', 'ID'),
      );
    }

    describe('create', () => {
      it('sets the owner column from the token, and answers the new object', async () => {
        const res = await t().http.post('/api/article', { title: 'mine' }, ann);
        expect(res.status, res.text).to.equal(201);
        expect(res.body).to.include({ title: 'mine', author_id: 1 });
        expect(res.body.author).to.include({ id: 1, name: 'ann' });
        const row = await knex()('article').where({ id: res.body.id }).first();
        expect(Number(row.author_id)).to.equal(1);
      });

      it('links existing instances it can read on create', async () => {
        const res = await t().http.post('/api/article', { title: 'tagged', tags: [{ id: 1 }] }, ann);
        expect(res.status, res.text).to.equal(201);
        expect(res.body.tags.map((x: { id: number }) => x.id)).to.deep.equal([1]);
      });

      it('refuses a field the rules set, as a column or as its relationship (403)', async () => {
        await refused(403, () => t().http.post('/api/article', { title: 'x', author_id: 3 }, ann));
        await refused(403, () => t().http.post('/api/article', { title: 'x', author: { id: 3 } }, ann));
        await refused(403, () => t().http.post('/api/article', { title: 'x', author: { add: { id: 1 } } }, ann));
      });

      it('refuses a create whose check fails, and rolls it back', async () => {
        await refused(403, () => t().http.post('/api/article', { title: 'a forbidden title' }, ann));
      });

      it('refuses a create when the token lacks the claim a set value comes from', async () => {
        const noPerson = bearer(await token('member', { tenant: 1 }));
        await refused(403, () => t().http.post('/api/article', { title: 'x' }, noPerson));
      });

      it('refuses creating related instances with the new one (403)', async () => {
        await refused(403, () => t().http.post('/api/article', { title: 'x', tags: [{ name: 'new' }] }, ann));
        await refused(403, () => t().http.post('/api/article', { title: 'x', comments: [{ content: 'new' }] }, ann));
        await refused(403, () =>
          t().http.post('/api/article', { title: 'x', tags: [{ id: 1, name: 'renamed' }] }, ann),
        );
      });

      it('answers a link to a row it cannot read as a link to a missing one (404)', async () => {
        await sameAsMissing(404, (id) => t().http.post('/api/article', { title: 'x', comments: [{ id }] }, ann));
        await sameAsMissing(404, (id) => t().http.post('/api/tag', { name: 'x', articles: [{ id }] }, ann));
      });

      it('refuses every write to an anonymous caller as to an unknown collection, and an action the role lacks', async () => {
        const anon = await refused(404, () => t().http.post('/api/article', { title: 'anon' }));
        const unknown = await t().http.post('/api/nosuchcollection', { title: 'anon' });
        expect(anon.text.replaceAll('article', 'C')).to.equal(unknown.text.replaceAll('nosuchcollection', 'C'));
        await refused(403, () => t().http.post('/api/tag', { name: 'anon' }));
        await refused(403, () => t().http.delete('/api/tag/1', ann));
        await refused(404, () => t().http.post('/api/task', { title: 'x' }, ann));
      });
    });

    describe('a foreign key written as a column', () => {
      it('naming a row of tenant 2 is answered exactly as a missing one, on an update and a bulk update', async () => {
        await sameAsMissing(404, (id) => t().http.patch('/api/article/1', { author_id: Number(id) }, ann));
        await sameAsMissing(404, (id) =>
          t().http.patch(`/api/article?${q(everyTitle)}`, { author_id: Number(id) }, ann),
        );
      });
    });

    describe('update of one object', () => {
      it('updates its own article (PATCH and PUT); another member of the tenant may not (403)', async () => {
        const mine = await t().http.patch('/api/article/1', { title: 'renamed' }, ann);
        expect(mine.status, mine.text).to.equal(200);
        expect(mine.body).to.include({ id: 1, title: 'renamed', author_id: 1 });
        const put = await t().http.put('/api/article/1', { title: 'again' }, ann);
        expect(put.status, put.text).to.equal(200);
        await refused(403, () => t().http.patch('/api/article/1', { title: 'stolen' }, cid));
        await refused(403, () => t().http.put('/api/article/1', { title: 'stolen' }, cid));
      });

      it('answers an update of a row it cannot read as missing (404), not forbidden', async () => {
        await sameAsMissing(404, (id) => t().http.patch(`/api/article/${id}`, { title: 'x' }, ann));
        await sameAsMissing(404, (id) => t().http.put(`/api/person/${id}`, { name: 'x' }, ann));
      });

      it('refuses the owner change, as a column, a to-one or its add (403), changing nothing', async () => {
        await refused(403, () => t().http.patch('/api/article/1', { author_id: 3 }, ann));
        await refused(403, () => t().http.patch('/api/article/1', { author: { id: 3 } }, ann));
        await refused(403, () => t().http.patch('/api/article/1', { author: { add: { id: 3 } } }, ann));
        await refused(403, () => t().http.patch('/api/article/1', { author: null }, ann));
        await refused(403, () => t().http.patch('/api/article/1', { author: { remove: { id: 1 } } }, ann));
      });

      it('refuses a field outside the update columns (403), and a field read hides as unknown (400)', async () => {
        await refused(403, () => t().http.patch('/api/person/1', { age: 2 }, ann));
        await refused(403, () => t().http.patch('/api/person/1', { articles: { add: [{ id: 3 }] } }, ann));
        const hidden = await refused(400, () => t().http.patch('/api/person/1', { birthday: '2000-01-01' }, ann));
        const unknown = await t().http.patch('/api/person/1', { nosuchfield: '2000-01-01' }, ann);
        expect(hidden.text.replaceAll('birthday', 'F')).to.equal(unknown.text.replaceAll('nosuchfield', 'F'));
        const ok = await t().http.patch('/api/person/1', { name: 'anna' }, ann);
        expect(ok.status, ok.text).to.equal(200);
        expect(ok.body).not.to.have.property('birthday');
      });

      it('refuses writes into related instances through a relationship (403), changing nothing', async () => {
        const bodies: unknown[] = [
          { tags: { add: [{ name: 'new' }] } },
          { tags: [{ id: 1 }, { name: 'new' }] },
          { tags: [{ id: 1, name: 'renamed' }] },
          { tags: { remove: [{ id: 1, __delete__: true }] } },
          { comments: { add: [{ content: 'new' }] } },
          { comments: [{ id: 1, content: 'changed' }] },
          { comments: { remove: [{ id: 1, __delete__: true }] } },
          { author: { name: 'new' } },
          { author: { add: { name: 'new' } } },
          { author: { id: 1, name: 'renamed' } },
        ];
        for (const body of bodies) await refused(403, () => t().http.patch('/api/article/1', body, ann));
        await refused(403, () => t().http.patch('/api/tag/1', { articles: [{ id: 1, title: 'changed' }] }, ann));
        await refused(403, () => t().http.patch('/api/tag/1', { articles: { add: [{ title: 'new' }] } }, ann));
      });

      it('answers a link to a row it cannot read as a link to a missing one (404), changing nothing', async () => {
        await sameAsMissing(404, (id) => t().http.patch('/api/tag/1', { articles: { add: [{ id }] } }, ann));
        await sameAsMissing(404, (id) => t().http.patch('/api/tag/2', { articles: [{ id: 1 }, { id }] }, ann));
        await sameAsMissing(404, (id) => t().http.patch('/api/article/1', { comments: { add: [{ id }] } }, ann));
        await sameAsMissing(404, (id) => t().http.patch('/api/article/1', { author: { id } }, ann));
        await sameAsMissing(404, (id) => t().http.patch('/api/article/1', { author: { add: { id } } }, ann));
      });

      it('refuses moving a related row it may read but not update (a comment), 403 instead of a silent no-op', async () => {
        // A comment's link to its article is the comment's foreign key: the role has no update on comments.
        await refused(403, () => t().http.patch('/api/article/1', { comments: { add: [{ id: 3 }] } }, ann));
        await refused(403, () => t().http.patch('/api/article/1', { comments: [] }, ann));
        await refused(403, () => t().http.patch('/api/article/1', { comments: [{ id: 3 }] }, ann));
        await refused(403, () => t().http.patch('/api/article/1', { comments: { remove: [{ id: 1 }] } }, ann));
        await refused(403, () => t().http.post('/api/article', { title: 'x', comments: [{ id: 3 }] }, ann));
        // What changes no row is no write: the comment already there stays, and so may be named again.
        const same = await t().http.patch('/api/article/1', { comments: [{ id: 1 }] }, ann);
        expect(same.status, same.text).to.equal(200);
        expect(same.body.comments.map((c: { id: number }) => c.id)).to.deep.equal([1]);
        const again = await t().http.patch('/api/article/1', { comments: { add: [{ id: 1 }] } }, ann);
        expect(again.status, again.text).to.equal(200);
      });

      it('leaves the links of rows it cannot read alone when it replaces or removes (tag 1 keeps article 2)', async () => {
        // Removing a row it cannot see from a relationship names a row that is not there for it.
        await sameAsMissing(404, (id) => t().http.patch('/api/tag/1', { articles: { remove: [{ id }] } }, ann));
        const replaced = await t().http.patch('/api/tag/1', { articles: [{ id: 3 }] }, ann);
        expect(replaced.status, replaced.text).to.equal(200);
        expect(replaced.body.articles.map((a: { id: number }) => a.id)).to.deep.equal([3]);
        expect(await links()).to.deep.equal(['2/1', '3/1', '4/2']);
        const emptied = await t().http.patch('/api/tag/2', { articles: [] }, ann);
        expect(emptied.status, emptied.text).to.equal(200);
        expect(await links()).to.deep.equal(['2/1', '3/1', '4/2']);
      });
    });

    describe('bulk update', () => {
      for (const method of ['PATCH', 'PUT'] as const) {
        const send = (path: string, body: unknown, auth: Auth) => t().http.request(method, path, { body, ...auth });

        it(`${method}: num_modified counts only rows in the caller's update scope, and only those change`, async () => {
          const res = await send('/api/article', { title: 'bulk', q: everyTitle }, ann);
          expect(res.status, res.text).to.equal(201);
          expect(res.body).to.deep.equal({ num_modified: 1 });
          expect(await titles()).to.deep.equal([
            [1, 'bulk'],
            [2, 'second ZZT2'],
            [3, 'third'],
            [4, 'fourth ZZT2'],
          ]);
          const inUrl = await send(`/api/article?${q(everyTitle)}`, { title: 'by cid' }, cid);
          expect(inUrl.body).to.deep.equal({ num_modified: 1 });
          const all = await send('/api/article', { title: 'no q' }, cid);
          expect(all.body).to.deep.equal({ num_modified: 1 });
          expect(await titles()).to.deep.equal([
            [1, 'bulk'],
            [2, 'second ZZT2'],
            [3, 'no q'],
            [4, 'fourth ZZT2'],
          ]);
        });

        it(`${method}: a q naming only rows of tenant 2 or of another member modifies none`, async () => {
          const before = await tableDigest(knex());
          const filters = [
            ...[2, 3, 4].map((id) => ({ name: 'id', op: '==', val: id })),
            { name: 'author__name', op: 'like', val: '%ZZT2%' },
            { name: 'author', op: 'has', val: { name: 'age', op: '==', val: 2 } },
            { name: 'comments', op: 'any', val: { name: 'content', op: 'like', val: '%ZZT2%' } },
          ];
          for (const filter of filters) {
            const res = await send('/api/article', { title: 'x', q: { filters: [filter] } }, ann);
            expect(res.status, res.text).to.equal(201);
            expect(res.body).to.deep.equal({ num_modified: 0 });
          }
          const people = await send(
            '/api/person',
            { name: 'x', q: { filters: [{ name: 'age', op: '==', val: 2 }] } },
            ann,
          );
          expect(people.body).to.deep.equal({ num_modified: 0 });
          expect(await tableDigest(knex())).to.equal(before);
        });

        it(`${method}: on people, only the caller's own row, only its name`, async () => {
          const res = await send('/api/person', { name: 'renamed' }, ann);
          expect(res.body).to.deep.equal({ num_modified: 1 });
          const names = (await knex()('person').orderBy('id')).map((r: { name: string }) => r.name);
          expect(names).to.deep.equal(['renamed', 'bob ZZT2', 'cid', 'dan ZZT2']);
        });

        it(`${method}: on tags (update: true), every tag q names`, async () => {
          const lonely = { filters: [{ name: 'name', op: '==', val: 'lonely' }] };
          const res = await send('/api/tag', { name: 'renamed', q: lonely }, ann);
          expect(res.body).to.deep.equal({ num_modified: 1 });
          expect(await knex()('tag').where({ name: 'renamed' }).select('id')).to.deep.equal([{ id: 2 }]);
        });

        it(`${method}: refuses what breaks the rules (403), changing nothing`, async () => {
          // The check fails, the owner leaves the update scope, a field outside the columns.
          await refused(403, () => send('/api/article', { title: 'forbidden', q: everyTitle }, ann));
          await refused(403, () => send('/api/article', { author_id: 3 }, ann));
          await refused(403, () => send('/api/person', { age: 2 }, ann));
          // A role without update on a collection it reads; anonymous on one it does not know.
          await refused(403, () => send('/api/tag', { name: 'anon' }, { headers: {} }));
          await refused(404, () => send('/api/article', { title: 'anon' }, { headers: {} }));
          await refused(404, () => send('/api/task', { title: 'x' }, ann));
        });

        it(`${method}: a hidden field is unknown, in the values and in q (400)`, async () => {
          const same = async (template: (f: string) => unknown, path = '/api/person') => {
            const hidden = await refused(400, () => send(path, template('birthday'), ann));
            const unknown = await refused(400, () => send(path, template('nosuchfield'), ann));
            expect(hidden.text.replaceAll('birthday', 'F')).to.equal(unknown.text.replaceAll('nosuchfield', 'F'));
          };
          await same((f) => ({ [f]: '2000-01-01' }));
          await same((f) => ({ name: 'x', q: { filters: [{ name: f, op: 'is_null' }] } }));
          await same(
            (f) => ({ title: 'x', q: { filters: [{ name: `author__${f}`, op: 'is_null' }] } }),
            '/api/article',
          );
        });
      }
    });

    describe('delete', () => {
      it('deletes its own article only: another member is refused (403), a hidden one is missing (404)', async () => {
        await knex()('article_tag').where({ article_id: 3 }).delete();
        await knex()('comment').where({ article_id: 3 }).delete();
        await refused(403, () => t().http.delete('/api/article/3', ann));
        await sameAsMissing(404, (id) => t().http.delete(`/api/article/${id}`, ann));
        const own = await t().http.delete('/api/article/3', cid);
        expect(own.status, own.text).to.equal(204);
        expect(await knex()('article').where({ id: 3 })).to.deep.equal([]);
      });

      it('DELETE of a related instance: unlinks what it may update, 403 otherwise, 404 for hidden rows', async () => {
        const res = await t().http.delete('/api/tag/1/articles/1', ann);
        expect(res.status, res.text).to.equal(204);
        expect(await links()).to.deep.equal(['2/1', '4/2']);
        await sameAsMissing(404, (id) => t().http.delete(`/api/tag/1/articles/${id}`, ann));
        await sameAsMissing(404, (id) => t().http.delete(`/api/tag/2/articles/${id}`, ann), '4');
        await sameAsMissing(404, (id) => t().http.delete(`/api/person/${id}/articles/${id}`, ann));
        await sameAsMissing(404, (id) => t().http.delete(`/api/article/${id}/tags/1`, ann));
        // Comment 1 is on article 1, which ann may update, but the comment's foreign key is the comment's.
        await refused(403, () => t().http.delete('/api/article/1/comments/1', ann));
        // Comment 3 is readable but not on article 1: not related, as a missing one.
        const unrelated = await refused(404, () => t().http.delete('/api/article/1/comments/3', ann));
        const missing = await refused(404, () => t().http.delete('/api/article/1/comments/999', ann));
        expect(unrelated.text.replace(/\b3\b/, 'ID')).to.equal(missing.text.replace('999', 'ID'));
        // Article 3 is cid's: ann reads it but may not update it; a person's articles are not in its columns.
        await knex()('article_tag').insert({ article_id: 3, tag_id: 2 });
        await refused(403, () => t().http.delete('/api/article/3/tags/2', ann));
        await refused(403, () => t().http.delete('/api/person/1/articles/1', ann));
        // Anonymous does not know articles, nor a tag's relationship to them: both 404 as unknown.
        await refused(404, () => t().http.delete('/api/article/1/tags/1'));
        const relation = await refused(404, () => t().http.delete('/api/tag/1/articles/1'));
        const unknown = await t().http.delete('/api/tag/1/nosuchrelation/1');
        expect(relation.text.replaceAll('articles', 'R')).to.equal(unknown.text.replaceAll('nosuchrelation', 'R'));
      });
    });
  },
  { format: 'legacy', api: { access: ACCESS }, seed: false },
);
