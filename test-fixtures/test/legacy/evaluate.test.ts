import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectMessage, getOk, q } from './helpers.js';

/** Ages of the standard persons: 25, 17, null, 40, 18. */
const EVALUATIONS: [string, string, unknown, Record<string, unknown>][] = [
  ['count of id counts instances', 'person', { functions: [{ name: 'count', field: 'id' }] }, { count__id: 5 }],
  [
    'several functions, one member each',
    'person',
    {
      functions: [
        { name: 'avg', field: 'age' },
        { name: 'sum', field: 'age' },
        { name: 'min', field: 'age' },
        { name: 'max', field: 'age' },
        { name: 'count', field: 'age' },
      ],
    },
    { avg__age: 25, sum__age: 100, min__age: 17, max__age: 40, count__age: 4 },
  ],
  ['a non-integral average', 'person', { functions: [{ name: 'avg', field: 'other' }] }, { avg__other: 0.6875 }],
  [
    'with filters',
    'person',
    { functions: [{ name: 'avg', field: 'age' }], filters: [{ name: 'age', op: '>=', val: 18 }] },
    { avg__age: 27.666666666666668 },
  ],
  [
    'with a disjunction of filters',
    'person',
    {
      functions: [{ name: 'count', field: 'id' }],
      filters: [
        { name: 'age', op: '==', val: 17 },
        { name: 'age', op: 'is_null' },
      ],
      disjunction: true,
    },
    { count__id: 2 },
  ],
  [
    'over no instance: count 0, others null',
    'person',
    {
      functions: [
        { name: 'count', field: 'id' },
        { name: 'sum', field: 'age' },
      ],
      filters: [{ name: 'age', op: '>', val: 99 }],
    },
    { count__id: 0, sum__age: null },
  ],
  ['intervals in seconds', 'task', { functions: [{ name: 'sum', field: 'duration' }] }, { sum__duration: 3690 }],
  [
    'min and max of a date',
    'task',
    {
      functions: [
        { name: 'min', field: 'due' },
        { name: 'max', field: 'due' },
      ],
    },
    { min__due: '2024-01-01', max__due: '2024-06-30' },
  ],
  ['no functions: the empty object', 'person', { functions: [] }, {}],
];

describeEachDatabase(
  'Format B: function evaluation',
  (t) => {
    for (const [name, collection, search, expected] of EVALUATIONS) {
      it(name, async () => {
        const res = await getOk(t(), `/api/eval/${collection}?${q(search)}`);
        expect(res.headers.get('content-type')).to.match(/^application\/json/);
        expect(Object.keys(res.body)).to.deep.equal(Object.keys(expected));
        for (const [key, value] of Object.entries(expected)) {
          // MariaDB's avg of integers is a DECIMAL with 4 fraction digits (div_precision_increment).
          if (typeof value === 'number' && !Number.isInteger(value)) expect(res.body[key]).to.be.closeTo(value, 1e-4);
          else expect(res.body[key], key).to.deep.equal(value);
        }
      });
    }

    // `q={}` asks for no functions explicitly (the specification's empty object); no q at all asks nothing.
    it('q={} without functions: the empty object', async () => {
      expect((await getOk(t(), `/api/eval/person?${q({})}`)).body).to.deep.equal({});
    });

    it('q with filters and no functions: the empty object', async () => {
      expect(
        (await getOk(t(), `/api/eval/person?${q({ filters: [{ name: 'age', op: '>', val: 1 }] })}`)).body,
      ).to.deep.equal({});
    });

    for (const [name, query] of [
      ['without q', ''],
      ['with an empty q', '?q='],
      ['with a q of blanks', '?q=%20%20'],
      ['with an empty q beside other parameters', '?callback_=x&q=&page=1'],
    ]) {
      it(`refuses a request ${name} (400 naming q)`, async () => {
        expectMessage(await t().http.get(`/api/eval/person${query}`), 400, /^query parameter q is required/);
      });
    }

    const REFUSED: [string, string, string, number, RegExp][] = [
      [
        'a function outside the whitelist',
        'person',
        q({ functions: [{ name: 'pg_sleep', field: 'age' }] }),
        400,
        /not one of/,
      ],
      [
        'a field that does not exist',
        'person',
        q({ functions: [{ name: 'sum', field: 'height' }] }),
        400,
        /"height" is not a field of person/,
      ],
      [
        'a numeric function on text',
        'person',
        q({ functions: [{ name: 'avg', field: 'name' }] }),
        400,
        /does not apply/,
      ],
      [
        'functions that is not a list',
        'person',
        q({ functions: { name: 'sum', field: 'age' } }),
        400,
        /must be a list/,
      ],
      [
        'a poorly formed filter',
        'person',
        q({ functions: [], filters: [{ name: 'age', op: '==' }] }),
        400,
        /needs a val/,
      ],
      [
        'a search member evaluation does not take',
        'person',
        q({ functions: [], limit: 2 }),
        400,
        /unknown member "limit"/,
      ],
      ['q that is not JSON', 'person', 'q=%5B', 400, /q/],
      [
        'a collection without allow_functions',
        'comment',
        q({ functions: [{ name: 'count', field: 'id' }] }),
        404,
        /evaluation is off for the collection "comment"/,
      ],
      ['an unknown collection', 'nothing', q({ functions: [{ name: 'count', field: 'id' }] }), 404, /no collection/],
    ];
    for (const [name, collection, query, status, message] of REFUSED) {
      it(`refuses ${name} (${status})`, async () =>
        expectMessage(await t().http.get(`/api/eval/${collection}?${query}`), status, message));
    }

    it('answers 405 to anything but GET', async () => {
      const res = await t().http.post('/api/eval/person', {});
      expectMessage(res, 405);
      expect(res.headers.get('allow')).to.equal('GET');
    });
  },
  { format: 'legacy' },
);
