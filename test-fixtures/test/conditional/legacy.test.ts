import { describeEachDatabase, type TestTarget } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectMessage, expectStatus, rows, snapshot, tagIds } from '../legacy/helpers.js';
import { checkAnswersAgainstDocument } from '../openapi/document-watch.js';

const STRONG_TAG = /^"[A-Za-z0-9_-]+"$/;

async function getTagged(t: TestTarget, path: string) {
  const res = expectStatus(await t.http.get(path), 200, `GET ${path}`);
  expect(res.headers.get('etag'), path).to.match(STRONG_TAG);
  return res;
}

const nameOf = async (t: TestTarget, id: number) => (await rows(t, 'person', { id }))[0]!.name;

describeEachDatabase(
  'Format B: conditional requests',
  (t) => {
    checkAnswersAgainstDocument(t);
    beforeEach(() => t().seed());

    it('tags every 200 GET and answers If-None-Match (a list, *, a weak tag) with 304 and no body', async () => {
      for (const path of [
        '/api/person',
        '/api/person/1',
        '/api/person/1/articles',
        '/api/article?page=2&results_per_page=2',
      ]) {
        // Fetched as the 304s are (no Accept-Encoding): the identity representation and its tag.
        const ok = expectStatus(await t().http.getRaw(path), 200, `GET ${path}`);
        const etag = ok.headers.get('etag')!;
        for (const condition of [etag, `"a", ${etag}`, '*', `W/${etag}`]) {
          const res = await t().http.getRaw(path, { headers: { 'if-none-match': condition } });
          expect(res.status, `${path} ${condition}`).to.equal(304);
          expect(res.text).to.equal('');
          expect(res.headers.get('etag')).to.equal(etag);
          expect(res.headers.get('vary')).to.equal(ok.headers.get('vary'));
          // The paging links of a list travel in the 304 too: they are headers of the 200.
          expect(res.headers.get('link')).to.equal(ok.headers.get('link'));
        }
        expectStatus(await t().http.get(path, { headers: { 'if-none-match': '"other"' } }), 200);
      }
    });

    it('changes the list tag when an instance enters it', async () => {
      const before = (await getTagged(t(), '/api/tag')).headers.get('etag');
      expectStatus(await t().http.post('/api/tag', { name: 'new' }), 201);
      expect((await getTagged(t(), '/api/tag')).headers.get('etag')).to.not.equal(before);
    });

    it('updates under If-Match with the Resource-ETag; a stale one is 412 and changes nothing', async () => {
      const tag = (await getTagged(t(), '/api/person/1')).headers.get('resource-etag')!;
      expect(tag).to.match(STRONG_TAG);
      const res = expectStatus(
        await t().http.patch('/api/person/1', { name: 'Alicia' }, { headers: { 'if-match': tag } }),
        200,
      );
      expect(res.headers.get('resource-etag')).to.match(STRONG_TAG).and.not.equal(tag);
      const before = await snapshot(t());
      expectMessage(
        await t().http.patch('/api/person/1', { name: 'Late' }, { headers: { 'if-match': tag } }),
        412,
        /If-Match/,
      );
      expectMessage(await t().http.delete('/api/person/5', { headers: { 'if-match': tag } }), 412, /If-Match/);
      expectMessage(
        await t().http.put('/api/person/1', { name: 'Put' }, { headers: { 'if-match': tag } }),
        412,
        /If-Match/,
      );
      expectMessage(
        await t().http.patch('/api/article/1', { tags: { add: [{ id: 3 }] } }, { headers: { 'if-match': '"stale"' } }),
        412,
        /If-Match/,
      );
      expect(await snapshot(t())).to.equal(before);
      expect(await tagIds(t(), 1)).to.deep.equal([1, 2]);
    });

    it('leaves a missing instance 404 under If-Match: *', async () => {
      expectMessage(await t().http.patch('/api/person/999', { name: 'x' }, { headers: { 'if-match': '*' } }), 404);
    });

    it('lets exactly one of N concurrent PATCHes sent with the same tag succeed', async () => {
      const N = 8;
      const tag = (await getTagged(t(), '/api/person/3')).headers.get('resource-etag')!;
      const answers = await Promise.all(
        Array.from({ length: N }, (_, i) =>
          t().http.patch('/api/person/3', { name: `w-${i}` }, { headers: { 'if-match': tag } }),
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
      expect(await nameOf(t(), 3)).to.equal(`w-${answers.findIndex((r) => r.status === 200)}`);
    });

    it('refuses a tag list on a bulk update with 412: it has no single version', async () => {
      const before = await snapshot(t());
      expectMessage(
        await t().http.patch('/api/person', { age: 50 }, { headers: { 'if-match': '"x"' } }),
        412,
        /If-Match/,
      );
      expect(await snapshot(t())).to.equal(before);
    });
  },
  { format: 'legacy' },
);

describeEachDatabase(
  'Format B: requireIfMatch',
  (t) => {
    checkAnswersAgainstDocument(t, { requireIfMatch: true });
    beforeEach(() => t().seed());

    it('answers 428 to writes without If-Match, a bulk update included, and runs them with it', async () => {
      const before = await snapshot(t());
      expectMessage(await t().http.patch('/api/person/1', { name: 'x' }), 428, /If-Match/);
      expectMessage(await t().http.delete('/api/person/5'), 428, /If-Match/);
      expectMessage(await t().http.patch('/api/person', { age: 50 }), 428, /If-Match/);
      expect(await snapshot(t())).to.equal(before);
      const tag = (await getTagged(t(), '/api/person/1')).headers.get('resource-etag')!;
      expectStatus(await t().http.patch('/api/person/1', { name: 'Alicia' }, { headers: { 'if-match': tag } }), 200);
      // The specification answers a bulk update 201 with num_modified.
      expectStatus(await t().http.patch('/api/person', { age: 50 }, { headers: { 'if-match': '*' } }), 201);
      expectStatus(await t().http.post('/api/tag', { name: 'free' }), 201);
    });
  },
  { format: 'legacy', api: { requireIfMatch: true } },
);
