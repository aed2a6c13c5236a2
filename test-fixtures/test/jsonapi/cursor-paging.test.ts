import { jsonApiFormat } from '@colapi/format-jsonapi';
import { Registry } from '@colapi/schema';
import { conformanceRegistry } from '@colapi/test-fixtures';
import { describeEachDatabase, filterParam, type SeedData, type TestResponse } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectError, getOk, ids } from './helpers.js';

const PROFILE = 'https://jsonapi.org/profiles/ethanresnick/cursor-pagination';
const PROFILE_TYPE = `application/vnd.api+json; profile="${PROFILE}"`;
const ACCEPT_PROFILE = `application/vnd.api+json; profile="${PROFILE}", application/vnd.api+json`;

/** A small deterministic generator (mulberry32): the same data and sorts on every run and database. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

interface PersonRow {
  id: number;
  name: string | null;
  age: number | null;
  other: number | null;
  birthday: string | null;
  birth_datetime: string | null;
  bedtime: string | null;
}

/** 41 persons whose fields repeat few values, a third of them NULL: ties and NULLs in every sort. */
function persons(): PersonRow[] {
  const next = random(30);
  const pick = <T>(values: readonly T[]): T | null =>
    next() < 0.3 ? null : values[Math.floor(next() * values.length)]!;
  return Array.from({ length: 41 }, (_, i) => ({
    id: i + 1,
    name: pick(['aa', 'ab', 'ba', 'bb', 'zz']),
    age: pick([1, 2, 3, 40]),
    other: pick([-1.5, 0.25, 2.5]),
    birthday: pick(['1990-01-01', '2000-06-15', '2010-12-31']),
    birth_datetime: pick(['2001-02-03T04:05:06', '1999-12-31T23:59:59', '2001-02-03T04:05:07']),
    bedtime: pick(['22:00:00', '07:30:00', '07:30:01']),
  }));
}

const PERSONS = persons();
const PERSON_ROWS = PERSONS as unknown as Record<string, unknown>[];
const DATA: SeedData = {
  person: PERSON_ROWS,
  article: [
    { id: 1, title: 'b', author_id: 1 },
    { id: 2, title: null, author_id: 1 },
    { id: 3, title: 'a', author_id: 1 },
    { id: 4, title: 'b', author_id: 1 },
    { id: 5, title: 'c', author_id: 2 },
  ],
};

type SortField = 'name' | 'age' | 'other' | 'birthday' | 'birth_datetime' | 'bedtime';
const FIELDS: readonly SortField[] = ['name', 'age', 'other', 'birthday', 'birth_datetime', 'bedtime'];

/** The order cursor mode documents: NULL before every value (first ascending, last descending), the key last. */
function expectedOrder(rows: readonly PersonRow[], sort: readonly { field: SortField; descending: boolean }[]) {
  const cmp = (a: unknown, b: unknown): number => {
    if (a === b) return 0;
    if (a === null) return -1;
    if (b === null) return 1;
    return (a as number | string) < (b as number | string) ? -1 : 1;
  };
  return [...rows]
    .sort((x, y) => {
      for (const { field, descending } of sort) {
        const c = cmp(x[field], y[field]);
        if (c !== 0) return descending ? -c : c;
      }
      return x.id - y.id;
    })
    .map((r) => String(r.id));
}

/** The path and query of a link, for the test client. */
const local = (link: string) => {
  const u = new URL(link);
  return u.pathname + u.search;
};

/** The cursor of each item of a page. */
const cursors = (res: TestResponse): string[] =>
  (res.body.data as { meta: { page: { cursor: string } } }[]).map((r) => r.meta.page.cursor);

/** Checks the shape the profile gives every page, and answers it. */
function expectCursorPage(res: TestResponse): TestResponse {
  expect(res.status, res.text).to.equal(200);
  expect(res.headers.get('content-type')).to.equal(PROFILE_TYPE);
  expect(res.body.jsonapi).to.deep.equal({ version: '1.1', profile: [PROFILE] });
  expect(res.body.links).to.have.property('prev');
  expect(res.body.links).to.have.property('next');
  for (const c of cursors(res)) expect(c).to.be.a('string').and.not.equal('');
  return res;
}

/** A profile error: 400, the parameter named, the profile's error type in links.type. */
function expectProfileError(res: TestResponse, parameter: string, type: string) {
  const error = expectError(res, 400) as ReturnType<typeof expectError> & {
    links?: { type?: string };
    meta?: unknown;
  };
  expect(error.source).to.deep.equal({ parameter });
  expect(error.links).to.deep.equal({ type: `${PROFILE}/${type}` });
  expect(res.headers.get('content-type')).to.equal(PROFILE_TYPE);
  expect(res.body.jsonapi).to.deep.equal({ version: '1.1', profile: [PROFILE] });
  return error;
}

describeEachDatabase('Format A: cursor pagination (profile ethanresnick/cursor-pagination)', (t) => {
  before(async () => {
    await t().seed(DATA);
  });
  after(async () => {
    await t().seed();
  });

  const page = async (path: string) =>
    expectCursorPage(await t().http.get(path, { headers: { accept: ACCEPT_PROFILE } }));

  /** Walks `next` from the first page to the end, then `prev` from the last page back: the ids of each walk. */
  async function walk(query: string, size: number): Promise<{ forward: string[]; backward: string[] }> {
    const forward: string[] = [];
    let res = await page(`/api/person?${query}${query ? '&' : ''}page[size]=${size}`);
    expect(res.body.links.prev).to.equal(null);
    const seen = new Set<string>();
    for (;;) {
      expect(ids(res).length).to.be.at.most(size);
      forward.push(...ids(res));
      const next: string | null = res.body.links.next;
      if (next === null) break;
      expect(seen.has(next), 'a next link repeats').to.equal(false);
      seen.add(next);
      expect(new URL(next).searchParams.get('page[size]')).to.equal(String(size));
      res = await page(local(next));
      if (forward.length > 200) throw new Error('walked past every row');
    }
    const backward: string[] = [];
    for (;;) {
      backward.unshift(...ids(res));
      const prev: string | null = res.body.links.prev;
      if (prev === null) break;
      res = await page(local(prev));
      expect(ids(res)).to.have.lengthOf(size);
      if (backward.length > 200) throw new Error('walked past every row');
    }
    return { forward, backward };
  }

  describe('property: random sorts with NULLs and ties, every row once in order, both ways', () => {
    const next = random(7);
    for (let i = 0; i < 18; i++) {
      const keys = Array.from({ length: 1 + Math.floor(next() * 3) }, () => ({
        field: FIELDS[Math.floor(next() * FIELDS.length)]!,
        descending: next() < 0.5,
      })).filter((k, j, all) => all.findIndex((o) => o.field === k.field) === j);
      const size = 1 + Math.floor(next() * 9);
      const sort = keys.map((k) => `${k.descending ? '-' : ''}${k.field}`).join(',');
      it(`sort=${sort}, page[size]=${size}`, async () => {
        const expected = expectedOrder(PERSONS, keys);
        const { forward, backward } = await walk(`sort=${sort}`, size);
        expect(forward).to.deep.equal(expected);
        expect(backward).to.deep.equal(expected);
        // The same order as paging by number.
        expect(ids(await getOk(t(), `/api/person?sort=${sort}&page[size]=100`))).to.deep.equal(expected);
      });
    }
    it('no sort: by id, under a filter', async () => {
      const filter = filterParam([{ name: 'age', op: 'is_not_null' }]);
      const expected = PERSONS.filter((p) => p.age !== null).map((p) => String(p.id));
      const { forward, backward } = await walk(filter, 4);
      expect(forward).to.deep.equal(expected);
      expect(backward).to.deep.equal(expected);
    });
  });

  describe("the profile's examples", () => {
    it('a first page: each item has its cursor, prev is null, next leads on, every parameter kept', async () => {
      const res = await page('/api/person?sort=-age&fields[person]=name,age&page[size]=3');
      const expected = expectedOrder(PERSONS, [{ field: 'age', descending: true }]);
      expect(ids(res)).to.deep.equal(expected.slice(0, 3));
      expect(res.body.links.prev).to.equal(null);
      const nextUrl = new URL(res.body.links.next);
      expect(nextUrl.searchParams.get('sort')).to.equal('-age');
      expect(nextUrl.searchParams.get('fields[person]')).to.equal('name,age');
      expect(nextUrl.searchParams.get('page[size]')).to.equal('3');
      expect(nextUrl.searchParams.get('page[after]')).to.equal(cursors(res)[2]);
      // No total unless the collection's `total` is set.
      expect(res.body.meta).to.deep.equal({ page: {} });
    });

    it('page[after] gives the next items, page[before] the ones before', async () => {
      const order = expectedOrder(PERSONS, [{ field: 'name', descending: false }]);
      const first = await page('/api/person?sort=name&page[size]=5');
      const [, second] = cursors(first);
      const after = await page(`/api/person?sort=name&page[size]=3&page[after]=${encodeURIComponent(second!)}`);
      expect(ids(after)).to.deep.equal(order.slice(2, 5));
      const fifth = cursors(first)[4]!;
      const before = await page(`/api/person?sort=name&page[size]=3&page[before]=${encodeURIComponent(fifth)}`);
      expect(ids(before)).to.deep.equal(order.slice(1, 4));
      expect(before.body.links.next).to.be.a('string');
      expect(before.body.links.prev).to.be.a('string');
      const start = await page(`/api/person?sort=name&page[size]=9&page[before]=${encodeURIComponent(fifth)}`);
      expect(ids(start)).to.deep.equal(order.slice(0, 4));
      expect(start.body.links.prev).to.equal(null);
    });

    it('a range: the items between two cursors (exclusive), rangeTruncated when more than the size', async () => {
      const order = expectedOrder(PERSONS, [{ field: 'other', descending: false }]);
      const all = await page('/api/person?sort=other&page[size]=20');
      const c = cursors(all);
      const q = `sort=other&page[after]=${encodeURIComponent(c[2]!)}&page[before]=${encodeURIComponent(c[9]!)}`;
      const whole = await page(`/api/person?${q}&page[size]=10`);
      expect(ids(whole)).to.deep.equal(order.slice(3, 9));
      expect(whole.body.meta.page.rangeTruncated).to.equal(false);
      const cut = await page(`/api/person?${q}&page[size]=4`);
      expect(ids(cut)).to.deep.equal(order.slice(3, 7));
      expect(cut.body.meta.page.rangeTruncated).to.equal(true);
    });

    it('the last page: next is null; an empty collection: both are null', async () => {
      const last = await page('/api/person?page[size]=50');
      expect(ids(last)).to.have.lengthOf(PERSONS.length);
      expect(last.body.links.next).to.equal(null);
      expect(last.body.links.prev).to.equal(null);
      const none = await page(`/api/person?${filterParam([{ name: 'age', op: 'gt', val: 1000 }])}&page[size]=5`);
      expect(ids(none)).to.deep.equal([]);
      expect(none.body.links).to.include({ prev: null, next: null });
    });

    it('page[size] above the maximum: 400 max-size-exceeded with meta.page.maxSize', async () => {
      const res = await t().http.get('/api/person?page[after]=x&page[size]=101');
      expect(res.headers.get('content-type')).to.equal(PROFILE_TYPE);
      const error = expectProfileError(res, 'page[size]', 'max-size-exceeded');
      expect(error.meta).to.deep.equal({ page: { maxSize: 100 } });
    });

    for (const size of ['0', '-1', 'abc', '1.5', '']) {
      it(`page[size]=${size}: 400 invalid-parameter-value`, async () => {
        const res = await t().http.get(`/api/person?page[size]=${size}`, { headers: { accept: ACCEPT_PROFILE } });
        expectProfileError(res, 'page[size]', 'invalid-parameter-value');
      });
    }

    it('a sort along a relationship: 400 unsupported-sort', async () => {
      const res = await t().http.get('/api/article?sort=author.name&page[after]=x');
      expectProfileError(res, 'sort', 'unsupported-sort');
    });
  });

  describe('when cursor paging applies', () => {
    it('an Accept that asks for the profile pages by cursor; one that does not, by number', async () => {
      const asked = await t().http.get('/api/person?page[size]=2', { headers: { accept: ACCEPT_PROFILE } });
      expectCursorPage(asked);
      expect(ids(asked)).to.deep.equal(['1', '2']);
      // JSON:API 1.1: the profiled entry alone is acceptable, and asks for the profile as well.
      const alone = await t().http.get('/api/person?page[size]=2', { headers: { accept: PROFILE_TYPE } });
      expectCursorPage(alone);
      expect(ids(alone)).to.deep.equal(['1', '2']);
      const plain = await getOk(t(), '/api/person?page[size]=2');
      expect(plain.headers.get('content-type')).to.equal('application/vnd.api+json');
      expect(plain.body.meta).to.deep.equal({ total: PERSONS.length });
      expect(plain.body.jsonapi).to.deep.equal({ version: '1.0' });
    });

    it('page[number] beside a cursor: 400', async () => {
      const first = await page(`/api/person?page[size]=2&page[after]=${encodeURIComponent(await firstCursor())}`);
      expect(ids(first)).to.deep.equal(['2', '3']);
      const res = await t().http.get(
        `/api/person?page[number]=2&page[after]=${encodeURIComponent(await firstCursor())}`,
      );
      expectProfileError(res, 'page[number]', 'invalid-parameter-value');
    });

    it('a to-many related collection pages by cursor too, both ways', async () => {
      const order = ['2', '1', '4', '3']; // title: null, b, b, a sorted -title → b(1), b(4), a(3), null(2)
      const first = await page('/api/person/1/articles?sort=-title&page[size]=3');
      expect(ids(first)).to.deep.equal(['1', '4', '3']);
      const second = await page(local(first.body.links.next));
      expect(ids(second)).to.deep.equal(['2']);
      expect(second.body.links.next).to.equal(null);
      const back = await page(local(second.body.links.prev));
      expect(ids(back)).to.deep.equal(['1', '4', '3']);
      expect(back.body.links.prev).to.equal(null);
      expect(order).to.have.members([...ids(first), ...ids(second)]);
      // A cursor of person 1's articles is foreign to person 2's.
      const res = await t().http.get(
        `/api/person/2/articles?sort=-title&page[after]=${encodeURIComponent(cursors(first)[0]!)}`,
      );
      expectProfileError(res, 'page[after]', 'invalid-parameter-value');
    });
  });

  async function firstCursor(): Promise<string> {
    return cursors(await page('/api/person?page[size]=1'))[0]!;
  }

  describe('tampered, garbage and foreign cursors: 400 naming the parameter, never a 500', () => {
    it('garbage', async () => {
      for (const garbage of ['x', '.', 'abc.def', '%00', 'eyJ9.AAAA', `${'A'.repeat(5000)}.B`]) {
        const res = await t().http.get(`/api/person?page[after]=${encodeURIComponent(garbage)}`);
        expectProfileError(res, 'page[after]', 'invalid-parameter-value');
        const before = await t().http.get(`/api/person?page[before]=${encodeURIComponent(garbage)}`);
        expectProfileError(before, 'page[before]', 'invalid-parameter-value');
      }
    });

    it('a cursor whose values were altered, or whose signature was', async () => {
      const cursor = await firstCursor();
      const [payload, mac] = cursor.split('.') as [string, string];
      const values = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const altered = `${Buffer.from(JSON.stringify([Number(values[0]) + 5])).toString('base64url')}.${mac}`;
      const flipped = `${payload}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`;
      for (const c of [altered, flipped, `${payload}.`, payload]) {
        const res = await t().http.get(`/api/person?page[after]=${encodeURIComponent(c)}`);
        expectProfileError(res, 'page[after]', 'invalid-parameter-value');
      }
    });

    it('a cursor of another sort, filter or collection', async () => {
      const cursor = encodeURIComponent(await firstCursor());
      for (const path of [
        `/api/person?sort=name&page[after]=${cursor}`,
        `/api/person?${filterParam([{ name: 'id', op: 'gt', val: 0 }])}&page[after]=${cursor}`,
        `/api/article?page[after]=${cursor}`,
        `/api/person_names?page[after]=${cursor}`,
      ]) {
        expectProfileError(await t().http.get(path), 'page[after]', 'invalid-parameter-value');
      }
    });
  });
});

/** Collections registered with `paging: "cursor"`, with and without a total. */
const registry = async () => {
  const base = await conformanceRegistry(jsonApiFormat());
  const person = base.collection('person')!.model;
  return new Registry([
    ...[...base.collections.values()]
      .filter((c) => c.model.name !== person.name || c.name === 'person')
      .map((c) => ({ model: c.model, options: { name: c.name, methods: ['GET'] as const } })),
    { model: person, options: { name: 'person_cursor', methods: ['GET'], paging: 'cursor' } },
    { model: person, options: { name: 'person_exact', methods: ['GET'], paging: 'cursor', total: 'exact' } },
    { model: person, options: { name: 'person_estimated', methods: ['GET'], paging: 'cursor', total: 'estimated' } },
    { model: person, options: { name: 'person_estimated_pages', methods: ['GET'], total: 'estimated' } },
  ]);
};

describeEachDatabase(
  'Format A: collections registered with paging "cursor"; totals; the cursor secret',
  (t) => {
    before(async () => {
      await t().seed(DATA);
    });

    it('pages by cursor without being asked, with no total', async () => {
      const res = expectCursorPage(await t().http.get('/api/person_cursor?page[size]=4'));
      expect(ids(res)).to.deep.equal(['1', '2', '3', '4']);
      expect(res.body.meta).to.deep.equal({ page: {} });
      // page[number] does not apply to it.
      expectProfileError(
        await t().http.get('/api/person_cursor?page[number]=2'),
        'page[number]',
        'invalid-parameter-value',
      );
    });

    it('total "exact": meta.page.total, counted under the filter, on every page', async () => {
      const filter = filterParam([{ name: 'name', op: 'is_not_null' }]);
      const expected = PERSONS.filter((p) => p.name !== null).length;
      const first = expectCursorPage(await t().http.get(`/api/person_exact?${filter}&page[size]=4`));
      expect(first.body.meta.page).to.deep.equal({ total: expected });
      const second = expectCursorPage(await t().http.get(local(first.body.links.next)));
      expect(second.body.meta.page).to.deep.equal({ total: expected });
    });

    it('total "estimated": meta.page.estimatedTotal.bestGuess', async () => {
      const res = expectCursorPage(await t().http.get('/api/person_estimated?page[size]=4'));
      expect(res.body.meta.page.estimatedTotal.bestGuess).to.be.a('number').and.at.least(0);
      expect(Object.keys(res.body.meta.page)).to.deep.equal(['estimatedTotal']);
    });

    it('total "estimated" with page numbers: each page its own rows, meta.total a count or the estimate', async () => {
      // The same shape twice, a page apart: the second is bound from the statements the first kept.
      const ordered = PERSONS.map((p) => String(p.id)).sort((a, b) => Number(a) - Number(b));
      for (const n of [1, 2, 1]) {
        const res = await t().http.get(`/api/person_estimated_pages?page[size]=4&page[number]=${n}`);
        expect(res.status).to.equal(200);
        expect(ids(res)).to.deep.equal(ordered.slice((n - 1) * 4, n * 4));
        expect(res.body.meta.total).to.be.a('number').and.at.least(0);
      }
    });

    it('a cursor signed under another key is refused', async () => {
      const other = jsonApiFormat({ cursorSecret: 'another key' });
      expect(other).to.be.an('object');
      const mine = cursors(expectCursorPage(await t().http.get('/api/person_cursor?page[size]=1')))[0]!;
      // Same values, same context, a signature under a key this server does not hold.
      const [payload] = mine.split('.');
      const { createHmac } = await import('node:crypto');
      const forged = `${payload}.${createHmac('sha256', 'another key').update('/api/person_cursor\n\n\n').update(payload!).digest('base64url')}`;
      expectProfileError(
        await t().http.get(`/api/person_cursor?page[after]=${encodeURIComponent(forged)}`),
        'page[after]',
        'invalid-parameter-value',
      );
      // Under the server's own key the same construction is accepted: the refusal above is the key's.
      const own = `${payload}.${createHmac('sha256', 'the test key').update('/api/person_cursor\n\n\n').update(payload!).digest('base64url')}`;
      expect(
        ids(
          expectCursorPage(
            await t().http.get(`/api/person_cursor?page[after]=${encodeURIComponent(own)}&page[size]=2`),
          ),
        ),
      ).to.deep.equal(['2', '3']);
    });
  },
  { api: { registry: await registry(), format: jsonApiFormat({ cursorSecret: 'the test key' }) } },
);
