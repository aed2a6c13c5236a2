import { expect } from 'chai';
import { ApiError, type Operation, type OperationResult } from '@colapi/query-ast';
import type { HttpRequest, HttpResponse } from '@colapi/wire-format';
import { legacyFormat } from '../src/index.js';
import { collection, ctx, node, request } from './fixtures.js';

const format = legacyFormat();
const JSON_TYPE = { 'content-type': 'application/json' };

/** Decodes the request, then encodes the result for it, as the server does around the executor. */
function answer(req: HttpRequest, result: OperationResult | ((op: Operation) => OperationResult)): HttpResponse {
  const operation = format.decode(req, collection(req.route.collection), ctx);
  return format.encode(req, operation, typeof result === 'function' ? result(operation) : result, ctx);
}
const pagingOf = (op: Operation) => (op.kind === 'list' ? op.query.paging : { offset: 0 });
const q = (search: unknown) => encodeURIComponent(JSON.stringify(search));

const article = (id: number, title: string) =>
  node('article', String(id), { id, title, author_id: 1, published: null });
const ann = () =>
  node(
    'person',
    '1',
    { id: 1, name: 'Ann', age: 30, born: null, initial: 'A' },
    {},
    { articles: [article(10, 'Ten')] },
  );
const bob = () => node('person', '2', { id: 2, name: 'Bob', age: 40, born: null, initial: 'B' }, {}, { articles: [] });
const ANN = {
  id: 1,
  name: 'Ann',
  age: 30,
  born: null,
  initial: 'A',
  articles: [{ id: 10, title: 'Ten', author_id: 1, published: null }],
};
const BOB = { id: 2, name: 'Bob', age: 40, born: null, initial: 'B', articles: [] };

describe('Format B encode', () => {
  describe('a list', () => {
    it('is a list object with a Link header', () => {
      const res = answer(request('GET', '/api/person?page=2&results_per_page=1'), (op) => ({
        kind: 'collection',
        resources: [bob()],
        total: 3,
        paging: pagingOf(op),
      }));
      expect(res).to.deep.equal({
        status: 200,
        headers: {
          ...JSON_TYPE,
          link: [
            '<http://example.com/api/person?page=1&results_per_page=1>; rel="first"',
            '<http://example.com/api/person?page=3&results_per_page=1>; rel="last"',
            '<http://example.com/api/person?page=1&results_per_page=1>; rel="prev"',
            '<http://example.com/api/person?page=3&results_per_page=1>; rel="next"',
          ].join(', '),
        },
        body: { num_results: 3, total_pages: 3, page: 2, objects: [BOB] },
      });
    });

    it('counts the search window of limit and offset, not every matching row', () => {
      const target = `/api/person?q=${q({ limit: 3, offset: 1 })}&results_per_page=2`;
      const res = answer(request('GET', target), (op) => ({
        kind: 'collection',
        resources: [ann(), bob()],
        total: 10,
        paging: pagingOf(op),
      }));
      expect(res.body).to.deep.equal({ num_results: 3, total_pages: 2, page: 1, objects: [ANN, BOB] });
      expect(res.headers.link).to.equal(
        `<http://example.com/api/person?q=${q({ limit: 3, offset: 1 })}&page=1&results_per_page=2>; rel="first", ` +
          `<http://example.com/api/person?q=${q({ limit: 3, offset: 1 })}&page=2&results_per_page=2>; rel="last", ` +
          `<http://example.com/api/person?q=${q({ limit: 3, offset: 1 })}&page=2&results_per_page=2>; rel="next"`,
      );
    });

    it('is an empty list object when nothing matches', () => {
      const res = answer(request('GET', '/api/person'), (op) => ({
        kind: 'collection',
        resources: [],
        total: 0,
        paging: pagingOf(op),
      }));
      expect(res.body).to.deep.equal({ num_results: 0, total_pages: 0, page: 1, objects: [] });
    });

    it('with single is the one object itself', () => {
      const res = answer(request('GET', `/api/person?q=${q({ single: true })}`), (op) => ({
        kind: 'collection',
        resources: [ann()],
        total: 1,
        paging: pagingOf(op),
      }));
      expect(res).to.deep.equal({ status: 200, headers: JSON_TYPE, body: ANN });
    });

    it('of related instances is a list object too', () => {
      const res = answer(request('GET', '/api/person/1/articles'), (op) => ({
        kind: 'collection',
        resources: [article(10, 'Ten')],
        total: 1,
        paging: pagingOf(op),
      }));
      expect(res.body).to.deep.equal({
        num_results: 1,
        total_pages: 1,
        page: 1,
        objects: [{ id: 10, title: 'Ten', author_id: 1, published: null }],
      });
      expect(res.headers.link).to.equal(
        '<http://example.com/api/person/1/articles?page=1&results_per_page=10>; rel="first", <http://example.com/api/person/1/articles?page=1&results_per_page=10>; rel="last"',
      );
    });
  });

  describe('one object', () => {
    it('is the object with its relations nested', () => {
      expect(answer(request('GET', '/api/person/1'), { kind: 'resource', resource: ann() })).to.deep.equal({
        status: 200,
        headers: JSON_TYPE,
        body: ANN,
      });
    });

    it('that is missing is 404 No result found', () => {
      expect(answer(request('GET', '/api/person/1/articles/9'), { kind: 'resource', resource: null })).to.deep.equal({
        status: 404,
        headers: JSON_TYPE,
        body: { message: 'No result found' },
      });
    });

    it('once created is 201 with Location and the complete object', () => {
      const req = request('POST', '/api/person', { headers: JSON_TYPE, body: { name: 'Ann' } });
      expect(answer(req, { kind: 'resource', resource: ann(), created: true })).to.deep.equal({
        status: 201,
        headers: { ...JSON_TYPE, location: 'http://example.com/api/person/1' },
        body: ANN,
      });
    });

    it('once created has its id percent-encoded in Location', () => {
      const req = request('POST', '/api/tag', { headers: JSON_TYPE, body: { name: 'a/b' } });
      const res = answer(req, {
        kind: 'resource',
        resource: node('tag', 'a/b', { name: 'a/b', color: null }),
        created: true,
      });
      expect(res.headers.location).to.equal('http://example.com/api/tag/a%2Fb');
      expect(res.body).to.deep.equal({ name: 'a/b', color: null });
    });

    it('once updated is 200 with the full object', () => {
      const req = request('PATCH', '/api/person/1', { headers: JSON_TYPE, body: { age: 30 } });
      expect(answer(req, { kind: 'resource', resource: ann() })).to.deep.equal({
        status: 200,
        headers: JSON_TYPE,
        body: ANN,
      });
    });
  });

  describe('other results', () => {
    it('answers function evaluation with one member per function, <name>__<field>', () => {
      const target = `/api/eval/person?q=${q({
        functions: [
          { name: 'avg', field: 'age' },
          { name: 'count', field: 'id' },
        ],
      })}`;
      expect(answer(request('GET', target), { kind: 'values', values: [35, 2] })).to.deep.equal({
        status: 200,
        headers: JSON_TYPE,
        body: { avg__age: 35, count__id: 2 },
      });
    });

    it('answers function evaluation without functions with the empty object', () => {
      expect(answer(request('GET', `/api/eval/person?q=${q({})}`), { kind: 'values', values: [] })).to.deep.equal({
        status: 200,
        headers: JSON_TYPE,
        body: {},
      });
    });

    it('answers a bulk update with 201 and num_modified, as documented', () => {
      const req = request('PATCH', '/api/person', { headers: JSON_TYPE, body: { age: 1 } });
      expect(answer(req, { kind: 'count', count: 4 })).to.deep.equal({
        status: 201,
        headers: JSON_TYPE,
        body: { num_modified: 4 },
      });
    });

    it('answers a delete, of an object or of a related instance, with 204 and nothing', () => {
      expect(answer(request('DELETE', '/api/person/1'), { kind: 'no-content' })).to.deep.equal({
        status: 204,
        headers: {},
      });
      expect(
        answer(request('DELETE', '/api/person/1/articles/10'), {
          kind: 'linkage',
          target: collection('article'),
          linkage: [],
        }),
      ).to.deep.equal({
        status: 204,
        headers: {},
      });
    });
  });

  describe('errors', () => {
    const get = request('GET', '/api/person');

    it('are {message} with the status of the response', () => {
      expect(
        format.encodeErrors(get, 400, [ApiError.badRequest('q is not valid JSON', { parameter: 'q' })]),
      ).to.deep.equal({
        status: 400,
        headers: JSON_TYPE,
        body: { message: 'q is not valid JSON' },
      });
      expect(
        format.encodeErrors(get, 415, [
          new ApiError(415, 'Unsupported Media Type', 'a POST request must have Content-Type application/json'),
        ]),
      ).to.deep.equal({
        status: 415,
        headers: JSON_TYPE,
        body: { message: 'a POST request must have Content-Type application/json' },
      });
    });

    it('join the details of several errors', () => {
      const res = format.encodeErrors(get, 400, [ApiError.badRequest('first'), ApiError.badRequest('second')]);
      expect(res.body).to.deep.equal({ message: 'first; second' });
    });

    it('carry the headers of their errors, such as Allow', () => {
      const e = new ApiError(405, 'Method Not Allowed', 'DELETE is not allowed', undefined, {
        allow: 'GET, POST, PATCH, PUT',
      });
      expect(format.encodeErrors(get, 405, [e])).to.deep.equal({
        status: 405,
        headers: { ...JSON_TYPE, allow: 'GET, POST, PATCH, PUT' },
        body: { message: 'DELETE is not allowed' },
      });
    });

    it('of a single search are 400 Multiple results found and 404 No result found', () => {
      expect(
        format.encodeErrors(get, 404, [ApiError.multipleResults('more than one resource matches the filter')]),
      ).to.deep.equal({
        status: 400,
        headers: JSON_TYPE,
        body: { message: 'Multiple results found' },
      });
      expect(format.encodeErrors(get, 404, [ApiError.noResult('no resource matches the filter')])).to.deep.equal({
        status: 404,
        headers: JSON_TYPE,
        body: { message: 'No result found' },
      });
    });

    it('of integrity are 400, as Flask-Restless answers them', () => {
      expect(
        format.encodeErrors(get, 409, [
          ApiError.uniqueViolation('"name" must be unique: another person has the same value'),
        ]),
      ).to.deep.equal({
        status: 400,
        headers: JSON_TYPE,
        body: { message: '"name" must be unique: another person has the same value' },
      });
      expect(
        format.encodeErrors(get, 409, [
          ApiError.stillReferenced('the resource is still referenced by other resources'),
        ]),
      ).to.deep.include({ status: 400 });
      // Any other conflict keeps its status.
      expect(format.encodeErrors(get, 409, [ApiError.conflict('something else')])).to.deep.include({ status: 409 });
    });
  });
});
