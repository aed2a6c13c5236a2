import { expect } from 'chai';
import type { Operation } from '@colapi/query-ast';
import { legacyFormat } from '../src/index.js';
import { collection, ctx, expectError, request } from './fixtures.js';

const format = legacyFormat();
const person = collection('person');

const evaluate = (query: string): Operation => format.decode(request('GET', `/api/eval/person${query}`), person, ctx);
const q = (search: unknown) => `?q=${encodeURIComponent(JSON.stringify(search))}`;

describe('Format B decode: function evaluation', () => {
  it('reads the functions of q in request order, names in lower case', () => {
    expect(
      evaluate(
        q({
          functions: [
            { name: 'count', field: 'id' },
            { name: 'AVG', field: 'age' },
          ],
        }),
      ),
    ).to.deep.equal({
      kind: 'evaluate',
      collection: person,
      functions: [
        { name: 'count', column: 'id' },
        { name: 'avg', column: 'age' },
      ],
    });
  });

  it('reads q={} and an empty list as asking for nothing', () => {
    expect(evaluate(q({}))).to.deep.equal({ kind: 'evaluate', collection: person, functions: [] });
    expect(evaluate(q({ functions: [] }))).to.deep.equal({ kind: 'evaluate', collection: person, functions: [] });
  });

  it('takes filters and disjunction along', () => {
    const search = {
      functions: [{ name: 'sum', field: 'age' }],
      filters: [
        { name: 'age', op: 'lt', val: 18 },
        { name: 'name', op: 'eq', val: 'Ann' },
      ],
      disjunction: true,
    };
    expect(evaluate(q(search))).to.deep.equal({
      kind: 'evaluate',
      collection: person,
      functions: [{ name: 'sum', column: 'age' }],
      filter: {
        kind: 'or',
        filters: [
          { kind: 'compare', field: { relations: [], column: 'age' }, op: 'lt', value: 18 },
          { kind: 'compare', field: { relations: [], column: 'name' }, op: 'eq', value: 'Ann' },
        ],
      },
    });
  });

  describe('refuses with 400 naming q', () => {
    const REQUIRED =
      'query parameter q is required: a JSON object such as {"functions": [{"name": "count", "field": "id"}]}';
    const CASES: [string, string][] = [
      ['', REQUIRED],
      ['?q=', REQUIRED],
      ['?q=%20%20', REQUIRED],
      ['?q={', 'q is not valid JSON'],
      ['?q=[]', 'q must be a JSON object'],
      ['?q=null', 'q must be a JSON object'],
      [q({ functions: {} }), 'q.functions must be a list of {name, field} objects'],
      [
        q({ functions: [{ name: 'median', field: 'age' }] }),
        'q.functions[0].name: "median" is not one of avg, sum, count, min, max',
      ],
      [
        q({ functions: [{ name: 'sum', field: 'name' }] }),
        'q.functions[0]: sum does not apply to the string field "name"',
      ],
      [
        q({ functions: [{ name: 'max', field: 'initial' }] }),
        'q.functions[0].field: "initial" is not a field of person',
      ],
      [q({ functions: [], limit: 1 }), 'q: unknown member "limit" (expected functions, filters, disjunction)'],
      [q({ functions: [], order_by: [] }), 'q: unknown member "order_by" (expected functions, filters, disjunction)'],
      [q({ filters: [{ name: 'age', op: 'eq' }] }), 'q.filters[0]: "eq" on "age" needs a val or a field'],
    ];
    for (const [query, detail] of CASES) {
      it(decodeURIComponent(query) || '(no q)', () => {
        expectError(() => evaluate(query), { status: 400, title: 'Bad Request', detail, source: { parameter: 'q' } });
      });
    }
  });
});
