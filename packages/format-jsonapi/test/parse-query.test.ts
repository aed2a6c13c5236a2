import { defineModel, Registry, type ColumnSchema } from '@colapi/schema';
import { expect } from 'chai';
import { ApiError, DEFAULT_LIMITS, type ReadQuery } from '@colapi/query-ast';
import type { DecodeContext } from '@colapi/wire-format';
import { parseJsonApiQuery, type QueryShape } from '../src/index.js';

const col = (name: string, type: ColumnSchema['type'] = 'string'): ColumnSchema => ({
  name,
  type,
  nullable: name !== 'id',
});

const personModel = defineModel({
  name: 'Person',
  table: 'person',
  columns: [col('id', 'integer'), col('name'), col('age', 'integer')],
  relationships: [
    {
      name: 'articles',
      cardinality: 'many',
      target: 'Article',
      join: { kind: 'has', ownColumn: 'id', targetColumn: 'author_id' },
    },
  ],
  virtualAttributes: [{ name: 'is_minor', compute: () => false }],
});

const registry = new Registry([
  { model: personModel, options: { additional_attributes: ['is_minor'] } },
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
  { model: personModel, options: { name: 'person_names', only: ['name'] } },
]);

const person = registry.collection('person')!;
const article = registry.collection('article')!;
const ctx: DecodeContext = { registry, limits: DEFAULT_LIMITS, unsupportedOperator: () => undefined };
const parse = (query: string, collection = person, shape: QueryShape = 'list'): ReadQuery =>
  parseJsonApiQuery(new URLSearchParams(query), collection, ctx, shape);
const field = (column: string, relations: string[] = []) => ({ relations, column });

describe('parseJsonApiQuery', () => {
  it('reads an empty query as a query of parameters it ignores (the empty one is answered without lookups)', () => {
    for (const shape of ['list', 'single'] as const) {
      expect(parse('', person, shape)).to.deep.equal(parse('x-ignored=1', person, shape));
    }
  });

  describe('accepts', () => {
    const CASES: { name: string; query: string; collection?: typeof person; expect: Partial<ReadQuery> }[] = [
      {
        name: 'no parameters',
        query: '',
        expect: {
          sort: [],
          group: [],
          paging: { offset: 0, limit: 10, number: 1, size: 10 },
          fields: {},
          include: [],
          single: false,
        },
      },
      {
        name: 'several sort keys',
        query: 'sort=-age,name',
        expect: {
          sort: [
            { field: field('age'), descending: true },
            { field: field('name'), descending: false },
          ],
        },
      },
      {
        name: 'a dotted sort key',
        query: 'sort=-author.name',
        collection: article,
        expect: { sort: [{ field: field('name', ['author']), descending: true }] },
      },
      { name: 'the id as sort key', query: 'sort=id', expect: { sort: [{ field: field('id'), descending: false }] } },
      { name: 'group', query: 'group=age', expect: { group: [field('age')] } },
      {
        name: 'group by a relation field',
        query: 'group=author.name,title',
        collection: article,
        expect: { group: [field('name', ['author']), field('title')] },
      },
      {
        name: 'a page',
        query: 'page[number]=3&page[size]=5',
        expect: { paging: { offset: 10, limit: 5, number: 3, size: 5 } },
      },
      {
        name: 'the largest page',
        query: 'page[size]=100',
        expect: { paging: { offset: 0, limit: 100, number: 1, size: 100 } },
      },
      {
        name: 'a sparse fieldset',
        query: 'fields[person]=name,articles',
        expect: { fields: { person: ['name', 'articles'] } },
      },
      {
        name: 'id and type in a fieldset',
        query: 'fields[person]=id,type,is_minor',
        expect: { fields: { person: ['is_minor'] } },
      },
      { name: 'an empty fieldset', query: 'fields[person]=', expect: { fields: { person: [] } } },
      {
        name: 'fieldsets of other types',
        query: 'fields[article]=title&fields[person_names]=name',
        expect: { fields: { article: ['title'], person_names: ['name'] } },
      },
      { name: 'only', query: 'only=name,age', expect: { fields: { person: ['name', 'age'] } } },
      {
        name: 'include paths',
        query: 'include=articles.author,articles',
        expect: { include: [['articles', 'author'], ['articles']] },
      },
      {
        name: 'an include of 3 steps',
        query: 'include=articles.author.articles',
        expect: { include: [['articles', 'author', 'articles']] },
      },
      { name: 'filter[single]=1', query: 'filter[single]=1', expect: { single: true } },
      { name: 'filter[single]=0', query: 'filter[single]=0', expect: { single: false } },
      {
        name: 'a filter',
        query: 'filter[objects]=[{"name":"age","op":"gte","val":"18"}]',
        expect: { filter: { kind: 'compare', field: field('age'), op: 'ge', value: 18 } },
      },
      { name: 'an empty filter list', query: 'filter[objects]=[]', expect: { sort: [] } },
      { name: 'callback, left to the server', query: 'callback=x', expect: { sort: [] } },
      { name: 'implementation-specific parameters', query: 'myParam=1&x_y=2&Z=3', expect: { sort: [] } },
    ];
    for (const c of CASES) {
      it(c.name, () => {
        const parsed = parse(c.query, c.collection ?? person);
        for (const [key, value] of Object.entries(c.expect))
          expect(parsed[key as keyof ReadQuery], key).to.deep.equal(value);
        if (!('filter' in c.expect)) expect(parsed.filter).to.equal(undefined);
      });
    }

    it('takes only fields, include and callback on a single resource', () => {
      const parsed = parse('fields[person]=name&include=articles&callback=cb', person, 'single');
      expect(parsed.fields).to.deep.equal({ person: ['name'] });
      expect(parsed.include).to.deep.equal([['articles']]);
      expect(parsed.paging).to.deep.equal({ offset: 0 });
    });
  });

  describe('refuses with 400 naming the parameter', () => {
    const CASES: [string, string, string?, QueryShape?][] = [
      ['foo=1', 'foo'],
      ['filter=1', 'filter'],
      ['fields=name', 'fields'],
      ['filter[nope]=1', 'filter[nope]'],
      ['page[offset]=1', 'page[offset]'],
      ['sort=age&sort=name', 'sort'],
      ['only=name&only=age', 'only'],
      ['sort=nope', 'sort'],
      ['sort=articles.title', 'sort'],
      ['sort=articles', 'sort'],
      ['sort=is_minor', 'sort'],
      ['sort=-', 'sort'],
      ['sort=age,', 'sort'],
      ['sort=author.nope', 'sort', 'article'],
      ['sort=author.articles.title', 'sort', 'article'],
      ['group=', 'group'],
      ['group=nope', 'group'],
      ['group=articles.title', 'group'],
      ['page[size]=0', 'page[size]'],
      ['page[size]=101', 'page[size]'],
      ['page[size]=ten', 'page[size]'],
      ['page[size]=+5', 'page[size]'],
      ['page[number]=0', 'page[number]'],
      ['page[number]=1.0', 'page[number]'],
      ['page[number]=9999999999', 'page[number]'],
      ['fields[nope]=name', 'fields[nope]'],
      ['fields[person]=nope', 'fields[person]'],
      ['fields[person]=articles.title', 'fields[person]'],
      ['fields[article]=author_id', 'fields[article]'],
      ['fields[person_names]=age', 'fields[person_names]'],
      ['only=nope', 'only'],
      ['only=name&fields[person]=age', 'only'],
      ['include=nope', 'include'],
      ['include=name', 'include'],
      ['include=articles.nope', 'include'],
      ['include=articles.author.articles.author', 'include'],
      ['include=articles,', 'include'],
      ['filter[objects]=[{', 'filter[objects]'],
      ['filter[objects]={}', 'filter[objects]'],
      ['filter[objects]=[{"name":"nope","op":"==","val":1}]', 'filter[objects]'],
      ['filter[single]=2', 'filter[single]'],
      ['filter[single]=yes', 'filter[single]'],
      ['sort=age', 'sort', 'person', 'single'],
      ['group=age', 'group', 'person', 'single'],
      ['page[size]=5', 'page[size]', 'person', 'single'],
      ['filter[objects]=[]', 'filter[objects]', 'person', 'single'],
      ['filter[single]=1', 'filter[single]', 'person', 'single'],
    ];
    for (const [query, parameter, collection = 'person', shape = 'list'] of CASES) {
      it(`${query}${shape === 'single' ? ' on a single resource' : ''}`, () => {
        let error: unknown;
        try {
          parse(query, registry.collection(collection)!, shape);
        } catch (e) {
          error = e;
        }
        expect(error, 'no error').to.be.instanceOf(ApiError);
        const e = error as ApiError;
        expect(e.status).to.equal(400);
        expect(e.title).to.equal('Bad Request');
        expect(e.source).to.deep.equal({ parameter });
        expect(e.detail).to.be.a('string').and.not.equal('');
      });
    }
  });
});
