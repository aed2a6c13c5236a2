import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectError } from './helpers.js';

const JSONAPI = 'application/vnd.api+json';

/** [Accept header or null for none, expected status] of a GET of /api/person. */
const ACCEPT_CASES: [string | null, number][] = [
  [null, 200],
  [JSONAPI, 200],
  ['*/*', 200],
  ['application/*', 200],
  ['text/html, */*;q=0.1', 200],
  [`${JSONAPI};q=0.5`, 200],
  [`${JSONAPI}; ext="https://example.com/ext", ${JSONAPI}`, 200],
  [`text/html, ${JSONAPI}`, 200],
  [`${JSONAPI}; ext="https://example.com/ext"`, 406],
  [`${JSONAPI}; ext="https://a.example/x,https://b.example/y"`, 406],
  [`${JSONAPI}; ext="https://a.example/x,https://b.example/y", ${JSONAPI}`, 200],
  [`text/html; note="a, ${JSONAPI}"`, 406],
  [`${JSONAPI}; charset=utf-8`, 406],
  // JSON:API 1.1: an unknown profile is ignored; another parameter still makes its entry unusable.
  [`${JSONAPI}; profile="a", ${JSONAPI}; charset=utf-8`, 200],
  [`${JSONAPI}; profile="https://example.com/unknown"`, 200],
  [`${JSONAPI}; profile="a"; charset=utf-8`, 406],
  [`${JSONAPI}; charset=utf-8, */*`, 406],
  [`${JSONAPI};q=0`, 406],
  ['text/html', 406],
  ['application/json', 406],
  ['application/xml, text/plain', 406],
];

/** [Content-Type of a POST body, expected status]; the write itself belongs to other suites. */
const CONTENT_TYPE_CASES: [string, number][] = [
  [`${JSONAPI}; charset=utf-8`, 415],
  [`${JSONAPI}; ext="https://example.com/ext"`, 415],
  [`${JSONAPI};profile=x; charset=utf-8`, 415],
  ['application/json', 415],
  ['text/plain', 415],
];

/** Query strings of GET /api/person that must answer 400 naming a parameter. */
const PARAMETER_CASES: [string, string][] = [
  ['foo=1', 'foo'],
  ['filter=x', 'filter'],
  ['fields=name', 'fields'],
  ['page=2', 'page'],
  ['filter[nope]=1', 'filter[nope]'],
  ['page[offset]=1', 'page[offset]'],
  ['sort=age&sort=name', 'sort'],
  ['include=articles&include=comments', 'include'],
  ['filter[objects]=[]&filter[objects]=[]', 'filter[objects]'],
  ['fields[person]=name&fields[person]=age', 'fields[person]'],
  ['page[size]=2&page[size]=3', 'page[size]'],
  ['callback=a&callback=b', 'callback'],
];

describeEachDatabase('Format A: content negotiation and query parameters', (t) => {
  for (const [accept, status] of ACCEPT_CASES) {
    it(`GET with Accept ${accept ?? '(none)'} answers ${status}`, async () => {
      const res = await fetch(`${t().target.origin}/api/person`, { headers: accept === null ? {} : { accept } });
      const body = (await res.json()) as {
        data?: unknown[];
        errors?: { status: string; title: string; detail: string }[];
      };
      expect(res.status).to.equal(status);
      expect(res.headers.get('content-type')).to.equal(JSONAPI);
      if (status === 200) {
        expect(body.data).to.be.an('array').with.lengthOf(5);
        return;
      }
      expect(body.errors).to.have.lengthOf(1);
      expect(body.errors![0]).to.include({ status: '406', title: 'Not Acceptable' });
      expect(body.errors![0]!.detail).to.contain(JSONAPI);
    });
  }

  it('answers 406 before anything else, even for a path that does not exist', async () => {
    const res = await t().http.get('/api/nope', { headers: { accept: 'text/html' } });
    expectError(res, 406);
  });

  for (const [contentType, status] of CONTENT_TYPE_CASES) {
    it(`POST with Content-Type ${contentType} answers ${status}`, async () => {
      const res = await t().http.post(
        '/api/person',
        { data: { type: 'person', attributes: { name: 'x' } } },
        { headers: { 'content-type': contentType } },
      );
      const error = expectError(res, status);
      expect(error.title).to.equal('Unsupported Media Type');
      expect(error.detail).to.contain(JSONAPI);
    });
  }

  it('takes a body whose Content-Type names a profile it does not know, ignoring the profile (JSON:API 1.1)', async () => {
    const res = await t().http.post(
      '/api/person',
      { data: { type: 'person', attributes: { name: 'profiled' } } },
      { headers: { 'content-type': `${JSONAPI}; profile="https://example.com/unknown"` } },
    );
    expect(res.status, res.text).to.equal(201);
    expect(res.headers.get('content-type')).to.equal(JSONAPI);
    await t().seed();
  });

  it('sends JSON:API documents with the bare media type, no parameters', async () => {
    for (const path of [
      '/api/person',
      '/api/person/1',
      '/api/person/1/articles',
      '/api/article/1/relationships/author',
      '/api/nope',
      '/api/person?foo=1',
    ]) {
      const res = await t().http.get(path);
      expect(res.headers.get('content-type'), path).to.equal(JSONAPI);
      expect(res.body.jsonapi, path).to.deep.equal({ version: '1.0' });
    }
  });

  for (const [query, parameter] of PARAMETER_CASES) {
    it(`answers 400 for ?${query}`, async () => {
      const error = expectError(await t().http.get(`/api/person?${query}`), 400, parameter);
      expect(error.detail).to.contain(parameter);
    });
  }

  it('answers 400 for an unknown lower-case parameter on every kind of path', async () => {
    for (const path of [
      '/api/person/1',
      '/api/person/1/articles',
      '/api/article/1/author',
      '/api/article/1/relationships/tags',
      '/api/article/1/comments/1',
    ]) {
      expectError(await t().http.get(`${path}?foo=1`), 400, 'foo');
    }
  });

  it('ignores implementation-specific parameters, which hold a character other than a-z', async () => {
    for (const query of ['fooBar=1', 'foo_bar=1', 'foo-bar=1', 'Foo=1', 'x1=2']) {
      const res = await t().http.get(`/api/person?${query}`);
      expect(res.status, `${query}: ${res.text}`).to.equal(200);
      expect(res.body.data).to.have.lengthOf(5);
    }
  });

  it('writes every error as a JSON:API error object', async () => {
    for (const [path, status] of [
      ['/api/nope', 404],
      ['/api/person/1/', 404],
      ['/api/person?page[size]=0', 400],
      ['/api/person?filter[single]=1', 404],
    ] as const) {
      const res = await t().http.get(path);
      const error = expectError(res, status);
      expect(
        Object.keys(error).every((k) => ['status', 'title', 'detail', 'source'].includes(k)),
        res.text,
      ).to.equal(true);
    }
  });
});
