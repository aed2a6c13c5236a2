import { describeEachDatabase, filterParam, type SeedData } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectError, getOk, ids } from './helpers.js';

/* 25 persons, ids 1..25, ages 1..25; person 1 wrote articles 1 and 2. */
const DATA: SeedData = {
  person: Array.from({ length: 25 }, (_, i) => ({ id: i + 1, name: `p${String(i + 1).padStart(2, '0')}`, age: i + 1 })),
  article: [
    { id: 1, title: 'a', author_id: 1 },
    { id: 2, title: 'b', author_id: 1 },
    { id: 3, title: 'c', author_id: 2 },
  ],
};

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

interface PageCase {
  readonly name: string;
  readonly query: string;
  readonly expected: readonly string[];
  /** Page numbers of the links (null when absent) and the page size they carry. */
  readonly links: { first: number; last: number; prev: number | null; next: number | null; size: number };
  readonly total?: number;
}

const CASES: PageCase[] = [
  {
    name: 'the default page: 10 resources',
    query: '',
    expected: range(1, 10),
    links: { first: 1, last: 3, prev: null, next: 2, size: 10 },
  },
  {
    name: 'page 2 of the default size',
    query: 'page[number]=2',
    expected: range(11, 20),
    links: { first: 1, last: 3, prev: 1, next: 3, size: 10 },
  },
  {
    name: 'the last, partial page',
    query: 'page[number]=3',
    expected: range(21, 25),
    links: { first: 1, last: 3, prev: 2, next: null, size: 10 },
  },
  {
    name: 'a size of its own',
    query: 'page[size]=7&page[number]=4',
    expected: range(22, 25),
    links: { first: 1, last: 4, prev: 3, next: null, size: 7 },
  },
  {
    name: 'a size of one',
    query: 'page[size]=1&page[number]=25',
    expected: ['25'],
    links: { first: 1, last: 25, prev: 24, next: null, size: 1 },
  },
  {
    name: 'the largest size',
    query: 'page[size]=100',
    expected: range(1, 25),
    links: { first: 1, last: 1, prev: null, next: null, size: 100 },
  },
  {
    name: 'a size that divides the total',
    query: 'page[size]=5&page[number]=5',
    expected: range(21, 25),
    links: { first: 1, last: 5, prev: 4, next: null, size: 5 },
  },
  {
    name: 'a page past the end is empty',
    query: 'page[number]=4',
    expected: [],
    links: { first: 1, last: 3, prev: 3, next: null, size: 10 },
  },
  {
    name: 'far past the end',
    query: 'page[number]=1000&page[size]=3',
    expected: [],
    links: { first: 1, last: 9, prev: 9, next: null, size: 3 },
  },
  {
    name: 'a filter matching nothing',
    query: filterParam([{ name: 'age', op: '>', val: 99 }]),
    expected: [],
    links: { first: 1, last: 1, prev: null, next: null, size: 10 },
    total: 0,
  },
  {
    name: 'a filter with pages',
    query: `${filterParam([{ name: 'age', op: '>', val: 5 }])}&page[size]=8&page[number]=2`,
    expected: range(14, 21),
    links: { first: 1, last: 3, prev: 1, next: 3, size: 8 },
    total: 20,
  },
];

const BAD: [string, string][] = [
  ['page[size]', '101'],
  ['page[size]', '1000000000000'],
  ['page[size]', '0'],
  ['page[size]', '-1'],
  ['page[size]', '1.5'],
  ['page[size]', 'x'],
  ['page[size]', ''],
  ['page[number]', '0'],
  ['page[number]', '-2'],
  ['page[number]', 'x'],
  ['page[number]', ''],
  ['page[number]', '1e3'],
];

describeEachDatabase('Format A: paging', (t) => {
  before(async () => {
    await t().seed(DATA);
  });
  after(async () => {
    await t().seed();
  });

  const pageOf = (link: string | null) =>
    link === null ? null : Number(new URL(link).searchParams.get('page[number]'));

  for (const c of CASES) {
    it(c.name, async () => {
      const path = `/api/person${c.query ? `?${c.query}` : ''}`;
      const res = await getOk(t(), path);
      expect(ids(res)).to.deep.equal(c.expected);
      expect(res.body.meta).to.deep.equal({ total: c.total ?? 25 });
      const { links } = res.body;
      expect(links.self).to.equal(`${t().target.origin}${path}`);
      expect(Object.keys(links).sort()).to.deep.equal(['first', 'last', 'next', 'prev', 'self']);
      expect({
        first: pageOf(links.first),
        last: pageOf(links.last),
        prev: pageOf(links.prev),
        next: pageOf(links.next),
      }).to.deep.equal({
        first: c.links.first,
        last: c.links.last,
        prev: c.links.prev,
        next: c.links.next,
      });
      for (const rel of ['first', 'last', 'prev', 'next']) {
        if (links[rel] === null) continue;
        expect(links[rel].startsWith(`${t().target.origin}/api/person?`)).to.equal(true);
        expect(new URL(links[rel]).searchParams.get('page[size]')).to.equal(String(c.links.size));
      }
    });
  }

  for (const [parameter, value] of BAD) {
    it(`answers 400 for ${parameter}=${value}`, async () => {
      const error = expectError(await t().http.get(`/api/person?${parameter}=${value}`), 400, parameter);
      expect(error.detail).to.contain(parameter);
    });
  }

  it('names the maximum page size in the error', async () => {
    const error = expectError(await t().http.get('/api/person?page[size]=101'), 400, 'page[size]');
    expect(error.detail).to.contain('100');
  });

  it('answers 400 for an unknown page parameter', async () => {
    expectError(await t().http.get('/api/person?page[offset]=10'), 400, 'page[offset]');
  });

  it('answers 400 for paging a single resource', async () => {
    expectError(await t().http.get('/api/person/1?page[number]=1'), 400, 'page[number]');
  });

  it('keeps every other query parameter in the links', async () => {
    const query = `sort=-age&${filterParam([{ name: 'age', op: '<=', val: 20 }])}&fields[person]=name,articles&include=articles&fields[article]=title&page[size]=5&page[number]=2`;
    const res = await getOk(t(), `/api/person?${query}`);
    expect(ids(res)).to.deep.equal(['15', '14', '13', '12', '11']);
    const original = new URLSearchParams(query);
    for (const rel of ['first', 'last', 'prev', 'next']) {
      const params = new URL(res.body.links[rel]).searchParams;
      for (const [name, value] of original)
        if (name !== 'page[number]') expect(params.get(name), `${rel} ${name}`).to.equal(value);
      expect([...params.keys()].sort()).to.deep.equal([...original.keys()].sort());
    }
    expect(pageOf(res.body.links.last)).to.equal(4);
  });

  it('follows next links through every page exactly once', async () => {
    const seen: string[] = [];
    let next: string | null = `${t().target.origin}/api/person?sort=-name&page[size]=4`;
    let pages = 0;
    while (next) {
      const res = await getOk(t(), next.slice(t().target.origin.length));
      seen.push(...ids(res));
      next = res.body.links.next;
      pages++;
    }
    expect(pages).to.equal(7);
    expect(seen).to.deep.equal(range(1, 25).reverse());
  });

  it('pages a related collection with links on its own path', async () => {
    const res = await getOk(t(), '/api/person/1/articles?page[size]=1&page[number]=2');
    expect(ids(res)).to.deep.equal(['2']);
    expect(res.body.meta.total).to.equal(2);
    expect(res.body.links.first).to.equal(`${t().target.origin}/api/person/1/articles?page[size]=1&page[number]=1`);
    expect(res.body.links.prev).to.equal(`${t().target.origin}/api/person/1/articles?page[size]=1&page[number]=1`);
    expect(res.body.links.next).to.equal(null);
    expect(pageOf(res.body.links.last)).to.equal(2);
  });

  it('gives a related collection without members an empty first page', async () => {
    const res = await getOk(t(), '/api/person/3/articles');
    expect(res.body.data).to.deep.equal([]);
    expect(res.body.meta.total).to.equal(0);
    expect(pageOf(res.body.links.last)).to.equal(1);
    expect(res.body.links.next).to.equal(null);
  });
});
