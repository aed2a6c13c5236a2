import { describeEachDatabase, filterParam, type TestResponse } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectError, expectStatus } from './helpers.js';

/*
 * person.age: 25, 17, null, 40, 18 · person.other: 1.5, null, 3.25, -2, 0 · task.duration: 3600, 90, null (seconds).
 */
type Call = [name: string, field: string];
const functions = (calls: Call[]) =>
  `functions=${encodeURIComponent(JSON.stringify(calls.map(([name, field]) => ({ name, field }))))}`;

describeEachDatabase('Format A: function evaluation (GET /api/eval/<collection>)', (t) => {
  const evaluate = async (collection: string, calls: Call[], extra = '') => {
    const res = expectStatus(await t().http.get(`/api/eval/${collection}?${functions(calls)}${extra}`), 200);
    expect(res.headers.get('content-type')).to.match(/^application\/vnd\.api\+json/);
    expect(Object.keys(res.body), 'the single member data').to.deep.equal(['data']);
    return res.body.data as unknown[];
  };

  const CASES: [string, string, Call[], unknown[]][] = [
    [
      'avg, sum, count, min, max of an integer',
      'person',
      [
        ['avg', 'age'],
        ['sum', 'age'],
        ['count', 'age'],
        ['min', 'age'],
        ['max', 'age'],
      ],
      [25, 100, 4, 17, 40],
    ],
    [
      'the same in another order',
      'person',
      [
        ['max', 'age'],
        ['count', 'age'],
        ['min', 'age'],
        ['sum', 'age'],
        ['avg', 'age'],
      ],
      [40, 4, 17, 100, 25],
    ],
    ['count of id counts every row', 'person', [['count', 'id']], [5]],
    [
      'a double',
      'person',
      [
        ['avg', 'other'],
        ['sum', 'other'],
        ['min', 'other'],
        ['max', 'other'],
      ],
      [0.6875, 2.75, -2, 3.25],
    ],
    ['an average that is not whole', 'article', [['avg', 'id']], [3]],
    [
      'an interval in seconds',
      'task',
      [
        ['sum', 'duration'],
        ['avg', 'duration'],
        ['min', 'duration'],
        ['max', 'duration'],
        ['count', 'duration'],
      ],
      [3690, 1845, 90, 3600, 2],
    ],
    [
      'min and max of dates and timestamps',
      'person',
      [
        ['min', 'birthday'],
        ['max', 'birth_datetime'],
        ['max', 'bedtime'],
      ],
      ['1984-12-31', '2007-06-01T12:00:00.25', '23:15:30.5'],
    ],
    [
      'min and max of text, by code point',
      'person',
      [
        ['min', 'name'],
        ['max', 'name'],
      ],
      ['Alice', 'dave'],
    ],
    [
      'function names in capitals',
      'person',
      [
        ['AVG', 'age'],
        ['Count', 'id'],
      ],
      [25, 5],
    ],
    [
      'the same function twice',
      'person',
      [
        ['sum', 'age'],
        ['sum', 'age'],
      ],
      [100, 100],
    ],
  ];
  for (const [name, collection, calls, expected] of CASES) {
    it(`${name}: {data: ${JSON.stringify(expected)}}`, async () => {
      const values = await evaluate(collection, calls);
      expect(values).to.deep.equal(expected);
      for (const [i, v] of values.entries()) expect(typeof v, `result ${i}`).to.equal(typeof expected[i]);
    });
  }

  it('applies filter[objects] first', async () => {
    const adults = filterParam([{ name: 'age', op: '>', val: 17 }]);
    expect(
      await evaluate(
        'person',
        [
          ['avg', 'age'],
          ['count', 'id'],
          ['min', 'age'],
        ],
        `&${adults}`,
      ),
    ).to.deep.equal([83 / 3, 3, 18]);
    const withArticles = filterParam([{ name: 'articles', op: 'any' }]);
    expect(
      await evaluate(
        'person',
        [
          ['count', 'id'],
          ['sum', 'age'],
        ],
        `&${withArticles}`,
      ),
    ).to.deep.equal([3, 82]);
  });

  it('answers 0 for count and null for the others when nothing matches', async () => {
    const none = filterParam([{ name: 'age', op: '>', val: 100 }]);
    expect(
      await evaluate(
        'person',
        [
          ['count', 'id'],
          ['avg', 'age'],
          ['sum', 'age'],
          ['min', 'name'],
        ],
        `&${none}`,
      ),
    ).to.deep.equal([0, null, null, null]);
  });

  it('answers {data: []} for an explicit empty list of functions', async () => {
    expect(await evaluate('person', [])).to.deep.equal([]);
    const res = expectStatus(await t().http.get('/api/eval/person?functions=[]'), 200);
    expect(res.body).to.deep.equal({ data: [] });
  });

  it('refuses an evaluation without functions: 400 naming the parameter', async () => {
    const error = expectError(await t().http.get('/api/eval/person'), 400, { parameter: 'functions' });
    expect(error.detail).to.contain('required');
    expectError(await t().http.get(`/api/eval/person?${filterParam([{ name: 'age', op: '>', val: 17 }])}`), 400, {
      parameter: 'functions',
    });
  });

  describe('refusals', () => {
    const REFUSED: [string, string, number, string?][] = [
      ['an unknown function', `/api/eval/person?${functions([['pg_sleep', 'age']])}`, 400, 'functions'],
      [
        'SQL in a function name',
        `/api/eval/person?${functions([['avg; drop table person; --', 'age']])}`,
        400,
        'functions',
      ],
      ['a function with parentheses', `/api/eval/person?${functions([['avg(age)', 'age']])}`, 400, 'functions'],
      ['avg of a text field', `/api/eval/person?${functions([['avg', 'name']])}`, 400, 'functions'],
      ['sum of a date', `/api/eval/person?${functions([['sum', 'birthday']])}`, 400, 'functions'],
      ['an unknown field', `/api/eval/person?${functions([['max', 'height']])}`, 400, 'functions'],
      ['a computed attribute', `/api/eval/person?${functions([['count', 'is_minor']])}`, 400, 'functions'],
      ['a relationship', `/api/eval/person?${functions([['count', 'articles']])}`, 400, 'functions'],
      ['functions that are not JSON', '/api/eval/person?functions=avg(age)', 400, 'functions'],
      ['an empty functions value, which is not JSON', '/api/eval/person?functions=', 400, 'functions'],
      [
        'functions that are not a list',
        `/api/eval/person?functions=${encodeURIComponent('{"name":"avg","field":"age"}')}`,
        400,
        'functions',
      ],
      [
        'a function object without field',
        `/api/eval/person?functions=${encodeURIComponent('[{"name":"count"}]')}`,
        400,
        'functions',
      ],
      [
        'a bad filter',
        `/api/eval/person?${functions([['count', 'id']])}&${filterParam([{ name: 'age', op: 'near', val: 1 }])}`,
        400,
        'filter[objects]',
      ],
      [
        'functions given twice',
        `/api/eval/person?${functions([['count', 'id']])}&${functions([['sum', 'age']])}`,
        400,
        'functions',
      ],
      ['a parameter that does not apply', `/api/eval/person?${functions([['count', 'id']])}&sort=age`, 400, 'sort'],
      ['a collection without allow_functions (comment)', `/api/eval/comment?${functions([['count', 'id']])}`, 404],
      [
        'a collection without allow_functions (person_names)',
        `/api/eval/person_names?${functions([['count', 'id']])}`,
        404,
      ],
      ['an unknown collection', `/api/eval/nothing?${functions([['count', 'id']])}`, 404],
    ];
    for (const [name, path, status, parameter] of REFUSED) {
      it(`${name}: ${status}`, async () => {
        expectError(await t().http.get(path), status, parameter ? { parameter } : undefined);
      });
    }

    it('says that evaluation is off, not that the collection is missing, for a collection without it', async () => {
      const off = await t().http.get(`/api/eval/comment?${functions([['count', 'id']])}`);
      expectError(off, 404);
      expect(JSON.stringify(off.body)).to.include('evaluation is off for the collection \\"comment\\"');
      const missing = await t().http.get(`/api/eval/nothing?${functions([['count', 'id']])}`);
      expectError(missing, 404);
      expect(JSON.stringify(missing.body)).to.include('there is no collection named \\"nothing\\"');
    });

    it('a method other than GET: 405 with Allow', async () => {
      const res = await t().http.post(`/api/eval/person?${functions([['count', 'id']])}`, { data: [] });
      expectError(res, 405);
      expect(res.headers.get('allow')).to.equal('GET');
    });
  });

  describe('other media types', () => {
    const jsonOnly = { headers: { accept: 'application/json' } };

    it('answers Accept: application/json with application/json', async () => {
      const res = expectStatus(await t().http.get(`/api/eval/person?${functions([['sum', 'age']])}`, jsonOnly), 200);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(res.body).to.deep.equal({ data: [100] });
    });

    it('answers errors to Accept: application/json in application/json too', async () => {
      const res = await t().http.get(`/api/eval/person?${functions([['median', 'age']])}`, jsonOnly);
      expect(res.status).to.equal(400);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(res.body.errors[0].source).to.deep.equal({ parameter: 'functions' });
    });

    const unwrap = (res: TestResponse, callback: string) => {
      expect(res.headers.get('content-type')).to.match(/^application\/javascript/);
      const m = new RegExp(`^/\\*\\*/${callback.replace('.', '\\.')}\\(([\\s\\S]*)\\);$`).exec(res.text);
      expect(m, res.text).to.not.equal(null);
      return JSON.parse(m![1]!);
    };

    it('wraps the answer for JSONP', async () => {
      const res = expectStatus(
        await t().http.get(
          `/api/eval/person?${functions([
            ['count', 'id'],
            ['max', 'age'],
          ])}&callback=app.show`,
        ),
        200,
      );
      // The answer itself, its status added as meta.status.
      expect(unwrap(res, 'app.show')).to.deep.equal({ data: [5, 40], meta: { status: 200 } });
    });

    it('wraps an error for JSONP, with its status in meta', async () => {
      const payload = unwrap(
        await t().http.get(`/api/eval/person?${functions([['pg_sleep', 'age']])}&callback=show`),
        'show',
      );
      expect(payload.meta.status).to.equal(400);
      expect(payload.errors[0].status).to.equal('400');
      expect(payload.errors[0].source).to.deep.equal({ parameter: 'functions' });
    });

    it('refuses a callback that is not an identifier', async () => {
      expectError(
        await t().http.get(
          `/api/eval/person?${functions([['count', 'id']])}&callback=${encodeURIComponent('alert(1)//')}`,
        ),
        400,
        { parameter: 'callback' },
      );
    });
  });
});
