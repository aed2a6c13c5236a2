import { describeEachDatabase, type SeedData } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectMessage, getList, ids, q } from './helpers.js';

/** 23 tasks, ids 1..23: enough for three default pages. */
const TASKS: SeedData = {
  task: Array.from({ length: 23 }, (_, i) => ({ id: i + 1, title: `t${i + 1}`, duration: i, due: null })),
};

/** The Link header as `{rel: "page=…&results_per_page=…"}`, other parameters shown too. */
function links(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(/,\s*(?=<)/)) {
    const m = /^<([^>]*)>; rel="([^"]+)"$/.exec(part.trim());
    if (!m) throw new Error(`not a link: ${part}`);
    const url = new URL(m[1]!);
    expect(url.pathname).to.equal('/api/task');
    out[m[2]!] = decodeURIComponent(url.search.slice(1));
  }
  return out;
}

interface PageCase {
  readonly name: string;
  readonly query: string;
  readonly body: { num_results: number; total_pages: number; page: number };
  readonly ids: number[];
  readonly links: Record<string, string>;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const window = q({ offset: 2, limit: 7 });

const CASES: PageCase[] = [
  {
    name: 'the first page has 10 objects by default',
    query: '',
    body: { num_results: 23, total_pages: 3, page: 1 },
    ids: range(1, 10),
    links: {
      first: 'page=1&results_per_page=10',
      last: 'page=3&results_per_page=10',
      next: 'page=2&results_per_page=10',
    },
  },
  {
    name: 'a middle page has prev and next',
    query: 'page=2',
    body: { num_results: 23, total_pages: 3, page: 2 },
    ids: range(11, 20),
    links: {
      first: 'page=1&results_per_page=10',
      last: 'page=3&results_per_page=10',
      prev: 'page=1&results_per_page=10',
      next: 'page=3&results_per_page=10',
    },
  },
  {
    name: 'the last page is short and has no next',
    query: 'page=3',
    body: { num_results: 23, total_pages: 3, page: 3 },
    ids: range(21, 23),
    links: {
      first: 'page=1&results_per_page=10',
      last: 'page=3&results_per_page=10',
      prev: 'page=2&results_per_page=10',
    },
  },
  {
    name: 'results_per_page sets the size',
    query: 'results_per_page=5&page=4',
    body: { num_results: 23, total_pages: 5, page: 4 },
    ids: range(16, 20),
    links: {
      first: 'page=1&results_per_page=5',
      last: 'page=5&results_per_page=5',
      prev: 'page=3&results_per_page=5',
      next: 'page=5&results_per_page=5',
    },
  },
  {
    name: 'a size above the maximum of 100 is lowered to it',
    query: 'results_per_page=1000',
    body: { num_results: 23, total_pages: 1, page: 1 },
    ids: range(1, 23),
    links: { first: 'page=1&results_per_page=100', last: 'page=1&results_per_page=100' },
  },
  {
    name: 'a page beyond the last is empty, its prev is the last page',
    query: 'page=9',
    body: { num_results: 23, total_pages: 3, page: 9 },
    ids: [],
    links: {
      first: 'page=1&results_per_page=10',
      last: 'page=3&results_per_page=10',
      prev: 'page=3&results_per_page=10',
    },
  },
  {
    name: 'the links keep q and every other parameter',
    query: `${q({ filters: [{ name: 'id', op: '>', val: 20 }] })}&results_per_page=2`,
    body: { num_results: 3, total_pages: 2, page: 1 },
    ids: [21, 22],
    links: {
      first: 'q={"filters":[{"name":"id","op":">","val":20}]}&page=1&results_per_page=2',
      last: 'q={"filters":[{"name":"id","op":">","val":20}]}&page=2&results_per_page=2',
      next: 'q={"filters":[{"name":"id","op":">","val":20}]}&page=2&results_per_page=2',
    },
  },
  {
    name: 'limit and offset of q cut the window that pages and num_results count',
    query: `${window}&results_per_page=3&page=3`,
    body: { num_results: 7, total_pages: 3, page: 3 },
    ids: [9],
    links: {
      first: `q={"offset":2,"limit":7}&page=1&results_per_page=3`,
      last: `q={"offset":2,"limit":7}&page=3&results_per_page=3`,
      prev: `q={"offset":2,"limit":7}&page=2&results_per_page=3`,
    },
  },
  {
    name: 'limit alone returns at most that many objects',
    query: q({ limit: 4 }),
    body: { num_results: 4, total_pages: 1, page: 1 },
    ids: [1, 2, 3, 4],
    links: { first: 'q={"limit":4}&page=1&results_per_page=10', last: 'q={"limit":4}&page=1&results_per_page=10' },
  },
  {
    name: 'an offset past the end leaves nothing',
    query: q({ offset: 30 }),
    body: { num_results: 0, total_pages: 0, page: 1 },
    ids: [],
    links: { first: 'q={"offset":30}&page=1&results_per_page=10', last: 'q={"offset":30}&page=1&results_per_page=10' },
  },
];

describeEachDatabase(
  'Format B: paging and Link headers',
  (t) => {
    before(() => t().seed(TASKS));
    after(() => t().seed());

    for (const c of CASES) {
      it(c.name, async () => {
        const res = await getList(t(), `/api/task${c.query ? `?${c.query}` : ''}`);
        expect(res.body).to.include(c.body);
        expect(ids(res)).to.deep.equal(c.ids);
        expect(links(res.headers.get('link'))).to.deep.equal(c.links);
      });
    }

    it('an empty collection has one (empty) page in its links and 0 total_pages', async () => {
      await t().seed({});
      try {
        const res = await getList(t(), '/api/task');
        expect(res.body).to.deep.equal({ num_results: 0, total_pages: 0, page: 1, objects: [] });
        expect(links(res.headers.get('link'))).to.deep.equal({
          first: 'page=1&results_per_page=10',
          last: 'page=1&results_per_page=10',
        });
      } finally {
        await t().seed(TASKS);
      }
    });

    const ERRORS: [string, string][] = [
      ['page 0', 'page=0'],
      ['a page that is not a number', 'page=two'],
      ['results_per_page 0', 'results_per_page=0'],
      ['a negative results_per_page', 'results_per_page=-5'],
      ['page given twice', 'page=1&page=2'],
    ];
    for (const [name, query] of ERRORS) {
      it(`${name} is 400 with a message`, async () => expectMessage(await t().http.get(`/api/task?${query}`), 400));
    }
  },
  { format: 'legacy' },
);

describeEachDatabase(
  'Format B: the page size default and maximum come from the deployment',
  (t) => {
    before(() => t().seed(TASKS));
    after(() => t().seed());

    it('uses limits.defaultPageSize when results_per_page is absent', async () => {
      const res = await getList(t(), '/api/task');
      expect(res.body).to.include({ num_results: 23, total_pages: 8, page: 1 });
      expect(ids(res)).to.deep.equal([1, 2, 3]);
    });

    it('lowers results_per_page to limits.maxPageSize', async () => {
      const res = await getList(t(), '/api/task?results_per_page=50&page=2');
      expect(res.body).to.include({ num_results: 23, total_pages: 6, page: 2 });
      expect(ids(res)).to.deep.equal([5, 6, 7, 8]);
      expect(links(res.headers.get('link')).next).to.equal('page=3&results_per_page=4');
    });
  },
  { format: 'legacy', api: { limits: { defaultPageSize: 3, maxPageSize: 4 } } },
);
