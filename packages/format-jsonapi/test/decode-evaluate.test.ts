import { expect } from 'chai';
import type { Operation } from '@colapi/query-ast';
import { jsonApiFormat } from '../src/index.js';
import { collection, ctx, expectError, request } from './fixtures.js';

const format = jsonApiFormat();
const person = collection('person');

const evaluate = (query: string): Operation => format.decode(request('GET', `/api/eval/person?${query}`), person, ctx);
const functions = (list: unknown) => `functions=${encodeURIComponent(JSON.stringify(list))}`;

describe('Format A decode: function evaluation', () => {
  it('reads the functions in request order, names in lower case', () => {
    expect(
      evaluate(
        functions([
          { name: 'avg', field: 'age' },
          { name: 'COUNT', field: 'id' },
          { name: 'max', field: 'born' },
        ]),
      ),
    ).to.deep.equal({
      kind: 'evaluate',
      collection: person,
      functions: [
        { name: 'avg', column: 'age' },
        { name: 'count', column: 'id' },
        { name: 'max', column: 'born' },
      ],
    });
  });

  it('reads functions=[] as asking for nothing', () => {
    expect(evaluate('functions=[]')).to.deep.equal({ kind: 'evaluate', collection: person, functions: [] });
  });

  it('takes filter[objects] and callback along', () => {
    const filter = encodeURIComponent(JSON.stringify([{ name: 'age', op: '>=', val: 18 }]));
    expect(
      evaluate(`${functions([{ name: 'sum', field: 'age' }])}&filter[objects]=${filter}&callback=cb`),
    ).to.deep.equal({
      kind: 'evaluate',
      collection: person,
      functions: [{ name: 'sum', column: 'age' }],
      filter: { kind: 'compare', field: { relations: [], column: 'age' }, op: 'ge', value: 18 },
    });
  });

  describe('refuses with 400 naming the parameter', () => {
    const CASES: [string, string, string][] = [
      [
        '',
        'functions',
        'query parameter functions is required: a JSON list of function objects {name, field}, [] for none',
      ],
      ['functions=[]&functions=[]', 'functions', 'query parameter functions is given more than once'],
      ['functions=[]&sort=age', 'sort', 'query parameter sort does not apply to function evaluation'],
      ['functions=[]&page[size]=1', 'page[size]', 'query parameter page[size] does not apply to function evaluation'],
      [
        'functions=[]&filter[single]=1',
        'filter[single]',
        'query parameter filter[single] does not apply to function evaluation',
      ],
      // Even names JSON:API leaves to implementations: evaluation takes nothing it would ignore.
      ['functions=[]&myParam=1', 'myParam', 'query parameter myParam does not apply to function evaluation'],
      ['functions=[', 'functions', 'functions is not valid JSON'],
      ['functions={}', 'functions', 'functions must be a list of {name, field} objects'],
      [functions(['avg']), 'functions', 'functions[0] must be an object {name, field}'],
      [
        functions([{ name: 'median', field: 'age' }]),
        'functions',
        'functions[0].name: "median" is not one of avg, sum, count, min, max',
      ],
      [
        functions([
          { name: 'count', field: 'id' },
          { name: 'avg', field: 'name' },
        ]),
        'functions',
        'functions[1]: avg does not apply to the string field "name"',
      ],
      [functions([{ name: 'sum', field: 'nope' }]), 'functions', 'functions[0].field: "nope" is not a field of person'],
      [functions([{ name: 'sum' }]), 'functions', 'functions[0].field must name a field'],
      [
        'functions=[]&filter[objects]=[{"name":"nope","op":"eq","val":1}]',
        'filter[objects]',
        'filter[objects][0].name: "nope" is not a field of person',
      ],
      [
        'functions=[]&filter[objects]=[]&filter[objects]=[]',
        'filter[objects]',
        'query parameter filter[objects] is given more than once',
      ],
    ];
    for (const [query, parameter, detail] of CASES) {
      it(query || '(no functions)', () => {
        expectError(() => evaluate(query), { status: 400, title: 'Bad Request', detail, source: { parameter } });
      });
    }
  });
});
