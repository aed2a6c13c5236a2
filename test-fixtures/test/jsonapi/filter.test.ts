import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { asIds, filteredIds, type FilterCase } from './helpers.js';
import { AGE_SYNONYMS } from '../shared/operator-synonyms.js';

/*
 * filter[objects] on the standard dataset (test-fixtures/src/testing/seed.ts):
 * person 1 Alice 25 · 2 bob 17 · 3 Carol null · 4 dave 40 · 5 Eve 18; `other` 1.5, null, 3.25, -2, 0.
 * article 1 'Hello World' (Alice) · 2 'hello again' (Alice) · 3 'Databases 101' (bob) · 4 'Untitled' (none) · 5 '100% pure' (dave).
 * comment 1 on article 1 by bob · 2 on article 1 by Carol · 3 on article 3 by Alice · 4 on nothing by nobody.
 * tag 1 news (article 1) · 2 tech (articles 1, 3) · 3 life (article 5).
 */

const age = (op: string, val: unknown) => [{ name: 'age', op, val }];
const person = (name: string, filter: unknown, expected: number[]): FilterCase => ({
  name,
  collection: 'person',
  filter,
  expected,
});

const OPERATOR_CASES: FilterCase[] = [
  ...AGE_SYNONYMS.flatMap(([spellings, val, expected]) =>
    spellings.map((op) => person(`age ${op} ${JSON.stringify(val)}`, age(op, val), [...expected])),
  ),
  person('is_null', [{ name: 'age', op: 'is_null' }], [3]),
  person('is_not_null', [{ name: 'age', op: 'is_not_null' }], [1, 2, 4, 5]),
  person('is_null with val null', [{ name: 'other', op: 'is_null', val: null }], [2]),
  person('== null is is_null', age('==', null), [3]),
  person('eq null is is_null', age('eq', null), [3]),
  person('!= null is is_not_null', age('!=', null), [1, 2, 4, 5]),
  person('neq null is is_not_null', age('neq', null), [1, 2, 4, 5]),
  person('a number given as a string', age('==', '25'), [1]),
  person('in on text', [{ name: 'name', op: 'in', val: ['Alice', 'bob', 'nobody'] }], [1, 2]),
  person('in with an empty list matches nothing', age('in', []), []),
  person('not_in on text', [{ name: 'name', op: 'not_in', val: ['Alice', 'bob'] }], [3, 4, 5]),
  person('== on text is case-sensitive', [{ name: 'name', op: '==', val: 'alice' }], []),
  person('== on a double', [{ name: 'other', op: '==', val: 3.25 }], [3]),
  person('< on a double with a negative value', [{ name: 'other', op: '<', val: -1 }], [4]),
  person('>= on a double with a whole number', [{ name: 'other', op: '>=', val: 0 }], [1, 3, 5]),
  person('== on the id', [{ name: 'id', op: '==', val: '3' }], [3]),
  person('< a whole number beyond 32 bits', age('<', 10_000_000_000), [1, 2, 4, 5]),
  person('== a whole number beyond 32 bits', age('==', -10_000_000_000), []),
  person('in with a whole number beyond 32 bits', [{ name: 'id', op: 'in', val: [1, 9_007_199_254_740_991] }], [1]),
  person('like', [{ name: 'name', op: 'like', val: '%e' }], [1, 4, 5]),
  person('like is case-sensitive', [{ name: 'name', op: 'like', val: 'B%' }], []),
  person('ilike', [{ name: 'name', op: 'ilike', val: 'B%' }], [2]),
  person('ilike in the middle', [{ name: 'name', op: 'ilike', val: '%E%' }], [1, 4, 5]),
  person('not_like', [{ name: 'name', op: 'not_like', val: '%e' }], [2, 3]),
  {
    name: '== on a network address works as text on every dialect',
    collection: 'network',
    filter: [{ name: 'address', op: '==', val: '192.168.1.5' }],
    expected: [1],
  },
];

const FIELD_CASES: FilterCase[] = [
  person('field: age > other', [{ name: 'age', op: '>', field: 'other' }], [1, 4, 5]),
  person('field: age == age (nulls never equal)', [{ name: 'age', op: '==', field: 'age' }], [1, 2, 4, 5]),
  person('field: other <= age', [{ name: 'other', op: '<=', field: 'age' }], [1, 4, 5]),
  person('field: age != other', [{ name: 'age', op: 'neq', field: 'other' }], [1, 4, 5]),
  {
    name: 'field: comment article_id < author_id',
    collection: 'comment',
    filter: [{ name: 'article_id', op: '<', field: 'author_id' }],
    expected: [1, 2],
  },
  {
    name: 'field: comment article_id == author_id',
    collection: 'comment',
    filter: [{ name: 'article_id', op: '==', field: 'author_id' }],
    expected: [],
  },
  {
    name: 'field: task due >= due',
    collection: 'task',
    filter: [{ name: 'due', op: '>=', field: 'due' }],
    expected: [1, 3],
  },
];

const has = (name: string, val?: unknown) => ({ name, op: 'has', ...(val === undefined ? {} : { val }) });
const any = (name: string, val?: unknown) => ({ name, op: 'any', ...(val === undefined ? {} : { val }) });

const RELATION_CASES: FilterCase[] = [
  {
    name: 'has (to-one)',
    collection: 'article',
    filter: [has('author', { name: 'name', op: '==', val: 'Alice' })],
    expected: [1, 2],
  },
  {
    name: 'has with a comparison',
    collection: 'article',
    filter: [has('author', { name: 'age', op: '>', val: 20 })],
    expected: [1, 2, 5],
  },
  {
    name: 'has without val: the related resource exists',
    collection: 'article',
    filter: [has('author')],
    expected: [1, 2, 3, 5],
  },
  {
    name: 'has with val null: the related resource exists',
    collection: 'article',
    filter: [{ name: 'author', op: 'has', val: null }],
    expected: [1, 2, 3, 5],
  },
  {
    name: 'any (to-many)',
    collection: 'person',
    filter: [any('articles', { name: 'title', op: 'like', val: 'Hello%' })],
    expected: [1],
  },
  {
    name: 'any without val: some related resource exists',
    collection: 'person',
    filter: [any('articles')],
    expected: [1, 2, 4],
  },
  {
    name: 'any on a second to-many',
    collection: 'person',
    filter: [any('comments', { name: 'content', op: '==', val: 'Nice' })],
    expected: [1],
  },
  {
    name: 'any on many-to-many article.tags',
    collection: 'article',
    filter: [any('tags', { name: 'name', op: '==', val: 'tech' })],
    expected: [1, 3],
  },
  {
    name: 'any on many-to-many tag.articles',
    collection: 'tag',
    filter: [any('articles', { name: 'title', op: 'ilike', val: 'hello%' })],
    expected: [1, 2],
  },
  {
    name: 'has inside has (comment → article → author)',
    collection: 'comment',
    filter: [has('article', has('author', { name: 'name', op: '==', val: 'Alice' }))],
    expected: [1, 2],
  },
  {
    name: 'any inside has (comment → article → tags)',
    collection: 'comment',
    filter: [has('article', any('tags', { name: 'name', op: '==', val: 'tech' }))],
    expected: [1, 2, 3],
  },
  {
    name: 'has inside any inside any (person → articles → comments → author)',
    collection: 'person',
    filter: [any('articles', any('comments', has('author', { name: 'name', op: '==', val: 'bob' })))],
    expected: [1],
  },
  {
    name: 'many-to-many both ways (tag → articles → tags)',
    collection: 'tag',
    filter: [any('articles', any('tags', { name: 'name', op: '==', val: 'news' }))],
    expected: [1, 2],
  },
  {
    name: 'many-to-many then to-one (tag → articles → author)',
    collection: 'tag',
    filter: [any('articles', has('author', { name: 'name', op: '==', val: 'bob' }))],
    expected: [2],
  },
  {
    name: 'to-many then many-to-many (person → articles → tags)',
    collection: 'person',
    filter: [any('articles', any('tags', { name: 'name', op: '==', val: 'life' }))],
    expected: [4],
  },
  {
    name: 'four levels (tag → articles → comments → author → articles)',
    collection: 'tag',
    filter: [
      any(
        'articles',
        any('comments', has('author', any('articles', { name: 'title', op: '==', val: 'Databases 101' }))),
      ),
    ],
    expected: [1, 2],
  },
  {
    name: 'or inside any',
    collection: 'person',
    filter: [
      any('comments', {
        or: [
          { name: 'content', op: '==', val: 'Great' },
          { name: 'content', op: '==', val: 'meh' },
        ],
      }),
    ],
    expected: [2, 3],
  },
  {
    name: 'a field-versus-field filter inside any',
    collection: 'article',
    filter: [any('comments', { name: 'author_id', op: '>', field: 'article_id' })],
    expected: [1],
  },
];

const LOGIC_CASES: FilterCase[] = [
  person(
    'a list is a conjunction',
    [
      { name: 'age', op: '>=', val: 18 },
      { name: 'name', op: 'ilike', val: '%e%' },
    ],
    [1, 4, 5],
  ),
  person('an empty list matches everything', [], [1, 2, 3, 4, 5]),
  person(
    'or',
    [
      {
        or: [
          { name: 'age', op: '<', val: 18 },
          { name: 'name', op: '==', val: 'Eve' },
        ],
      },
    ],
    [2, 5],
  ),
  person(
    'and',
    [
      {
        and: [
          { name: 'age', op: '>=', val: 18 },
          { name: 'age', op: '<', val: 30 },
        ],
      },
    ],
    [1, 5],
  ),
  person(
    'or of and and is_null',
    [
      {
        or: [
          {
            and: [
              { name: 'age', op: '>', val: 18 },
              { name: 'name', op: 'like', val: '%e' },
            ],
          },
          { name: 'age', op: 'is_null' },
        ],
      },
    ],
    [1, 3, 4],
  ),
  person(
    'and of or and or',
    [
      {
        and: [
          { or: [age('<', 18)[0], age('>', 30)[0]] },
          {
            or: [
              { name: 'name', op: 'like', val: 'b%' },
              { name: 'other', op: '<', val: 0 },
            ],
          },
        ],
      },
    ],
    [2, 4],
  ),
  person('an empty or matches nothing', [{ or: [] }], []),
  person('an empty and matches everything', [{ and: [] }], [1, 2, 3, 4, 5]),
  person(
    'or with a relation filter',
    [{ or: [any('articles', { name: 'title', op: '==', val: 'Databases 101' }), age('==', 40)[0]] }],
    [2, 4],
  ),
  person('not (via !=) combined with any', [age('!=', 25)[0], any('comments')], [2]),
];

describeEachDatabase('Format A: filter[objects] operators and relations', (t) => {
  for (const [title, cases] of [
    ['operators and synonyms', OPERATOR_CASES],
    ['field versus field', FIELD_CASES],
    ['has and any', RELATION_CASES],
    ['and, or', LOGIC_CASES],
  ] as const) {
    describe(title, () => {
      for (const c of cases) {
        it(c.name, async () => {
          expect(await filteredIds(t(), c.collection, c.filter)).to.deep.equal(asIds(c.expected));
        });
      }
    });
  }

  it('counts only the matching resources in meta.total', async () => {
    const res = await t().http.get(
      `/api/person?filter[objects]=${encodeURIComponent(JSON.stringify(age('>=', 18)))}&page[size]=1`,
    );
    expect(res.status).to.equal(200);
    expect(res.body.meta.total).to.equal(3);
    expect(res.body.data.map((r: { id: string }) => r.id)).to.deep.equal(['1']);
  });
});
