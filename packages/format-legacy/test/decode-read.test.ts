import { expect } from 'chai';
import { ALL_OPERATOR_SPELLINGS, type Operation } from '@colapi/query-ast';
import { legacyFormat } from '../src/index.js';
import { collection, ctx, expectError, request } from './fixtures.js';

const format = legacyFormat();
const person = collection('person');
const article = collection('article');

function decode(target: string, method = 'GET', f = format): Operation {
  const req = request(method, target);
  return f.decode(req, collection(req.route.collection), ctx);
}
const q = (search: unknown) => `q=${encodeURIComponent(JSON.stringify(search))}`;
const field = (column: string, relations: string[] = []) => ({ relations, column });

/** What a Format B object shows besides its fields: every relationship, one level deep, without linkage. */
const PERSON_VIEW = { fields: { article: [] }, include: [['articles']] };
const ARTICLE_VIEW = { fields: { person: [], comment: [], tag: [] }, include: [['author'], ['comments'], ['tags']] };
const OBJECT_QUERY = { sort: [], group: [], paging: { offset: 0 }, single: false };

describe('Format B decode: reads', () => {
  describe('a collection', () => {
    it('is a list of the first page of 10, with every relationship nested', () => {
      expect(decode('/api/person')).to.deep.equal({
        kind: 'list',
        collection: person,
        query: {
          sort: [],
          group: [],
          paging: { offset: 0, limit: 10, number: 1, size: 10 },
          single: false,
          ...PERSON_VIEW,
        },
      });
    });

    it('reads the search q: filters, order_by, group_by, single', () => {
      const search = {
        filters: [
          { name: 'age', op: '>=', val: 18 },
          { name: 'name', op: 'ilike', val: 'a%' },
          { name: 'born', op: 'is_not_null' },
        ],
        order_by: [{ field: 'name', direction: 'desc' }, { field: 'age' }],
        group_by: [{ field: 'age' }],
        single: true,
      };
      expect(decode(`/api/person?${q(search)}`)).to.deep.equal({
        kind: 'list',
        collection: person,
        query: {
          filter: {
            kind: 'and',
            filters: [
              { kind: 'compare', field: field('age'), op: 'ge', value: 18 },
              { kind: 'compare', field: field('name'), op: 'ilike', value: 'a%' },
              { kind: 'null-check', field: field('born'), op: 'is_not_null' },
            ],
          },
          sort: [
            { field: field('name'), descending: true },
            { field: field('age'), descending: false },
          ],
          group: [field('age')],
          paging: { offset: 0, limit: 10, number: 1, size: 10 },
          single: true,
          ...PERSON_VIEW,
        },
      });
    });

    it('joins the filters with or when disjunction is true', () => {
      const op = decode(
        `/api/person?${q({
          filters: [
            { name: 'age', op: 'lt', val: 18 },
            { name: 'age', op: 'gt', val: 65 },
          ],
          disjunction: true,
        })}`,
      );
      expect(op.kind === 'list' && op.query.filter).to.deep.equal({
        kind: 'or',
        filters: [
          { kind: 'compare', field: field('age'), op: 'lt', value: 18 },
          { kind: 'compare', field: field('age'), op: 'gt', value: 65 },
        ],
      });
    });

    it('reaches fields of related models as <relation>__<field>', () => {
      const search = {
        filters: [{ name: 'author__name', op: 'eq', val: 'Ann' }],
        order_by: [{ field: 'author__age', direction: 'asc' }],
      };
      const op = decode(`/api/article?${q(search)}`);
      if (op.kind !== 'list') expect.fail(op.kind);
      expect(op.query.filter).to.deep.equal({
        kind: 'relation',
        relation: 'author',
        op: 'has',
        filter: { kind: 'compare', field: field('name'), op: 'eq', value: 'Ann' },
      });
      expect(op.query.sort).to.deep.equal([{ field: field('age', ['author']), descending: false }]);
      expect(op.query).to.deep.include(ARTICLE_VIEW);
    });

    it('takes has and any with a nested filter, and any with the value of a related field', () => {
      const search = {
        filters: [
          { name: 'author', op: 'has', val: { name: 'age', op: 'gt', val: 30 } },
          { name: 'comments__body', op: 'any', val: 'great' },
        ],
      };
      const op = decode(`/api/article?${q(search)}`);
      expect(op.kind === 'list' && op.query.filter).to.deep.equal({
        kind: 'and',
        filters: [
          {
            kind: 'relation',
            relation: 'author',
            op: 'has',
            filter: { kind: 'compare', field: field('age'), op: 'gt', value: 30 },
          },
          {
            kind: 'relation',
            relation: 'comments',
            op: 'any',
            filter: { kind: 'compare', field: field('body'), op: 'eq', value: 'great' },
          },
        ],
      });
    });

    it('pages with page and results_per_page inside the window of limit and offset', () => {
      const op = decode(`/api/person?${q({ limit: 7, offset: 2 })}&page=2&results_per_page=5`);
      if (op.kind !== 'list') expect.fail(op.kind);
      expect(op.query.paging).to.deep.equal({
        offset: 7,
        limit: 2,
        number: 2,
        size: 5,
        window: { offset: 2, limit: 7 },
      });
    });

    it('lowers a page size above the maximum to it rather than refusing it', () => {
      const op = decode('/api/person?results_per_page=500');
      expect(op.kind === 'list' && op.query.paging).to.deep.equal({ offset: 0, limit: 100, number: 1, size: 100 });
    });

    it('reads a HEAD as a GET', () => {
      expect(decode(`/api/person?${q({ limit: 1 })}`, 'HEAD')).to.deep.equal(decode(`/api/person?${q({ limit: 1 })}`));
    });

    describe('refuses with 400 naming q or the page parameter', () => {
      const CASES: [string, string, string][] = [
        ['q={', 'q', 'q is not valid JSON'],
        ['q=[]', 'q', 'q must be a JSON object'],
        [q({ filters: [{ name: 'age', op: '==' }] }), 'q', 'q.filters[0]: "==" on "age" needs a val or a field'],
        [
          q({ filters: [{ name: 'nope', op: '==', val: 1 }] }),
          'q',
          'q.filters[0].name: "nope" is not a field of person',
        ],
        [
          q({ filters: [{ name: 'age', op: 'eq', val: 'old' }] }),
          'q',
          'q.filters[0].val: "old" is not an integer (field "age")',
        ],
        [
          q({ filters: [{ name: 'name', op: 'not_like', val: 'a%' }] }),
          'q',
          'q.filters[0].op: unknown operator "not_like" on "name"',
        ],
        [q({ filters: { name: 'age', op: 'eq', val: 1 } }), 'q', 'q.filters: must be a list of filter objects'],
        [
          q({ filter: [] }),
          'q',
          'q: unknown member "filter" (expected filters, disjunction, limit, offset, order_by, group_by, single)',
        ],
        [q({ limit: 0 }), 'q', 'q.limit must be an integer of at least 1'],
        [q({ offset: -1 }), 'q', 'q.offset must be an integer of at least 0'],
        [q({ single: 'yes' }), 'q', 'q.single must be true or false'],
        [q({ order_by: [{ field: 'age', direction: 'up' }] }), 'q', 'q.order_by[0].direction must be "asc" or "desc"'],
        [
          q({ order_by: [{ field: 'articles__title' }] }),
          'q',
          'q.order_by[0].field: "articles__title": "articles" is a to-many relationship; only to-one paths are allowed here',
        ],
        [`${q({})}&${q({})}`, 'q', 'query parameter q is given more than once'],
        ['page=0', 'page', 'page must be a positive integer'],
        ['results_per_page=ten', 'results_per_page', 'results_per_page must be a positive integer'],
      ];
      for (const [query, parameter, detail] of CASES) {
        it(decodeURIComponent(query), () => {
          expectError(() => decode(`/api/person?${query}`), {
            status: 400,
            title: 'Bad Request',
            detail,
            source: { parameter },
          });
        });
      }
    });

    it('takes other operator spellings when the format is given them', () => {
      const op = decode(
        `/api/person?${q({ filters: [{ name: 'name', op: 'not_like', val: 'a%' }] })}`,
        'GET',
        legacyFormat({ operators: ALL_OPERATOR_SPELLINGS }),
      );
      expect(op.kind === 'list' && op.query.filter).to.deep.equal({
        kind: 'compare',
        field: field('name'),
        op: 'not_like',
        value: 'a%',
      });
    });
  });

  describe('one object', () => {
    it('is a fetch with every relationship nested, whatever the query string holds', () => {
      const expected = { kind: 'fetch', collection: person, id: '7', query: { ...OBJECT_QUERY, ...PERSON_VIEW } };
      expect(decode('/api/person/7')).to.deep.equal(expected);
      expect(decode(`/api/person/7?${q({ limit: 1 })}&page=3`)).to.deep.equal(expected);
    });
  });

  describe('related instances', () => {
    it('are a list object for a to-many relationship, searched with q', () => {
      const op = decode(`/api/person/7/articles?${q({ filters: [{ name: 'title', op: 'like', val: 'A%' }] })}`);
      expect(op).to.deep.equal({
        kind: 'list',
        collection: article,
        scope: { owner: person, ownerId: '7', relation: 'articles' },
        query: {
          filter: { kind: 'compare', field: field('title'), op: 'like', value: 'A%' },
          sort: [],
          group: [],
          paging: { offset: 0, limit: 10, number: 1, size: 10 },
          single: false,
          ...ARTICLE_VIEW,
        },
      });
    });

    it('are a list object for a to-one relationship too', () => {
      const op = decode('/api/article/3/author');
      expect(op).to.deep.include({
        kind: 'list',
        collection: person,
        scope: { owner: article, ownerId: '3', relation: 'author' },
      });
    });

    it('resolve q against the related collection', () => {
      expectError(() => decode(`/api/person/7/articles?${q({ filters: [{ name: 'age', op: 'eq', val: 1 }] })}`), {
        status: 400,
        detail: 'q.filters[0].name: "age" is not a field of article',
        source: { parameter: 'q' },
      });
    });

    it('are one object by its id, through a to-one relationship too', () => {
      expect(decode('/api/person/7/articles/9')).to.deep.equal({
        kind: 'fetch',
        collection: article,
        id: '9',
        scope: { owner: person, ownerId: '7', relation: 'articles' },
        query: { ...OBJECT_QUERY, ...ARTICLE_VIEW },
      });
      expect(decode('/api/article/3/author/7')).to.deep.equal({
        kind: 'fetch',
        collection: person,
        id: '7',
        scope: { owner: article, ownerId: '3', relation: 'author' },
        query: { ...OBJECT_QUERY, ...PERSON_VIEW },
      });
    });

    it('answer 404 for a relationship the collection does not have', () => {
      expectError(() => decode('/api/person/7/nope'), {
        status: 404,
        title: 'Not Found',
        detail: 'person has no relationship "nope"',
      });
      expectError(() => decode('/api/person_names/7/articles'), {
        status: 404,
        detail: 'person_names has no relationship "articles"',
      });
    });

    it('have no JSON:API relationship paths: relationships is read as a relation name', () => {
      expectError(() => decode('/api/person/7/relationships/articles'), {
        status: 404,
        detail: 'person has no relationship "relationships"',
      });
    });
  });
});
