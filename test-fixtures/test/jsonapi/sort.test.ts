import { describeEachDatabase, type SeedData } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { asIds, expectError, getOk, ids } from './helpers.js';

interface SortCase {
  readonly name: string;
  /** Path and query, e.g. `/api/person?sort=age`. */
  readonly path: string;
  readonly expected: readonly number[];
}

const s = (name: string, path: string, expected: number[]): SortCase => ({ name, path, expected });

/*
 * person age / other / name: 1 25 1.5 Alice · 2 17 null bob · 3 null 3.25 Carol · 4 40 -2 dave · 5 18 0 Eve.
 * Text sorts by code point on every dialect: capitals before small letters.
 */
const STANDARD_CASES: SortCase[] = [
  s('ascending puts nulls first', '/api/person?sort=age', [3, 2, 5, 1, 4]),
  s('descending puts nulls last', '/api/person?sort=-age', [4, 1, 5, 2, 3]),
  s('a double ascending', '/api/person?sort=other', [2, 4, 5, 1, 3]),
  s('a double descending', '/api/person?sort=-other', [3, 1, 5, 4, 2]),
  s('text by code point', '/api/person?sort=name', [1, 3, 5, 2, 4]),
  s('text descending', '/api/person?sort=-name', [4, 2, 5, 3, 1]),
  s('a date', '/api/person?sort=birthday', [3, 4, 1, 5, 2]),
  s('a timestamp descending', '/api/person?sort=-birth_datetime', [2, 5, 1, 4, 3]),
  s('a time with fractions', '/api/person?sort=bedtime', [3, 5, 2, 1, 4]),
  s('the id descending', '/api/person?sort=-id', [5, 4, 3, 2, 1]),
  s('an interval', '/api/task?sort=duration', [3, 2, 1]),
  s('an interval descending', '/api/task?sort=-duration', [1, 2, 3]),
  s('a to-one path', '/api/article?sort=author.age', [4, 3, 1, 2, 5]),
  s('a to-one path descending', '/api/article?sort=-author.age', [5, 1, 2, 3, 4]),
  s('a to-one path to text', '/api/article?sort=author.name', [4, 1, 2, 3, 5]),
  s('a two-step to-one path', '/api/comment?sort=article.author.name', [4, 1, 2, 3]),
  s('a two-step to-one path descending', '/api/comment?sort=-article.author.name', [3, 1, 2, 4]),
  s('a to-one path then the id', '/api/comment?sort=-article.title,id', [1, 2, 3, 4]),
  s('another to-one path', '/api/comment?sort=author.name', [4, 3, 2, 1]),
  s(
    'with a filter and paging',
    `/api/person?sort=-age&page[size]=2&filter[objects]=${encodeURIComponent('[{"name":"age","op":"is_not_null"}]')}`,
    [4, 1],
  ),
  s('on the second page', '/api/person?sort=-age&page[size]=2&page[number]=2', [5, 2]),
  s('a related collection', '/api/person/1/articles?sort=-title', [2, 1]),
  s('a date of a related collection', '/api/tag/2/articles?sort=-publishtime', [3, 1]),
];

/* Ties: ages 30 (1, 3, 6), 20 (2, 5), null (4, 7). */
const TIES: SeedData = {
  person: [
    { id: 1, name: 'x', age: 30, other: 1 },
    { id: 2, name: 'y', age: 20, other: 2 },
    { id: 3, name: 'z', age: 30, other: 0 },
    { id: 4, name: 'w', age: null, other: 5 },
    { id: 5, name: 'v', age: 20, other: 2 },
    { id: 6, name: 'u', age: 30, other: 1 },
    { id: 7, name: 'y', age: null, other: null },
  ],
};

const TIE_CASES: SortCase[] = [
  s('ties are broken by the id', '/api/person?sort=age', [4, 7, 2, 5, 1, 3, 6]),
  s('ties are broken by the id ascending when sorting descending', '/api/person?sort=-age', [1, 3, 6, 2, 5, 4, 7]),
  s('two keys', '/api/person?sort=age,other', [7, 4, 2, 5, 3, 1, 6]),
  s('two keys descending', '/api/person?sort=-age,-other', [1, 6, 3, 2, 5, 4, 7]),
  s('a key then the id descending', '/api/person?sort=age,-id', [7, 4, 5, 2, 6, 3, 1]),
  s('text then a number', '/api/person?sort=name,age', [6, 5, 4, 1, 7, 2, 3]),
  s('text descending then the id', '/api/person?sort=-name,id', [3, 2, 7, 1, 4, 5, 6]),
  s('three keys', '/api/person?sort=-other,name,age', [4, 5, 2, 6, 1, 3, 7]),
  s('ties stay stable across pages (page 1)', '/api/person?sort=age&page[size]=3', [4, 7, 2]),
  s('ties stay stable across pages (page 2)', '/api/person?sort=age&page[size]=3&page[number]=2', [5, 1, 3]),
  s('ties stay stable across pages (page 3)', '/api/person?sort=age&page[size]=3&page[number]=3', [6]),
];

/** [why, sort value, a text the detail must contain] */
const ERROR_CASES: [string, string, string][] = [
  ['an unknown field', 'nope', '"nope"'],
  ['an unknown field descending', '-nope', '"nope"'],
  ['a to-many path', 'articles.title', '"articles"'],
  ['a relationship itself', 'articles', '"articles"'],
  ['the virtual attribute is_minor', 'is_minor', '"is_minor"'],
  ['an empty key', 'age,,name', 'empty'],
  ['a lone minus', '-', 'empty'],
  ['a plus sign', '+age', '"+age"'],
  ['two minus signs', '--age', '"-age"'],
  ['a path ending in a relationship', 'comments', '"comments"'],
];

describeEachDatabase('Format A: sort', (t) => {
  for (const c of STANDARD_CASES) {
    it(c.name, async () => {
      expect(ids(await getOk(t(), c.path))).to.deep.equal(asIds(c.expected));
    });
  }

  for (const [name, sort, mention] of ERROR_CASES) {
    it(`answers 400 for ${name}`, async () => {
      const error = expectError(await t().http.get(`/api/person?sort=${encodeURIComponent(sort)}`), 400, 'sort');
      expect(error.detail).to.contain(mention);
    });
  }

  it('answers 400 for a to-many step inside a dotted path', async () => {
    const error = expectError(await t().http.get('/api/comment?sort=article.comments.content'), 400, 'sort');
    expect(error.detail).to.contain('comments').and.contain('to-many');
  });

  it('answers 400 for an unknown field at the end of a dotted path', async () => {
    const error = expectError(await t().http.get('/api/article?sort=author.nope'), 400, 'sort');
    expect(error.detail).to.contain('nope');
  });

  it('answers 400 for a field the collection does not expose', async () => {
    const error = expectError(await t().http.get('/api/person_private?sort=age'), 400, 'sort');
    expect(error.detail).to.contain('age');
  });

  it('answers 400 for sort on a single resource', async () => {
    expectError(await t().http.get('/api/person/1?sort=age'), 400, 'sort');
  });

  describe('ties', () => {
    before(async () => {
      await t().seed(TIES);
    });
    after(async () => {
      await t().seed();
    });
    for (const c of TIE_CASES) {
      it(c.name, async () => {
        expect(ids(await getOk(t(), c.path))).to.deep.equal(asIds(c.expected));
      });
    }
  });
});
