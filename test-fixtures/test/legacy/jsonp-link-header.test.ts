import type { HttpResponse } from '@colapi/wire-format';
import { describeEachDatabase, type TestResponse } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';

/** Links an application adds to every answer (onResponse), written as RFC 8288 allows. */
const EXTRA_LINKS = [
  '<https://docs.example/api>; rel=help ',
  '<https://docs.example/a;b,c>;title="a;b";rel="describedby"',
  '<https://docs.example/say>; title="say \\"hi\\", then go"; rel=alternate',
].join(', ');

const addLinks = (response: HttpResponse): HttpResponse => {
  const link = response.headers.link;
  return { ...response, headers: { ...response.headers, link: link ? `${link}, ${EXTRA_LINKS}` : EXTRA_LINKS } };
};

function payload(
  res: TestResponse,
  callback: string,
): { meta: { status: number; Link?: Record<string, string>[] }; data: unknown } {
  expect(res.status, res.text).to.equal(200);
  const prefix = `/**/${callback}(`;
  expect(res.text.startsWith(prefix), res.text).to.equal(true);
  return JSON.parse(res.text.slice(prefix.length, -2));
}

const EXTRA_PARSED = [
  { url: 'https://docs.example/api', rel: 'help' },
  { url: 'https://docs.example/a;b,c', title: 'a;b', rel: 'describedby' },
  { url: 'https://docs.example/say', title: 'say "hi", then go', rel: 'alternate' },
];

describeEachDatabase(
  'Format B: JSONP meta.Link reads any valid Link header',
  (t) => {
    it('parses quoted values with `;`, `,` and escapes, and unquoted values with trailing whitespace', async () => {
      const res = await t().http.get('/api/tag/3?callback=cb');
      expect(payload(res, 'cb').meta).to.deep.equal({
        status: 200,
        ETag: res.headers.get('etag'),
        'Resource-Etag': res.headers.get('resource-etag'),
        Link: EXTRA_PARSED,
      });
    });

    it('keeps the paging links before them', async () => {
      const res = await t().http.get('/api/person?callback=cb&results_per_page=2&page=2');
      const page = (n: number) => `${t().target.origin}/api/person?callback=cb&page=${n}&results_per_page=2`;
      expect(payload(res, 'cb').meta.Link).to.deep.equal([
        { url: page(1), rel: 'first' },
        { url: page(3), rel: 'last' },
        { url: page(1), rel: 'prev' },
        { url: page(3), rel: 'next' },
        ...EXTRA_PARSED,
      ]);
    });
  },
  { format: 'legacy', api: { onResponse: addLinks } },
);
