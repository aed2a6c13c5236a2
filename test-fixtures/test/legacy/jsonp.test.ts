import { describeEachDatabase, type TestResponse } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectStatus, q } from './helpers.js';

/** The argument of the callback of a JSONP response, parsed: `meta` holds the status and each header. */
function payload(
  res: TestResponse,
  callback: string,
): { meta: { status: number } & Record<string, unknown>; data: unknown } {
  expect(res.status, res.text).to.equal(200);
  expect(res.headers.get('content-type')).to.match(/^application\/javascript/);
  const prefix = `/**/${callback}(`;
  expect(res.text.startsWith(prefix), res.text).to.equal(true);
  expect(res.text.endsWith(');'), res.text).to.equal(true);
  return JSON.parse(res.text.slice(prefix.length, -2));
}

describeEachDatabase(
  'Format B: JSONP',
  (t) => {
    beforeEach(() => t().seed());

    it('wraps a list in meta (the status and each header as a member, Link parsed into objects) and data', async () => {
      const res = await t().http.get('/api/person?callback=show&results_per_page=2&page=2');
      const { meta, data } = payload(res, 'show');
      const origin = t().target.origin;
      const page = (n: number) => `${origin}/api/person?callback=show&page=${n}&results_per_page=2`;
      // Content-Type is left out: it would describe the JSON, which arrives as a script.
      expect(meta).to.deep.equal({
        status: 200,
        // The list's entity-tag, as the ETag header says it (conditional requests, docs/decisions.md).
        ETag: res.headers.get('etag'),
        Link: [
          { url: page(1), rel: 'first' },
          { url: page(3), rel: 'last' },
          { url: page(1), rel: 'prev' },
          { url: page(3), rel: 'next' },
        ],
      });
      expect(data).to.deep.include({ num_results: 5, total_pages: 3, page: 2 });
      // The real headers still go out too, Link included.
      expect(res.headers.get('link')).to.contain('rel="next"');
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    });

    it('wraps the related instances of an object, Link in meta', async () => {
      const { meta, data } = payload(await t().http.get('/api/person/1/articles?callback=cb'), 'cb');
      expect(meta.status).to.equal(200);
      expect((meta.Link as { rel: string }[]).map((l) => l.rel)).to.deep.equal(['first', 'last']);
      expect(data).to.deep.include({ num_results: 2 });
    });

    it('wraps one object', async () => {
      const res = await t().http.get('/api/tag/3?callback=app.tag');
      const { meta, data } = payload(res, 'app.tag');
      expect(meta).to.deep.equal({
        status: 200,
        ETag: res.headers.get('etag'),
        'Resource-Etag': res.headers.get('resource-etag'),
      });
      expect(data).to.deep.equal({
        id: 3,
        name: 'life',
        articles: [{ id: 5, title: '100% pure', publishtime: '2022-01-01T00:00:00', author_id: 4 }],
      });
    });

    it('wraps a search with q', async () => {
      const { data } = payload(
        await t().http.get(
          `/api/person?${q({ filters: [{ name: 'age', op: '<', val: 18 }], single: true })}&callback=cb`,
        ),
        'cb',
      );
      expect(data).to.deep.include({ id: 2, name: 'bob' });
    });

    it('wraps function evaluation', async () => {
      const { meta, data } = payload(
        await t().http.get(`/api/eval/person?${q({ functions: [{ name: 'count', field: 'id' }] })}&callback=cb`),
        'cb',
      );
      expect(meta.status).to.equal(200);
      expect(data).to.deep.equal({ count__id: 5 });
    });

    it('wraps an error, with its real status in meta', async () => {
      const { meta, data } = payload(await t().http.get('/api/person/99?callback=cb'), 'cb');
      expect(meta).to.deep.equal({ status: 404 });
      expect(data).to.have.all.keys('message');
      const several = payload(await t().http.get(`/api/person?${q({ single: true })}&callback=cb`), 'cb');
      expect(several.meta.status).to.equal(400);
      expect(several.data).to.deep.equal({ message: 'Multiple results found' });
    });

    it('does not wrap the response of a POST, PATCH or DELETE', async () => {
      const created = expectStatus(await t().http.post('/api/tag?callback=cb', { name: 'x' }), 201);
      expect(created.headers.get('content-type')).to.match(/^application\/json/);
      expect(created.body).to.include({ name: 'x' });
      const updated = expectStatus(await t().http.patch('/api/tag/1?callback=cb', { name: 'y' }), 200);
      expect(updated.body).to.include({ name: 'y' });
      expect(expectStatus(await t().http.delete('/api/task/1?callback=cb'), 204).text).to.equal('');
    });

    it('refuses a callback that is not a JavaScript identifier path', async () => {
      const res = await t().http.get('/api/person?callback=alert(1)');
      expect(res.status).to.equal(400);
      expect(res.body).to.have.all.keys('message');
    });
  },
  { format: 'legacy' },
);

describeEachDatabase(
  'Format B: JSONP with headers set by the server and a response hook',
  (t) => {
    beforeEach(() => t().seed());

    it('puts every header in meta under its conventional name', async () => {
      const { meta } = payload(await t().http.get('/api/person?callback=cb&results_per_page=10'), 'cb');
      expect(Object.keys(meta).sort()).to.deep.equal([
        'Access-Control-Allow-Origin',
        'ETag',
        'Link',
        'Server-Timing',
        'X-Request-Id',
        'status',
      ]);
      expect(meta['X-Request-Id']).to.equal('r-1');
      expect(meta.ETag).to.equal('"v1"');
      expect(meta['Access-Control-Allow-Origin']).to.equal('https://app.example');
      expect(meta['Server-Timing']).to.be.a('string').and.match(/parse/);
      expect(meta).to.not.have.property('headers');
      expect(meta).to.not.have.property('Content-Type');
    });

    it('does so for an error too, beside its real status', async () => {
      const { meta, data } = payload(await t().http.get('/api/person/99?callback=cb'), 'cb');
      expect(meta.status).to.equal(404);
      expect(meta['X-Request-Id']).to.equal('r-1');
      expect(data).to.have.all.keys('message');
    });
  },
  {
    format: 'legacy',
    api: {
      serverTiming: true,
      onResponse: (response) => ({
        ...response,
        headers: {
          ...response.headers,
          'x-request-id': 'r-1',
          etag: '"v1"',
          'access-control-allow-origin': 'https://app.example',
        },
      }),
    },
  },
);
