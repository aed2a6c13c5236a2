import { defineModel, Registry, type ColumnSchema } from '@colapi/schema';
import { expect } from 'chai';
import { ApiError, DEFAULT_LIMITS, type ReadQuery } from '@colapi/query-ast';
import type { DecodeContext } from '@colapi/wire-format';
import { LEGACY_OPERATOR_SPELLINGS, parseLegacyQuery, parseLegacySearch } from '../src/index.js';

const col = (name: string, type: ColumnSchema['type'] = 'string'): ColumnSchema => ({
  name,
  type,
  nullable: name !== 'id',
  ...(name === 'id' ? { generated: true } : {}),
});

const registry = new Registry([
  {
    model: defineModel({
      name: 'Person',
      table: 'person',
      columns: [col('id', 'integer'), col('name'), col('age', 'integer'), col('weird__name')],
      relationships: [
        {
          name: 'articles',
          cardinality: 'many',
          target: 'Article',
          join: { kind: 'has', ownColumn: 'id', targetColumn: 'author_id' },
        },
      ],
      virtualAttributes: [{ name: 'is_minor', compute: () => false }],
    }),
    options: { additional_attributes: ['is_minor'] },
  },
  {
    model: defineModel({
      name: 'Article',
      table: 'article',
      columns: [col('id', 'integer'), col('title'), col('author_id', 'integer')],
      relationships: [
        {
          name: 'author',
          cardinality: 'one',
          target: 'Person',
          join: { kind: 'belongs-to', ownColumn: 'author_id', targetColumn: 'id' },
        },
      ],
    }),
  },
]);
const person = registry.collection('person')!;
const article = registry.collection('article')!;
const ctx: DecodeContext = {
  registry,
  limits: { ...DEFAULT_LIMITS, maxPageSize: 50 },
  unsupportedOperator: () => undefined,
};

const params = (q: unknown, extra: Record<string, string> = {}) =>
  new URLSearchParams({ ...(q === undefined ? {} : { q: typeof q === 'string' ? q : JSON.stringify(q) }), ...extra });
const parse = (q: unknown, extra?: Record<string, string>, collection = person): ReadQuery =>
  parseLegacyQuery(params(q, extra), collection, ctx);
const field = (column: string, relations: string[] = []) => ({ relations, column });

function failure(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected an ApiError');
}

describe('parseLegacyQuery: the search object q', () => {
  const CASES: { name: string; q: unknown; collection?: typeof person; expect: Partial<ReadQuery> }[] = [
    {
      name: 'no q at all',
      q: undefined,
      expect: { sort: [], group: [], single: false, paging: { offset: 0, limit: 10, number: 1, size: 10 } },
    },
    { name: 'an empty object', q: {}, expect: { sort: [], group: [], single: false } },
    {
      name: 'one filter with val',
      q: { filters: [{ name: 'age', op: '==', val: 3 }] },
      expect: { filter: { kind: 'compare', field: field('age'), op: 'eq', value: 3 } },
    },
    {
      name: 'a filter comparing two fields',
      q: { filters: [{ name: 'age', op: 'lt', field: 'id' }] },
      expect: { filter: { kind: 'compare-field', field: field('age'), op: 'lt', other: field('id') } },
    },
    {
      name: 'several filters are a conjunction',
      q: {
        filters: [
          { name: 'age', op: 'gt', val: 1 },
          { name: 'name', op: 'is_null' },
        ],
      },
      expect: {
        filter: {
          kind: 'and',
          filters: [
            { kind: 'compare', field: field('age'), op: 'gt', value: 1 },
            { kind: 'null-check', field: field('name'), op: 'is_null' },
          ],
        },
      },
    },
    {
      name: 'disjunction true makes them a disjunction',
      q: {
        filters: [
          { name: 'age', op: 'gt', val: 1 },
          { name: 'name', op: 'is_null' },
        ],
        disjunction: true,
      },
      expect: {
        filter: {
          kind: 'or',
          filters: [
            { kind: 'compare', field: field('age'), op: 'gt', value: 1 },
            { kind: 'null-check', field: field('name'), op: 'is_null' },
          ],
        },
      },
    },
    {
      name: 'disjunction of one filter is that filter',
      q: { filters: [{ name: 'age', op: 'gt', val: 1 }], disjunction: true },
      expect: { filter: { kind: 'compare', field: field('age'), op: 'gt', value: 1 } },
    },
    {
      name: 'an or filter object, as in Format A',
      q: {
        filters: [
          {
            or: [
              { name: 'age', op: '==', val: 1 },
              { name: 'age', op: '==', val: 2 },
            ],
          },
        ],
      },
      expect: {
        filter: {
          kind: 'or',
          filters: [
            { kind: 'compare', field: field('age'), op: 'eq', value: 1 },
            { kind: 'compare', field: field('age'), op: 'eq', value: 2 },
          ],
        },
      },
    },
    {
      name: 'relation__field in a filter is a has/any filter',
      q: { filters: [{ name: 'articles__title', op: 'like', val: 'H%' }] },
      expect: {
        filter: {
          kind: 'relation',
          relation: 'articles',
          op: 'any',
          filter: { kind: 'compare', field: field('title'), op: 'like', value: 'H%' },
        },
      },
    },
    {
      name: 'any with a nested filter object',
      q: { filters: [{ name: 'articles', op: 'any', val: { name: 'title', op: 'eq', val: 'x' } }] },
      expect: {
        filter: {
          kind: 'relation',
          relation: 'articles',
          op: 'any',
          filter: { kind: 'compare', field: field('title'), op: 'eq', value: 'x' },
        },
      },
    },
    {
      name: 'has with a nested filter object',
      collection: article,
      q: { filters: [{ name: 'author', op: 'has', val: { name: 'age', op: '>', val: 20 } }] },
      expect: {
        filter: {
          kind: 'relation',
          relation: 'author',
          op: 'has',
          filter: { kind: 'compare', field: field('age'), op: 'gt', value: 20 },
        },
      },
    },
    {
      name: 'relation__field with any: a related instance whose field equals val (Flask-Restless 0.17)',
      q: { filters: [{ name: 'articles__title', op: 'any', val: '2nd' }] },
      expect: {
        filter: {
          kind: 'relation',
          relation: 'articles',
          op: 'any',
          filter: { kind: 'compare', field: field('title'), op: 'eq', value: '2nd' },
        },
      },
    },
    {
      name: "relation__field with has: the related instance's field equals val, coerced to its type",
      collection: article,
      q: { filters: [{ name: 'author__age', op: 'has', val: '40' }] },
      expect: {
        filter: {
          kind: 'relation',
          relation: 'author',
          op: 'has',
          filter: { kind: 'compare', field: field('age'), op: 'eq', value: 40 },
        },
      },
    },
    {
      name: 'relation__field with has and val null: the field is null',
      collection: article,
      q: { filters: [{ name: 'author__name', op: 'has', val: null }] },
      expect: {
        filter: {
          kind: 'relation',
          relation: 'author',
          op: 'has',
          filter: { kind: 'null-check', field: field('name'), op: 'is_null' },
        },
      },
    },
    {
      name: 'relation__relation__field with any: the operator fits the first relation, the rest is a path',
      q: { filters: [{ name: 'articles__author__name', op: 'any', val: 'x' }] },
      expect: {
        filter: {
          kind: 'relation',
          relation: 'articles',
          op: 'any',
          filter: {
            kind: 'relation',
            relation: 'author',
            op: 'has',
            filter: { kind: 'compare', field: field('name'), op: 'eq', value: 'x' },
          },
        },
      },
    },
    {
      name: 'a column whose name holds __ is that column',
      q: { filters: [{ name: 'weird__name', op: '==', val: 'x' }], order_by: [{ field: 'weird__name' }] },
      expect: {
        filter: { kind: 'compare', field: field('weird__name'), op: 'eq', value: 'x' },
        sort: [{ field: field('weird__name'), descending: false }],
      },
    },
    {
      name: 'ilike is accepted (a sample of the specification uses it)',
      q: { filters: [{ name: 'name', op: 'ilike', val: 'a%' }] },
      expect: { filter: { kind: 'compare', field: field('name'), op: 'ilike', value: 'a%' } },
    },
    {
      name: 'order_by with directions, asc by default',
      q: { order_by: [{ field: 'age', direction: 'desc' }, { field: 'name' }] },
      expect: {
        sort: [
          { field: field('age'), descending: true },
          { field: field('name'), descending: false },
        ],
      },
    },
    {
      name: 'order_by and group_by through a to-one relation',
      collection: article,
      q: { order_by: [{ field: 'author__name', direction: 'asc' }], group_by: [{ field: 'author__age' }] },
      expect: { sort: [{ field: field('name', ['author']), descending: false }], group: [field('age', ['author'])] },
    },
    { name: 'group_by a column', q: { group_by: [{ field: 'age' }] }, expect: { group: [field('age')] } },
    { name: 'single true', q: { single: true }, expect: { single: true } },
    {
      name: 'limit and offset make the window',
      q: { limit: 3, offset: 2 },
      expect: { paging: { offset: 2, limit: 3, number: 1, size: 10, window: { offset: 2, limit: 3 } } },
    },
    {
      name: 'offset 0 is no offset: no window',
      q: { offset: 0 },
      expect: { paging: { offset: 0, limit: 10, number: 1, size: 10 } },
    },
  ];
  for (const c of CASES) {
    it(c.name, () => {
      const query = parse(c.q, {}, c.collection ?? person);
      for (const [key, value] of Object.entries(c.expect))
        expect(query[key as keyof ReadQuery], key).to.deep.equal(value);
      if (!('filter' in c.expect)) expect(query.filter).to.equal(undefined);
    });
  }

  it('leaves includes and field selections to the wire format', () => {
    const query = parse({ filters: [{ name: 'age', op: '==', val: 1 }] });
    expect(query.include).to.deep.equal([]);
    expect(query.fields).to.deep.equal({});
  });
});

describe('parseLegacyQuery: poorly formed searches are 400 with a precise message', () => {
  const CASES: [string, unknown, RegExp, typeof person?][] = [
    ['q that is not JSON', '{filters:', /q is not valid JSON/],
    ['q that is a list', [], /q must be a JSON object/],
    ['an unknown member', { filter: [] }, /q: unknown member "filter"/],
    ['filters that is not a list', { filters: {} }, /q\.filters: must be a list/],
    ['== without val', { filters: [{ name: 'age', op: '==' }] }, /q\.filters\[0\]: "==".* needs a val/],
    ['an unknown field', { filters: [{ name: 'nope', op: '==', val: 1 }] }, /"nope" is not a field of person/],
    ['an unknown operator', { filters: [{ name: 'age', op: 'near', val: 1 }] }, /unknown operator "near"/],
    [
      'not_like is not a Format B operator',
      { filters: [{ name: 'name', op: 'not_like', val: 'a' }] },
      /unknown operator "not_like"/,
    ],
    [
      'network operators are not Format B operators',
      { filters: [{ name: 'name', op: '<<', val: '10.0.0.0/8' }] },
      /unknown operator "<<"/,
    ],
    ['a value of the wrong type', { filters: [{ name: 'age', op: '==', val: 'old' }] }, /"old" is not an integer/],
    [
      'an unknown relation before __',
      { filters: [{ name: 'friends__name', op: '==', val: 'x' }] },
      /"friends" is not a relationship of person/,
    ],
    ['a computed attribute', { filters: [{ name: 'is_minor', op: '==', val: true }] }, /computed/],
    [
      'has on relation__field of a to-many relation',
      { filters: [{ name: 'articles__title', op: 'has', val: 'x' }] },
      /q\.filters\[0\]\.op: use "any" with the to-many relationship "articles", not "has"/,
    ],
    [
      'any on relation__field of a to-one relation',
      { filters: [{ name: 'author__name', op: 'any', val: 'x' }] },
      /q\.filters\[0\]\.op: use "has" with the to-one relationship "author", not "any"/,
      article,
    ],
    [
      'any on relation__field with a val of the wrong type',
      { filters: [{ name: 'articles__id', op: 'any', val: 'abc' }] },
      /q\.filters\[0\]\.val: "abc" is not an integer \(field "id"\)/,
    ],
    [
      'any on relation__field without val',
      { filters: [{ name: 'articles__title', op: 'any' }] },
      /"any" on "articles__title" needs a val/,
    ],
    [
      'any on relation__field with a filter object in val',
      { filters: [{ name: 'articles__title', op: 'any', val: { name: 'title', op: '==', val: 'x' } }] },
      /q\.filters\[0\]\.val: "any" on "articles__title" takes one value of "title", not an object/,
    ],
    [
      'any on relation__field with a list in val',
      { filters: [{ name: 'articles__title', op: 'any', val: ['x'] }] },
      /takes one value of "title", not a list/,
    ],
    [
      'any on relation__field with a field',
      { filters: [{ name: 'articles__title', op: 'any', field: 'name' }] },
      /q\.filters\[0\]\.field: .*not a field/,
    ],
    [
      'any on relation__field of an unknown relation',
      { filters: [{ name: 'friends__name', op: 'any', val: 'x' }] },
      /"friends" is not a relationship of person/,
    ],
    [
      'any on relation__field of an unknown field',
      { filters: [{ name: 'articles__nope', op: 'any', val: 'x' }] },
      /"nope" is not a field of article/,
    ],
    [
      'any on relation__field naming a relationship',
      { filters: [{ name: 'articles__author', op: 'any', val: 'x' }] },
      /"author" is a relationship of article, not a field/,
    ],
    [
      'any on relation__field of a computed attribute',
      { filters: [{ name: 'author__is_minor', op: 'has', val: true }] },
      /computed/,
      article,
    ],

    ['disjunction that is not a boolean', { disjunction: 'yes' }, /q\.disjunction must be true or false/],
    ['single that is not a boolean', { single: 1 }, /q\.single must be true or false/],
    ['limit 0', { limit: 0 }, /q\.limit must be an integer of at least 1/],
    ['a negative offset', { offset: -1 }, /q\.offset must be an integer of at least 0/],
    ['a fractional limit', { limit: 1.5 }, /q\.limit must be an integer/],
    ['order_by that is not a list', { order_by: { field: 'age' } }, /q\.order_by must be a list of objects/],
    ['order_by without a field', { order_by: [{ direction: 'asc' }] }, /q\.order_by\[0\]\.field must name a field/],
    [
      'order_by with an odd direction',
      { order_by: [{ field: 'age', direction: 'up' }] },
      /direction must be "asc" or "desc"/,
    ],
    [
      'order_by an unknown field',
      { order_by: [{ field: 'nope' }] },
      /q\.order_by\[0\]\.field: "nope": "nope" is not a field of person/,
    ],
    ['order_by through a to-many relation', { order_by: [{ field: 'articles__title' }] }, /to-many relationship/],
    ['group_by an unknown member', { group_by: [{ field: 'age', how: 'x' }] }, /unknown member "how"/],
    ['group_by a relationship', { group_by: [{ field: 'author' }] }, /is a relationship, not a field/, article],
  ];
  for (const [name, q, message, collection] of CASES) {
    it(name, () => {
      const e = failure(() => parse(q, {}, collection ?? person));
      expect(e.status).to.equal(400);
      expect(e.detail).to.match(message);
      expect(e.source).to.deep.equal({ parameter: 'q' });
    });
  }
});

describe('parseLegacyQuery: page and results_per_page', () => {
  const CASES: [string, unknown, Record<string, string>, object][] = [
    ['defaults: page 1 of 10', undefined, {}, { offset: 0, limit: 10, number: 1, size: 10 }],
    ['page 3 of 10', undefined, { page: '3' }, { offset: 20, limit: 10, number: 3, size: 10 }],
    [
      'results_per_page 4',
      undefined,
      { results_per_page: '4', page: '2' },
      { offset: 4, limit: 4, number: 2, size: 4 },
    ],
    [
      'a size above the maximum is lowered to it',
      undefined,
      { results_per_page: '500' },
      { offset: 0, limit: 50, number: 1, size: 50 },
    ],
    [
      'pages are cut from the offset',
      { offset: 5 },
      { page: '2', results_per_page: '3' },
      { offset: 8, limit: 3, number: 2, size: 3, window: { offset: 5 } },
    ],
    [
      'the last page of a window is short',
      { limit: 5 },
      { page: '2', results_per_page: '3' },
      { offset: 3, limit: 2, number: 2, size: 3, window: { offset: 0, limit: 5 } },
    ],
    [
      'a page beyond the window is empty',
      { limit: 5 },
      { page: '3', results_per_page: '3' },
      { offset: 6, limit: 0, number: 3, size: 3, window: { offset: 0, limit: 5 } },
    ],
  ];
  for (const [name, q, extra, paging] of CASES) {
    it(name, () => expect(parse(q, extra).paging).to.deep.equal(paging));
  }

  const ERRORS: [string, Record<string, string>, string][] = [
    ['page 0', { page: '0' }, 'page'],
    ['a page that is not a number', { page: 'two' }, 'page'],
    ['a negative results_per_page', { results_per_page: '-1' }, 'results_per_page'],
    ['results_per_page 0', { results_per_page: '0' }, 'results_per_page'],
  ];
  for (const [name, extra, parameter] of ERRORS) {
    it(`${name} is 400`, () => {
      const e = failure(() => parse(undefined, extra));
      expect(e.status).to.equal(400);
      expect(e.detail).to.equal(`${parameter} must be a positive integer`);
      expect(e.source).to.deep.equal({ parameter });
    });
  }

  it('a repeated parameter is 400 rather than half-read', () => {
    const e = failure(() => parseLegacyQuery(new URLSearchParams('page=1&page=2'), person, ctx));
    expect(e.detail).to.match(/page is given more than once/);
  });

  it('ignores query parameters it does not know (callback and the like)', () => {
    expect(parse(undefined, { callback: 'cb', other: 'x' }).paging.number).to.equal(1);
  });
});

describe('parseLegacySearch', () => {
  it('accepts only the members it is given, naming them in the error', () => {
    const e = failure(() =>
      parseLegacySearch({ limit: 1 }, person, ctx, {
        source: { pointer: '/q' },
        path: 'q',
        members: new Set(['filters', 'disjunction']),
      }),
    );
    expect(e.detail).to.equal('q: unknown member "limit" (expected filters, disjunction)');
    expect(e.source).to.deep.equal({ pointer: '/q' });
  });

  it('takes another operator set when asked', () => {
    const search = parseLegacySearch({ filters: [{ name: 'name', op: 'not_like', val: 'a%' }] }, person, ctx, {
      source: { parameter: 'q' },
      path: 'q',
      operators: new Set([...LEGACY_OPERATOR_SPELLINGS, 'not_like']),
    });
    expect(search.filter).to.deep.equal({ kind: 'compare', field: field('name'), op: 'not_like', value: 'a%' });
  });
});

describe('LEGACY_OPERATOR_SPELLINGS', () => {
  const accepted = [
    // colapi's containment of lists and JSON documents, in both formats (docs/decisions.md).
    'contains',
    'cs',
    'contained_by',
    'cd',
    'overlaps',
    'ov',
    '==',
    'eq',
    'equals',
    'equals_to',
    '!=',
    'neq',
    'does_not_equal',
    'not_equal_to',
    '>',
    'gt',
    '<',
    'lt',
    '>=',
    'ge',
    'gte',
    'geq',
    '<=',
    'le',
    'lte',
    'leq',
    'in',
    'not_in',
    'is_null',
    'is_not_null',
    'like',
    'ilike',
    'has',
    'any',
  ];
  it('holds every operator of Format B and ilike', () =>
    expect([...LEGACY_OPERATOR_SPELLINGS].sort()).to.deep.equal([...accepted].sort()));
});
