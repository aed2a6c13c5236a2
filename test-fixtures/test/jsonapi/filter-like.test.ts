import { describeEachDatabase, type SeedData } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { asIds, filteredIds } from './helpers.js';

/** Names chosen to tell case, accents, wildcards and escapes apart. */
const NAMES = [
  'Émile',
  'émilie',
  'Eric',
  'eve',
  'a_b',
  'axb',
  '50%',
  '5000',
  'ÉMILE',
  'back\\slash',
  'Straße',
  '[x]*?',
];
const DATA: SeedData = { person: NAMES.map((name, i) => ({ id: i + 1, name })) };

interface LikeCase {
  readonly op: 'like' | 'ilike' | 'not_like';
  readonly pattern: string;
  readonly expected: number[];
  readonly why: string;
}

const CASES: LikeCase[] = [
  { op: 'like', pattern: 'É%', expected: [1, 9], why: 'an accented capital matches itself only' },
  { op: 'like', pattern: 'é%', expected: [2], why: 'like is case-sensitive beyond ASCII' },
  { op: 'like', pattern: 'E%', expected: [3], why: 'like is accent-sensitive' },
  { op: 'like', pattern: 'e%', expected: [4], why: 'like is case-sensitive in ASCII' },
  { op: 'like', pattern: 'ÉMILE', expected: [9], why: 'without wildcards like is exact' },
  { op: 'like', pattern: '_mile', expected: [1], why: '_ matches one character, even a multi-byte one' },
  { op: 'like', pattern: '%ß%', expected: [11], why: 'non-ASCII inside the value' },
  { op: 'like', pattern: 'a_b', expected: [5, 6], why: '_ is a wildcard' },
  { op: 'like', pattern: 'a\\_b', expected: [5], why: 'an escaped _ is literal' },
  { op: 'like', pattern: '50%', expected: [7, 8], why: '% is a wildcard' },
  { op: 'like', pattern: '50\\%', expected: [7], why: 'an escaped % is literal' },
  { op: 'like', pattern: '%\\%', expected: [7], why: 'an escaped % at the end' },
  { op: 'like', pattern: '%\\\\%', expected: [10], why: 'an escaped backslash is literal' },
  { op: 'like', pattern: '[x]*?', expected: [12], why: 'brackets, * and ? are no wildcards' },
  { op: 'like', pattern: '[x]%', expected: [12], why: 'a bracket is literal' },
  { op: 'like', pattern: '%', expected: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], why: '% alone matches everything' },
  { op: 'like', pattern: '', expected: [], why: 'the empty pattern matches the empty string only' },
  { op: 'ilike', pattern: 'é%', expected: [1, 2, 9], why: 'ilike folds non-ASCII case' },
  { op: 'ilike', pattern: 'É%', expected: [1, 2, 9], why: 'ilike folds either way' },
  { op: 'ilike', pattern: 'émile', expected: [1, 9], why: 'ilike without wildcards' },
  { op: 'ilike', pattern: 'e%', expected: [3, 4], why: 'ilike is still accent-sensitive' },
  { op: 'ilike', pattern: 'E_E', expected: [4], why: '_ in ilike' },
  { op: 'ilike', pattern: '_MILE', expected: [1, 9], why: '_ matches a multi-byte character in ilike' },
  { op: 'ilike', pattern: 'A\\_B', expected: [5], why: 'escapes in ilike' },
  { op: 'ilike', pattern: '%STRASSE%', expected: [], why: 'ilike folds case, it does not expand ß' },
  { op: 'ilike', pattern: 'STRAßE', expected: [11], why: 'ilike on a word with ß' },
  {
    op: 'not_like',
    pattern: 'É%',
    expected: [2, 3, 4, 5, 6, 7, 8, 10, 11, 12],
    why: 'not_like is the negation of like',
  },
  { op: 'not_like', pattern: '%e%', expected: [3, 5, 6, 7, 8, 9, 10, 12], why: 'not_like is case-sensitive' },
  { op: 'not_like', pattern: '50\\%', expected: [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12], why: 'escapes in not_like' },
];

describeEachDatabase('Format A: like, ilike and not_like', (t) => {
  before(async () => {
    await t().seed(DATA);
  });

  for (const c of CASES) {
    it(`${c.op} ${JSON.stringify(c.pattern)}: ${c.why}`, async () => {
      expect(await filteredIds(t(), 'person', [{ name: 'name', op: c.op, val: c.pattern }])).to.deep.equal(
        asIds(c.expected),
      );
    });
  }

  it('excludes null values from like and not_like alike', async () => {
    await t().seed({
      person: [
        { id: 1, name: null },
        { id: 2, name: 'x' },
      ],
    });
    expect(await filteredIds(t(), 'person', [{ name: 'name', op: 'like', val: '%' }])).to.deep.equal(['2']);
    expect(await filteredIds(t(), 'person', [{ name: 'name', op: 'not_like', val: 'y' }])).to.deep.equal(['2']);
  });

  describe('on the standard dataset', () => {
    before(async () => {
      await t().seed();
    });

    const cases: [string, string, number[]][] = [
      ['like', '100\\% pure', [5]],
      ['like', '%\\%%', [5]],
      ['like', '%0%', [3, 5]],
      ['like', 'hello%', [2]],
      ['ilike', 'hello%', [1, 2]],
      ['not_like', 'hello%', [1, 3, 4, 5]],
    ];
    for (const [op, pattern, expected] of cases) {
      it(`article title ${op} ${JSON.stringify(pattern)}`, async () => {
        expect(await filteredIds(t(), 'article', [{ name: 'title', op, val: pattern }])).to.deep.equal(asIds(expected));
      });
    }

    it('takes a percent sign percent-encoded in the URL', async () => {
      const res = await t().http.get(`/api/article?filter[objects]=[{"name":"title","op":"like","val":"100%25%"}]`);
      expect(res.status).to.equal(200);
      expect(res.body.data.map((r: { id: string }) => r.id)).to.deep.equal(['5']);
    });
  });
});
