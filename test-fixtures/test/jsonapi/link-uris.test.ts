import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectValidUri } from '../shared/valid-uri.js';

/** Every string in a `links` object anywhere in a document, with where it was found. */
function linksOf(value: unknown, at = ''): [string, string][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => linksOf(v, `${at}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) =>
    k === 'links' && v && typeof v === 'object'
      ? Object.entries(v).flatMap(([rel, link]) =>
          typeof link === 'string' ? [[`${at}/links/${rel}`, link] as [string, string]] : [],
        )
      : linksOf(v, `${at}/${k}`),
  );
}

interface LinkCase {
  readonly name: string;
  /** Sent on the wire exactly so. */
  readonly raw: string;
  /** links.self as the server must write it, when the document has the request as its self link. */
  readonly self?: string;
  readonly paging?: boolean;
}

const FILTER_RAW = '[{"name":"age","op":">","val":17}]';
const FILTER_ENCODED = '[%7B%22name%22:%22age%22,%22op%22:%22%3E%22,%22val%22:17%7D]';
const FILTER_ALL_ENCODED = '%5B%7B%22name%22%3A%22age%22%2C%22op%22%3A%22%3E%22%2C%22val%22%3A17%7D%5D';

const CASES: LinkCase[] = [
  {
    name: 'a filter with raw braces and quotes, paged',
    raw: `/api/person?filter[objects]=${FILTER_RAW}&page[size]=1&page[number]=2`,
    self: `/api/person?filter[objects]=${FILTER_ENCODED}&page[size]=1&page[number]=2`,
    paging: true,
  },
  {
    name: 'a filter percent-encoded by the client, kept as sent (no double encoding)',
    raw: `/api/person?filter[objects]=${FILTER_ALL_ENCODED}&page[size]=1&page[number]=2`,
    self: `/api/person?filter[objects]=${FILTER_ALL_ENCODED}&page[size]=1&page[number]=2`,
    paging: true,
  },
  {
    name: 'escapes and raw characters mixed',
    raw: '/api/person?filter[objects]=[%7B"name":"age","op":"%3E","val":17}]&page[size]=1&page[number]=2',
    self: `/api/person?filter[objects]=${FILTER_ENCODED}&page[size]=1&page[number]=2`,
    paging: true,
  },
  {
    name: 'characters a URI never holds and a stray %, in an ignored parameter',
    raw: '/api/person?page[size]=2&_x=a|b^c`d\\e%zz{}%',
    self: '/api/person?page[size]=2&_x=a%7Cb%5Ec%60d%5Ce%25zz%7B%7D%25',
    paging: true,
  },
  { name: 'a single resource', raw: '/api/person/1?_x={"a"}', self: '/api/person/1?_x=%7B%22a%22%7D' },
  {
    name: 'filter[single]',
    raw: '/api/person?filter[single]=1&filter[objects]=[{"name":"id","op":"==","val":1}]',
    self: '/api/person?filter[single]=1&filter[objects]=[%7B%22name%22:%22id%22,%22op%22:%22==%22,%22val%22:1%7D]',
  },
  {
    name: 'a related collection',
    raw: '/api/person/1/articles?page[size]=1&_x={|}',
    self: '/api/person/1/articles?page[size]=1&_x=%7B%7C%7D',
    paging: true,
  },
  { name: 'a to-one related resource', raw: '/api/article/1/author?_x={}', self: '/api/article/1/author?_x=%7B%7D' },
  {
    name: 'a relationship with included resources',
    raw: '/api/article/1/relationships/comments?include=comments&_x={}',
  },
  {
    name: 'a compound document',
    raw: '/api/article?include=author,comments&_x={"q"}^',
    self: '/api/article?include=author,comments&_x=%7B%22q%22%7D%5E',
    paging: true,
  },
];

describeEachDatabase('Format A: every link is a valid URI (RFC 3986), the request echoed percent-encoded', (t) => {
  const origin = () => t().target.origin;

  for (const c of CASES) {
    it(`${c.name}: ${c.raw}`, async () => {
      const res = await t().http.getRaw(c.raw);
      expect(res.status, res.text).to.equal(200);
      const links = linksOf(res.body);
      expect(links, 'the document has links').to.not.be.empty;
      for (const [where, link] of links) expectValidUri(link, where);
      if (c.self) expect(res.body.links.self).to.equal(`${origin()}${c.self}`);
      if (c.paging) {
        const pages = ['first', 'last', 'prev', 'next'].map((rel) => res.body.links[rel]).filter((l) => l !== null);
        expect(pages.length, 'paging links').to.be.greaterThan(1);
        // The paging links keep every other parameter: the same list, other pages.
        for (const page of pages) {
          const params = new URL(page).searchParams;
          for (const [name, value] of new URL(res.body.links.self).searchParams) {
            if (!name.startsWith('page[')) expect(params.get(name), `${name} kept in ${page}`).to.equal(value);
          }
        }
      }
    });
  }

  it('a paging link followed answers the next page of the same list', async () => {
    const first = await t().http.getRaw(`/api/person?filter[objects]=${FILTER_RAW}&page[size]=1`);
    const next = await t().http.get(first.body.links.next.slice(origin().length));
    expect(next.status, next.text).to.equal(200);
    expect(next.body.meta.total).to.equal(first.body.meta.total);
    expect(next.body.data[0].id).to.not.equal(first.body.data[0].id);
  });
});
