import { expect } from 'chai';
import type { Operation } from '@colapi/query-ast';
import { jsonApiFormat } from '../src/index.js';
import { collection, ctx, expectError, request } from './fixtures.js';

const format = jsonApiFormat();
const person = collection('person');
const article = collection('article');

function decode(target: string, method = 'GET'): Operation {
  const req = request(method, target);
  return format.decode(req, collection(req.route.collection), ctx);
}

const DEFAULT_PAGE = { offset: 0, limit: 10, number: 1, size: 10 };

describe('Format A decode: reads', () => {
  describe('a collection', () => {
    it('is a list with the default page of 10 and nothing else', () => {
      expect(decode('/api/person')).to.deep.equal({
        kind: 'list',
        collection: person,
        query: { sort: [], group: [], paging: DEFAULT_PAGE, fields: {}, include: [], single: false },
      });
    });

    it('carries filter, sort, group, page, fields and include', () => {
      const filter = encodeURIComponent(
        JSON.stringify([
          { name: 'age', op: 'gt', val: '17' },
          { name: 'name', op: 'like', val: 'A%' },
        ]),
      );
      const op = decode(
        `/api/person?filter[objects]=${filter}&sort=-age,name&group=age&page[number]=3&page[size]=5&fields[person]=name&include=articles`,
      );
      expect(op).to.deep.equal({
        kind: 'list',
        collection: person,
        query: {
          filter: {
            kind: 'and',
            filters: [
              { kind: 'compare', field: { relations: [], column: 'age' }, op: 'gt', value: 17 },
              { kind: 'compare', field: { relations: [], column: 'name' }, op: 'like', value: 'A%' },
            ],
          },
          sort: [
            { field: { relations: [], column: 'age' }, descending: true },
            { field: { relations: [], column: 'name' }, descending: false },
          ],
          group: [{ relations: [], column: 'age' }],
          paging: { offset: 10, limit: 5, number: 3, size: 5 },
          fields: { person: ['name'] },
          include: [['articles']],
          single: false,
        },
      });
    });

    it('reads filter[single]=1 as a single search', () => {
      const op = decode('/api/person?filter[single]=1');
      expect(op.kind).to.equal('list');
      expect(op.kind === 'list' && op.query.single).to.equal(true);
    });

    it('reads a HEAD as a GET', () => {
      expect(decode('/api/person?sort=age', 'HEAD')).to.deep.equal(decode('/api/person?sort=age'));
    });

    it('refuses a bad query parameter with 400 naming it', () => {
      expectError(() => decode('/api/person?sort=nope'), {
        status: 400,
        title: 'Bad Request',
        detail: '"nope": "nope" is not a field of person',
        source: { parameter: 'sort' },
      });
      expectError(() => decode('/api/person?page[size]=101'), {
        status: 400,
        detail: 'page[size] must be at most 100',
        source: { parameter: 'page[size]' },
      });
      expectError(() => decode('/api/person?filter[single]=2'), {
        status: 400,
        detail: 'filter[single] must be 1 or 0',
        source: { parameter: 'filter[single]' },
      });
    });
  });

  describe('one resource', () => {
    it('is a fetch of the id in the path, with no paging', () => {
      expect(decode('/api/person/7')).to.deep.equal({
        kind: 'fetch',
        collection: person,
        id: '7',
        query: { sort: [], group: [], paging: { offset: 0 }, fields: {}, include: [], single: false },
      });
    });

    it('keeps the id as the client wrote it, decoded from the path', () => {
      const op = decode('/api/tag/a%2Fb');
      expect(op).to.include({ kind: 'fetch', id: 'a/b' });
    });

    it('takes only, fields and include', () => {
      const op = decode('/api/person/7?only=name,age&include=articles.comments&fields[comment]=body');
      if (op.kind !== 'fetch') expect.fail(op.kind);
      expect(op.query.fields).to.deep.equal({ comment: ['body'], person: ['name', 'age'] });
      expect(op.query.include).to.deep.equal([['articles', 'comments']]);
    });

    it('refuses the parameters of a collection', () => {
      expectError(() => decode('/api/person/7?sort=age'), {
        status: 400,
        detail: 'query parameter sort applies to collections, not to a single resource',
        source: { parameter: 'sort' },
      });
      expectError(() => decode('/api/person/7?filter[single]=1'), {
        status: 400,
        detail: 'query parameter filter[single] applies to collections, not to a single resource',
        source: { parameter: 'filter[single]' },
      });
    });
  });

  describe('a related resource or collection', () => {
    it('reads a to-one relationship as the one related resource, scoped to its owner', () => {
      expect(decode('/api/article/3/author')).to.deep.equal({
        kind: 'fetch-related-one',
        collection: person,
        scope: { owner: article, ownerId: '3', relation: 'author' },
        query: { sort: [], group: [], paging: { offset: 0 }, fields: {}, include: [], single: false },
      });
    });

    it('resolves the query of a to-one relationship against the related collection', () => {
      const op = decode('/api/article/3/author?fields[person]=age');
      expect(op.kind === 'fetch-related-one' && op.query.fields).to.deep.equal({ person: ['age'] });
      expectError(() => decode('/api/article/3/author?fields[person]=title'), {
        status: 400,
        detail: 'fields[person]: "title" is not a field of person',
        source: { parameter: 'fields[person]' },
      });
      expectError(() => decode('/api/article/3/author?page[size]=2'), {
        status: 400,
        detail: 'query parameter page[size] applies to collections, not to a single resource',
        source: { parameter: 'page[size]' },
      });
    });

    it('reads a to-many relationship as a list of the related collection, with its query', () => {
      expect(decode('/api/person/7/articles?sort=-title&page[size]=2')).to.deep.equal({
        kind: 'list',
        collection: article,
        scope: { owner: person, ownerId: '7', relation: 'articles' },
        query: {
          sort: [{ field: { relations: [], column: 'title' }, descending: true }],
          group: [],
          paging: { offset: 0, limit: 2, number: 1, size: 2 },
          fields: {},
          include: [],
          single: false,
        },
      });
    });

    it("sorts a related collection by its own fields, not the owner's", () => {
      expectError(() => decode('/api/person/7/articles?sort=age'), {
        status: 400,
        detail: '"age": "age" is not a field of article',
        source: { parameter: 'sort' },
      });
    });

    it('reads a member of a to-many relationship by its id', () => {
      expect(decode('/api/person/7/articles/9')).to.deep.equal({
        kind: 'fetch',
        collection: article,
        id: '9',
        scope: { owner: person, ownerId: '7', relation: 'articles' },
        query: { sort: [], group: [], paging: { offset: 0 }, fields: {}, include: [], single: false },
      });
    });

    it('answers 404 to an id under a to-one relationship, naming where its resource is', () => {
      expectError(() => decode('/api/article/3/author/7'), {
        status: 404,
        title: 'Not Found',
        detail:
          'author is a to-one relationship of article: it has no member ids; its related resource is at http://example.com/api/article/3/author, without an id',
      });
    });

    it('answers 404 to a relationship the collection does not have', () => {
      expectError(() => decode('/api/person/7/nope'), {
        status: 404,
        title: 'Not Found',
        detail: 'person has no relationship "nope"',
      });
      // A relationship of the model that the collection does not expose is none either.
      expectError(() => decode('/api/person_names/7/articles'), {
        status: 404,
        detail: 'person_names has no relationship "articles"',
      });
    });
  });

  describe('a relationship', () => {
    it("reads the linkage of a relationship with the owner's query", () => {
      expect(decode('/api/person/7/relationships/articles')).to.deep.equal({
        kind: 'fetch-linkage',
        collection: person,
        id: '7',
        relation: 'articles',
        query: { sort: [], group: [], paging: { offset: 0 }, fields: {}, include: [], single: false },
      });
    });

    it('resolves include from the owner, starting with the relationship', () => {
      const op = decode('/api/article/3/relationships/comments?include=comments.author,comments');
      expect(op.kind === 'fetch-linkage' && op.query.include).to.deep.equal([['comments', 'author'], ['comments']]);
    });

    it('refuses an include path that does not start with the relationship', () => {
      expectError(() => decode('/api/article/3/relationships/comments?include=author'), {
        status: 400,
        detail:
          'include "author": on the relationship comments of article an include path starts with comments, so that every included resource is linked from the document',
        source: { parameter: 'include' },
      });
    });

    it('refuses collection parameters and unknown relationships', () => {
      expectError(() => decode('/api/article/3/relationships/comments?page[number]=2'), {
        status: 400,
        detail: 'query parameter page[number] applies to collections, not to a single resource',
        source: { parameter: 'page[number]' },
      });
      expectError(() => decode('/api/article/3/relationships/nope'), {
        status: 404,
        detail: 'article has no relationship "nope"',
      });
    });
  });
});
