import { describeEachDatabase, filterParam, type SeedData } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { asIds, expectError, getOk, ids } from './helpers.js';

interface GroupCase {
  readonly name: string;
  readonly path: string;
  /** One resource per distinct value: the one with the smallest id, in id order unless sorted. */
  readonly expected: readonly number[];
  readonly total: number;
}

const g = (name: string, path: string, expected: number[], total = expected.length): GroupCase => ({
  name,
  path,
  expected,
  total,
});

/* Standard dataset: article authors 1 Alice, 2 Alice, 3 bob, 4 none, 5 dave; comments on articles 1, 1, 3, none. */
const STANDARD_CASES: GroupCase[] = [
  g('a to-one relation field', '/api/article?group=author.name', [1, 3, 4, 5]),
  g('another field of the same relation', '/api/article?group=author.age', [1, 3, 4, 5]),
  g('a two-step to-one path', '/api/comment?group=article.author.name', [1, 3, 4]),
  g('a foreign key column', '/api/comment?group=article_id', [1, 3, 4]),
  g('a related collection', '/api/person/1/articles?group=author.name', [1]),
  g('distinct values only', '/api/person?group=age', [1, 2, 3, 4, 5]),
];

/* age / other / name: 1 30 1 x · 2 20 2 y · 3 30 0 z · 4 null 5 w · 5 20 2 v · 6 30 1 u · 7 null null y · 8 20 2 Y */
const DATA: SeedData = {
  person: [
    { id: 1, name: 'x', age: 30, other: 1 },
    { id: 2, name: 'y', age: 20, other: 2 },
    { id: 3, name: 'z', age: 30, other: 0 },
    { id: 4, name: 'w', age: null, other: 5 },
    { id: 5, name: 'v', age: 20, other: 2 },
    { id: 6, name: 'u', age: 30, other: 1 },
    { id: 7, name: 'y', age: null, other: null },
    { id: 8, name: 'Y', age: 20, other: 2 },
  ],
};

const CASES: GroupCase[] = [
  g('one resource per value, the smallest id, nulls a group of their own', '/api/person?group=age', [1, 2, 4]),
  g('text groups exactly (y and Y apart)', '/api/person?group=name', [1, 2, 3, 4, 5, 6, 8]),
  g('two fields', '/api/person?group=age,other', [1, 2, 3, 4, 7]),
  g('sorted ascending, nulls first', '/api/person?group=age&sort=age', [4, 2, 1]),
  g('sorted descending, nulls last', '/api/person?group=age&sort=-age', [1, 2, 4]),
  g('sorted by another field', '/api/person?group=age&sort=name', [4, 1, 2]),
  g('after a filter', `/api/person?group=age&${filterParam([{ name: 'id', op: '>', val: 1 }])}`, [2, 3, 4]),
  g(
    'after a filter that empties a group',
    `/api/person?group=age&${filterParam([{ name: 'age', op: 'is_not_null' }])}`,
    [1, 2],
  ),
  g('paged (page 1)', '/api/person?group=age&page[size]=2', [1, 2], 3),
  g('paged (page 2)', '/api/person?group=age&page[size]=2&page[number]=2', [4], 3),
  g('nothing matching', `/api/person?group=age&${filterParam([{ name: 'age', op: '>', val: 99 }])}`, [], 0),
];

describeEachDatabase('Format A: group', (t) => {
  for (const c of STANDARD_CASES) {
    it(c.name, async () => {
      const res = await getOk(t(), c.path);
      expect(ids(res)).to.deep.equal(asIds(c.expected));
      expect(res.body.meta.total).to.equal(c.total);
    });
  }

  for (const [why, value, mention] of [
    ['an unknown field', 'nope', '"nope"'],
    ['a to-many path', 'articles.title', '"articles"'],
    ['a relationship', 'articles', '"articles"'],
    ['the virtual attribute is_minor', 'is_minor', '"is_minor"'],
    ['no field at all', '', 'no field'],
    ['an empty key', 'age,', '""'],
  ] as const) {
    it(`answers 400 for ${why}`, async () => {
      const error = expectError(await t().http.get(`/api/person?group=${encodeURIComponent(value)}`), 400, 'group');
      expect(error.detail).to.contain(mention);
    });
  }

  it('answers 400 for group on a single resource', async () => {
    expectError(await t().http.get('/api/person/1?group=age'), 400, 'group');
  });

  describe('on rows with repeated values', () => {
    before(async () => {
      await t().seed(DATA);
    });
    after(async () => {
      await t().seed();
    });

    for (const c of CASES) {
      it(c.name, async () => {
        const res = await getOk(t(), c.path);
        expect(ids(res)).to.deep.equal(asIds(c.expected));
        expect(res.body.meta.total).to.equal(c.total);
      });
    }

    it('returns whole resources, not only the grouped field', async () => {
      const res = await getOk(t(), '/api/person?group=age');
      expect(res.body.data[0].attributes).to.include({ name: 'x', age: 30, other: 1 });
    });

    it('keeps group and every other parameter in the paging links', async () => {
      const filter = filterParam([{ name: 'id', op: '>', val: 0 }]);
      const res = await getOk(t(), `/api/person?group=age&sort=-age&${filter}&page[size]=2`);
      const base = `${t().target.origin}/api/person?`;
      for (const rel of ['first', 'last', 'next']) {
        const link = new URL(res.body.links[rel]);
        expect(res.body.links[rel].startsWith(base)).to.equal(true);
        expect(link.searchParams.get('group')).to.equal('age');
        expect(link.searchParams.get('sort')).to.equal('-age');
        expect(link.searchParams.get('filter[objects]')).to.equal('[{"name":"id","op":">","val":0}]');
        expect(link.searchParams.get('page[size]')).to.equal('2');
      }
      expect(new URL(res.body.links.last).searchParams.get('page[number]')).to.equal('2');
      expect(res.body.links.prev).to.equal(null);
      const next = await getOk(t(), res.body.links.next.slice(t().target.origin.length));
      expect(ids(next)).to.deep.equal(['4']);
      expect(next.body.links.next).to.equal(null);
    });
  });
});
