import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectError } from './helpers.js';

interface ErrorCase {
  readonly name: string;
  /** The collection filtered; person unless said. */
  readonly collection?: string;
  /** A filter list (JSON-encoded for the URL), or a raw string sent as it is. */
  readonly filter: unknown;
  /** Texts the error detail must contain: the path to the faulty member and the field it is about. */
  readonly mentions: readonly string[];
}

const at = (n: number, member = '') => `filter[objects][${n}]${member}`;

/** A filter object nested `depth` levels deep through `and`. */
function nestedAnd(depth: number): unknown {
  let node: unknown = { name: 'age', op: '==', val: 1 };
  for (let i = 1; i < depth; i++) node = { and: [node] };
  return node;
}

/** person → articles → author → articles → … with `levels` relation steps. */
function relationChain(levels: number): unknown {
  // The innermost filter is on a person after an even number of steps, on an article after an odd one.
  let node: unknown = levels % 2 === 0 ? { name: 'name', op: '==', val: 'x' } : { name: 'title', op: '==', val: 'x' };
  for (let i = levels; i > 0; i--)
    node = i % 2 === 1 ? { name: 'articles', op: 'any', val: node } : { name: 'author', op: 'has', val: node };
  return node;
}

const CASES: ErrorCase[] = [
  { name: 'invalid JSON', filter: '[{"name":"age",', mentions: ['filter[objects]', 'JSON'] },
  { name: 'not a list', filter: { name: 'age', op: '==', val: 1 }, mentions: ['filter[objects]', 'list'] },
  { name: 'a string instead of a list', filter: '"age"', mentions: ['filter[objects]', 'list'] },
  { name: 'a list member that is not an object', filter: [1], mentions: [at(0), 'object'] },
  { name: 'a null list member', filter: [null], mentions: [at(0)] },
  {
    name: 'an unknown field',
    filter: [{ name: 'agee', op: '==', val: 1 }],
    mentions: [at(0, '.name'), '"agee"', 'person'],
  },
  {
    name: 'an unknown field in the second filter',
    filter: [
      { name: 'age', op: '==', val: 1 },
      { name: 'nope', op: '==', val: 1 },
    ],
    mentions: [at(1, '.name'), '"nope"'],
  },
  {
    name: 'an unknown field inside has',
    collection: 'article',
    filter: [{ name: 'author', op: 'has', val: { name: 'nope', op: '==', val: 1 } }],
    mentions: [at(0, '.val.name'), '"nope"', 'person'],
  },
  {
    name: 'an unknown field inside or',
    filter: [
      {
        or: [
          { name: 'age', op: '==', val: 1 },
          { name: 'nope', op: '==', val: 1 },
        ],
      },
    ],
    mentions: [at(0, '.or[1].name'), '"nope"'],
  },
  { name: 'a missing name', filter: [{ op: '==', val: 1 }], mentions: [at(0, '.name')] },
  { name: 'an empty name', filter: [{ name: '', op: '==', val: 1 }], mentions: [at(0, '.name')] },
  {
    name: 'an unknown operator',
    filter: [{ name: 'age', op: '=~', val: 1 }],
    mentions: [at(0, '.op'), '"=~"', '"age"'],
  },
  {
    name: 'an operator in the wrong case',
    filter: [{ name: 'age', op: 'EQ', val: 1 }],
    mentions: [at(0, '.op'), '"EQ"', '"age"'],
  },
  { name: 'a missing operator', filter: [{ name: 'age', val: 1 }], mentions: [at(0, '.op'), '"age"'] },
  { name: 'a missing val', filter: [{ name: 'age', op: '==' }], mentions: [at(0), '"age"', 'val'] },
  { name: 'a missing val for in', filter: [{ name: 'age', op: 'in' }], mentions: [at(0), '"age"'] },
  {
    name: 'val and field both',
    filter: [{ name: 'age', op: '==', val: 1, field: 'other' }],
    mentions: [at(0), '"age"'],
  },
  {
    name: 'an unknown member',
    filter: [{ name: 'age', op: '==', val: 1, value: 2 }],
    mentions: [at(0), '"value"', '"age"'],
  },
  {
    name: "'abc' for an integer",
    filter: [{ name: 'age', op: '==', val: 'abc' }],
    mentions: [at(0, '.val'), '"abc"', '"age"'],
  },
  {
    name: 'a fraction for an integer',
    filter: [{ name: 'age', op: '>', val: 2.5 }],
    mentions: [at(0, '.val'), '"age"'],
  },
  {
    name: 'a boolean for an integer',
    filter: [{ name: 'age', op: '==', val: true }],
    mentions: [at(0, '.val'), '"age"'],
  },
  {
    name: 'an object for an integer',
    filter: [{ name: 'age', op: '==', val: { a: 1 } }],
    mentions: [at(0, '.val'), '"age"'],
  },
  {
    name: 'an empty string for an integer',
    filter: [{ name: 'age', op: '==', val: '' }],
    mentions: [at(0, '.val'), '"age"'],
  },
  { name: 'text for a double', filter: [{ name: 'other', op: '<', val: 'NaN' }], mentions: [at(0, '.val'), '"other"'] },
  {
    name: 'an object for text',
    filter: [{ name: 'name', op: '==', val: { a: 1 } }],
    mentions: [at(0, '.val'), '"name"'],
  },
  {
    name: 'text with a NUL character',
    filter: [{ name: 'name', op: '==', val: 'a\u0000b' }],
    mentions: [at(0, '.val'), '"name"'],
  },
  {
    name: "'2020-13-45' for a date",
    filter: [{ name: 'birthday', op: '==', val: '2020-13-45' }],
    mentions: [at(0, '.val'), '"2020-13-45"', '"birthday"'],
  },
  {
    name: 'February 29th of a common year',
    filter: [{ name: 'birthday', op: '<', val: '2021-02-29' }],
    mentions: [at(0, '.val'), '"birthday"'],
  },
  {
    name: 'a timestamp for a date',
    filter: [{ name: 'birthday', op: '==', val: '2020-01-01T10:00:00' }],
    mentions: [at(0, '.val'), '"birthday"'],
  },
  {
    name: 'a number for a date',
    filter: [{ name: 'birthday', op: '==', val: 20200101 }],
    mentions: [at(0, '.val'), '"birthday"'],
  },
  {
    name: 'hour 25 in a timestamp',
    filter: [{ name: 'birth_datetime', op: '>', val: '2020-01-01T25:00:00' }],
    mentions: [at(0, '.val'), '"birth_datetime"'],
  },
  {
    name: 'a timestamp with a non-zero offset',
    filter: [{ name: 'birth_datetime', op: '>', val: '2020-01-01T10:00:00+02:00' }],
    mentions: [at(0, '.val'), '"birth_datetime"'],
  },
  {
    name: "'24:00' for a time",
    filter: [{ name: 'bedtime', op: '==', val: '24:00' }],
    mentions: [at(0, '.val'), '"bedtime"'],
  },
  {
    name: 'a lower-case now function',
    filter: [{ name: 'birthday', op: '<', val: 'current_date' }],
    mentions: [at(0, '.val'), '"birthday"'],
  },
  {
    name: 'text for an interval',
    collection: 'task',
    filter: [{ name: 'duration', op: '>', val: 'an hour' }],
    mentions: [at(0, '.val'), '"duration"'],
  },
  { name: 'a list for ==', filter: [{ name: 'age', op: '==', val: [1, 2] }], mentions: [at(0, '.val'), '"age"'] },
  { name: 'a number for in', filter: [{ name: 'age', op: 'in', val: 5 }], mentions: [at(0, '.val'), '"age"', 'list'] },
  {
    name: 'null inside in',
    filter: [{ name: 'age', op: 'in', val: [1, null] }],
    mentions: [at(0, '.val[1]'), '"age"'],
  },
  {
    name: 'a bad value inside not_in',
    filter: [{ name: 'age', op: 'not_in', val: [1, 'x'] }],
    mentions: [at(0, '.val[1]'), '"age"'],
  },
  { name: 'null with >', filter: [{ name: 'age', op: '>', val: null }], mentions: [at(0, '.val'), '"age"'] },
  {
    name: 'a value with is_null',
    filter: [{ name: 'age', op: 'is_null', val: 3 }],
    mentions: [at(0, '.val'), '"age"'],
  },
  {
    name: 'a field with is_not_null',
    filter: [{ name: 'age', op: 'is_not_null', field: 'other' }],
    mentions: [at(0), '"age"'],
  },
  { name: 'like on an integer', filter: [{ name: 'age', op: 'like', val: '1%' }], mentions: [at(0, '.op'), '"age"'] },
  {
    name: 'ilike on a date',
    filter: [{ name: 'birthday', op: 'ilike', val: '19%' }],
    mentions: [at(0, '.op'), '"birthday"'],
  },
  {
    name: 'a number as like pattern',
    filter: [{ name: 'name', op: 'like', val: 5 }],
    mentions: [at(0, '.val'), '"name"'],
  },
  {
    name: 'a like pattern ending in a lone backslash',
    filter: [{ name: 'name', op: 'like', val: 'abc\\' }],
    mentions: [at(0, '.val'), '"name"'],
  },
  { name: 'like against a field', filter: [{ name: 'name', op: 'like', field: 'name' }], mentions: [at(0), '"name"'] },
  {
    name: 'has on a to-many relationship',
    filter: [{ name: 'articles', op: 'has', val: { name: 'title', op: '==', val: 'x' } }],
    mentions: [at(0, '.op'), '"articles"', 'any'],
  },
  {
    name: 'any on a to-one relationship',
    collection: 'article',
    filter: [{ name: 'author', op: 'any' }],
    mentions: [at(0, '.op'), '"author"', 'has'],
  },
  { name: 'has on a column', filter: [{ name: 'age', op: 'has' }], mentions: [at(0, '.name'), '"age"'] },
  { name: 'any with a field', filter: [{ name: 'articles', op: 'any', field: 'id' }], mentions: [at(0), '"articles"'] },
  {
    name: 'any with a list as val',
    filter: [{ name: 'articles', op: 'any', val: [] }],
    mentions: [at(0, '.val'), '"articles"'],
  },
  {
    name: '== on a relationship',
    collection: 'article',
    filter: [{ name: 'author', op: '==', val: 1 }],
    mentions: [at(0, '.name'), '"author"'],
  },
  {
    name: 'the virtual attribute is_minor',
    filter: [{ name: 'is_minor', op: '==', val: true }],
    mentions: [at(0, '.name'), '"is_minor"'],
  },
  {
    name: 'is_minor as the other field',
    filter: [{ name: 'age', op: '==', field: 'is_minor' }],
    mentions: [at(0, '.field'), '"is_minor"'],
  },
  {
    name: 'an unknown other field',
    filter: [{ name: 'age', op: '<', field: 'nope' }],
    mentions: [at(0, '.field'), '"nope"'],
  },
  {
    name: 'a field that is not a string',
    filter: [{ name: 'age', op: '<', field: 3 }],
    mentions: [at(0, '.field'), '"age"'],
  },
  {
    name: 'fields of incomparable types',
    filter: [{ name: 'age', op: '<', field: 'name' }],
    mentions: [at(0, '.field'), '"age"', '"name"'],
  },
  {
    name: 'a date against a timestamp field',
    filter: [{ name: 'birthday', op: '==', field: 'birth_datetime' }],
    mentions: [at(0, '.field'), '"birthday"', '"birth_datetime"'],
  },
  { name: 'in against a field', filter: [{ name: 'age', op: 'in', field: 'other' }], mentions: [at(0), '"age"'] },
  {
    name: 'a field excluded from the collection',
    collection: 'person_private',
    filter: [{ name: 'age', op: '==', val: 1 }],
    mentions: [at(0, '.name'), '"age"', 'person_private'],
  },
  { name: 'or that is not a list', filter: [{ or: { name: 'age', op: '==', val: 1 } }], mentions: [at(0, '.or')] },
  { name: 'and with another member', filter: [{ and: [], name: 'age' }], mentions: [at(0)] },
  {
    name: 'nesting deeper than 8 levels of and',
    filter: [nestedAnd(9)],
    mentions: ['filter[objects][0].and[0].and[0]', 'deeper'],
  },
  {
    name: 'nesting deeper than 8 levels of has and any',
    filter: [relationChain(8)],
    mentions: ['.val.val.val', 'deeper'],
  },
  {
    name: 'more than 100 filter objects',
    filter: Array.from({ length: 101 }, () => ({ name: 'age', op: '==', val: 1 })),
    mentions: [at(100), '100'],
  },
];

describeEachDatabase('Format A: bad filters answer 400 with a precise error', (t) => {
  for (const c of CASES) {
    it(c.name, async () => {
      const text = typeof c.filter === 'string' ? c.filter : JSON.stringify(c.filter);
      const res = await t().http.get(`/api/${c.collection ?? 'person'}?filter[objects]=${encodeURIComponent(text)}`);
      const error = expectError(res, 400, 'filter[objects]');
      for (const m of c.mentions) expect(error.detail, `detail "${error.detail}" should mention ${m}`).to.contain(m);
    });
  }

  it('accepts nesting of exactly 8 levels', async () => {
    const res = await t().http.get(`/api/person?filter[objects]=${encodeURIComponent(JSON.stringify([nestedAnd(8)]))}`);
    expect(res.status, res.text).to.equal(200);
    const chain = await t().http.get(
      `/api/person?filter[objects]=${encodeURIComponent(JSON.stringify([relationChain(7)]))}`,
    );
    expect(chain.status, chain.text).to.equal(200);
  });

  it('checks filters of a related collection against the related type', async () => {
    const res = await t().http.get(
      `/api/person/1/articles?filter[objects]=${encodeURIComponent(JSON.stringify([{ name: 'age', op: '==', val: 1 }]))}`,
    );
    const error = expectError(res, 400, 'filter[objects]');
    expect(error.detail).to.contain('"age"').and.contain('article');
  });

  it('refuses a filter on a single resource', async () => {
    const res = await t().http.get(`/api/person/1?filter[objects]=${encodeURIComponent('[]')}`);
    expectError(res, 400, 'filter[objects]');
  });
});
