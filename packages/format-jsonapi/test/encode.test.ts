import { expect } from 'chai';
import { ApiError, type OperationResult, type ResourceNode } from '@colapi/query-ast';
import { documentOf, type HttpRequest, type HttpResponse } from '@colapi/wire-format';
import { jsonApiFormat, resourceObject } from '../src/index.js';
import { BASE, collection, ctx, node, registry, request } from './fixtures.js';

const format = jsonApiFormat();
const JSONAPI = { version: '1.0' };
const TYPE = { 'content-type': 'application/vnd.api+json' };
/** The headers of every answer with a document: its type, and Vary: Accept (each answer depends on Accept). */
const ANSWER = { ...TYPE, vary: 'Accept' };

/**
 * Decodes the request, then encodes `result` for it, as the server does around the executor; a document
 * written as text is given back parsed (`jsonText` dropped), to compare with the document expected.
 */
function answer(
  req: HttpRequest,
  result: OperationResult | ((op: ReturnType<typeof format.decode>) => OperationResult),
): HttpResponse {
  const operation = format.decode(req, collection(req.route.collection), ctx);
  const response = format.encode(req, operation, typeof result === 'function' ? result(operation) : result, ctx);
  return response.jsonText
    ? { status: response.status, headers: response.headers, body: documentOf(response) }
    : response;
}

const pagingOf = (op: ReturnType<typeof format.decode>) => (op.kind === 'list' ? op.query.paging : { offset: 0 });

const ann = () =>
  node('person', '1', { id: 1, name: 'Ann', age: 30, born: '1990-01-02', initial: 'A' }, { articles: ['10'] });
const bob = () => node('person', '2', { id: 2, name: 'Bob', age: 40, born: null, initial: 'B' }, { articles: [] });
const object = (n: ResourceNode, fields: Record<string, readonly string[]> = {}) =>
  resourceObject(n, BASE, registry, { fields });

describe('Format A encode', () => {
  describe('a collection', () => {
    it('is a document with data, paging links and meta.total', () => {
      const res = answer(request('GET', '/api/person?sort=name&page[number]=2&page[size]=1'), (op) => ({
        kind: 'collection',
        resources: [bob()],
        total: 3,
        paging: pagingOf(op),
      }));
      expect(res).to.deep.equal({
        status: 200,
        headers: ANSWER,
        body: {
          jsonapi: JSONAPI,
          data: [object(bob())],
          links: {
            self: 'http://example.com/api/person?sort=name&page[number]=2&page[size]=1',
            first: 'http://example.com/api/person?sort=name&page[number]=1&page[size]=1',
            last: 'http://example.com/api/person?sort=name&page[number]=3&page[size]=1',
            prev: 'http://example.com/api/person?sort=name&page[number]=1&page[size]=1',
            next: 'http://example.com/api/person?sort=name&page[number]=3&page[size]=1',
          },
          meta: { total: 3 },
        },
      });
    });

    it('is an empty list with one page when nothing matches', () => {
      const res = answer(request('GET', '/api/person'), (op) => ({
        kind: 'collection',
        resources: [],
        total: 0,
        paging: pagingOf(op),
      }));
      const body = documentOf(res) as Record<string, unknown>;
      expect(body.data).to.deep.equal([]);
      expect(body.meta).to.deep.equal({ total: 0 });
      expect(body.links).to.deep.equal({
        self: 'http://example.com/api/person',
        first: 'http://example.com/api/person?page[number]=1&page[size]=10',
        last: 'http://example.com/api/person?page[number]=1&page[size]=10',
        prev: null,
        next: null,
      });
    });

    it('has an empty meta and no last link without a total', () => {
      const res = answer(request('GET', '/api/person'), (op) => ({
        kind: 'collection',
        resources: [ann()],
        paging: pagingOf(op),
      }));
      const body = documentOf(res) as { meta: unknown; links: { last: unknown; next: unknown } };
      expect(body.meta).to.deep.equal({});
      expect(body.links.last).to.equal(null);
      expect(body.links.next).to.equal(null);
    });

    it('shows the sparse fieldsets of the request', () => {
      const res = answer(request('GET', '/api/person?fields[person]=name'), (op) => ({
        kind: 'collection',
        resources: [ann()],
        total: 1,
        paging: pagingOf(op),
      }));
      expect((documentOf(res) as { data: unknown }).data).to.deep.equal([
        { type: 'person', id: '1', attributes: { name: 'Ann' }, links: { self: 'http://example.com/api/person/1' } },
      ]);
    });

    it('with filter[single]=1 is the one resource and links.self only, no meta', () => {
      const res = answer(request('GET', '/api/person?filter[single]=1&sort=name'), (op) => ({
        kind: 'collection',
        resources: [ann()],
        total: 1,
        paging: pagingOf(op),
      }));
      expect(res).to.deep.equal({
        status: 200,
        headers: ANSWER,
        body: {
          jsonapi: JSONAPI,
          data: object(ann()),
          links: { self: 'http://example.com/api/person?filter[single]=1&sort=name' },
        },
      });
    });

    it('links a related collection at its own URL', () => {
      const res = answer(request('GET', '/api/person/1/articles?page[size]=1'), (op) => ({
        kind: 'collection',
        resources: [node('article', '10', { id: 10, title: 'T', author_id: 1 })],
        total: 2,
        paging: pagingOf(op),
      }));
      const links = (documentOf(res) as { links: Record<string, unknown> }).links;
      expect(links.self).to.equal('http://example.com/api/person/1/articles?page[size]=1');
      expect(links.next).to.equal('http://example.com/api/person/1/articles?page[size]=1&page[number]=2');
    });
  });

  describe('one resource', () => {
    it('is a document with data and links.self', () => {
      expect(answer(request('GET', '/api/person/1'), { kind: 'resource', resource: ann() })).to.deep.equal({
        status: 200,
        headers: ANSWER,
        body: { jsonapi: JSONAPI, data: object(ann()), links: { self: 'http://example.com/api/person/1' } },
      });
    });

    it('is written as JSON text, exactly what JSON.stringify writes of the document', () => {
      const req = request('GET', '/api/person/1');
      const response = format.encode(
        req,
        format.decode(req, collection('person'), ctx),
        {
          kind: 'resource',
          resource: ann(),
        },
        ctx,
      );
      expect(response.jsonText).to.equal(true);
      expect(response.body).to.equal(JSON.stringify(documentOf(response)));
    });

    it('is data null for an empty to-one relationship', () => {
      expect(answer(request('GET', '/api/article/10/author'), { kind: 'resource', resource: null })).to.deep.equal({
        status: 200,
        headers: ANSWER,
        body: { jsonapi: JSONAPI, data: null, links: { self: 'http://example.com/api/article/10/author' } },
      });
    });

    it('once created, is 201 with Location, and meta and jsonapi in the resource object', () => {
      const req = request('POST', '/api/person', {
        headers: ANSWER,
        body: { data: { type: 'person', attributes: { name: 'Ann' } } },
      });
      expect(answer(req, { kind: 'resource', resource: ann(), created: true })).to.deep.equal({
        status: 201,
        headers: { ...ANSWER, location: 'http://example.com/api/person/1' },
        body: {
          jsonapi: JSONAPI,
          data: { ...object(ann()), meta: {}, jsonapi: JSONAPI },
          links: { self: 'http://example.com/api/person/1' },
        },
      });
    });

    it('once updated, is 200 with the full resource', () => {
      const req = request('PATCH', '/api/person/1', {
        headers: ANSWER,
        body: { data: { type: 'person', id: '1', attributes: { age: 30 } } },
      });
      expect(answer(req, { kind: 'resource', resource: ann() })).to.deep.equal({
        status: 200,
        headers: ANSWER,
        body: { jsonapi: JSONAPI, data: object(ann()), links: { self: 'http://example.com/api/person/1' } },
      });
    });

    it('percent-encodes what a URI does not allow in links.self', () => {
      const res = answer(request('GET', '/api/person/1?only=name&x{y}=1'), { kind: 'resource', resource: ann() });
      expect((documentOf(res) as { links: unknown }).links).to.deep.equal({
        self: 'http://example.com/api/person/1?only=name&x%7By%7D=1',
      });
    });
  });

  describe('a relationship', () => {
    it("is the to-many linkage with the relationship's links", () => {
      const res = answer(request('GET', '/api/person/1/relationships/articles'), {
        kind: 'linkage',
        target: collection('article'),
        linkage: ['10', '11'],
      });
      expect(res).to.deep.equal({
        status: 200,
        headers: ANSWER,
        body: {
          jsonapi: JSONAPI,
          data: [
            { type: 'article', id: '10' },
            { type: 'article', id: '11' },
          ],
          links: {
            self: 'http://example.com/api/person/1/relationships/articles',
            related: 'http://example.com/api/person/1/articles',
          },
        },
      });
    });

    it('is an identifier or null for a to-one relationship', () => {
      const read = (linkage: string | null) =>
        (
          documentOf(
            answer(request('GET', '/api/article/10/relationships/author'), {
              kind: 'linkage',
              target: collection('person'),
              linkage,
            }),
          ) as { data: unknown }
        ).data;
      expect(read('1')).to.deep.equal({ type: 'person', id: '1' });
      expect(read(null)).to.equal(null);
    });

    it('is 204 once changed', () => {
      const req = request('PATCH', '/api/article/10/relationships/author', { headers: TYPE, body: { data: null } });
      expect(answer(req, { kind: 'linkage', target: collection('person'), linkage: null })).to.deep.equal({
        status: 204,
        headers: { vary: 'Accept' },
      });
    });
  });

  describe('other results', () => {
    it('answers function evaluation with data only, as JSON:API or plain JSON', () => {
      const target = `/api/eval/person?functions=${encodeURIComponent('[{"name":"avg","field":"age"},{"name":"count","field":"id"}]')}`;
      const values: OperationResult = { kind: 'values', values: [35, 2] };
      expect(answer(request('GET', target), values)).to.deep.equal({
        status: 200,
        headers: ANSWER,
        body: { data: [35, 2] },
      });
      expect(answer(request('GET', target, { headers: { accept: 'application/json' } }), values)).to.deep.equal({
        status: 200,
        headers: { 'content-type': 'application/json', vary: 'Accept' },
        body: { data: [35, 2] },
      });
    });

    it('answers a delete with 204 and no body', () => {
      expect(answer(request('DELETE', '/api/person/1'), { kind: 'no-content' })).to.deep.equal({
        status: 204,
        headers: { vary: 'Accept' },
      });
    });

    it('answers a count with meta.modified', () => {
      const op = format.decode(request('DELETE', '/api/person/1'), collection('person'), ctx);
      expect(format.encode(request('DELETE', '/api/person/1'), op, { kind: 'count', count: 3 }, ctx)).to.deep.equal({
        status: 200,
        headers: ANSWER,
        body: { jsonapi: JSONAPI, meta: { modified: 3 } },
      });
    });
  });

  describe('errors', () => {
    const get = request('GET', '/api/person');

    it('are error objects with status as a string, title, detail and source', () => {
      const errors = [
        ApiError.badRequest('sort has an empty key', { parameter: 'sort' }),
        ApiError.badRequest('"x" is not a field', { pointer: '/data/attributes/x' }),
      ];
      expect(format.encodeErrors(get, 400, errors)).to.deep.equal({
        status: 400,
        headers: ANSWER,
        body: {
          jsonapi: JSONAPI,
          errors: [
            { status: '400', title: 'Bad Request', detail: 'sort has an empty key', source: { parameter: 'sort' } },
            {
              status: '400',
              title: 'Bad Request',
              detail: '"x" is not a field',
              source: { pointer: '/data/attributes/x' },
            },
          ],
        },
      });
    });

    it('have no source where the error names no place', () => {
      const res = format.encodeErrors(get, 404, [ApiError.notFound('no such person')]);
      expect((documentOf(res) as { errors: unknown }).errors).to.deep.equal([
        { status: '404', title: 'Not Found', detail: 'no such person' },
      ]);
    });

    it('carry the headers of their errors, such as Allow', () => {
      const e = new ApiError(405, 'Method Not Allowed', 'PUT is not allowed', undefined, { allow: 'GET, POST' });
      expect(format.encodeErrors(get, 405, [e]).headers).to.deep.equal({ ...ANSWER, allow: 'GET, POST' });
    });

    it("keep JSON:API's statuses for a single search and for integrity conflicts", () => {
      const statusOf = (e: ApiError) => format.encodeErrors(get, e.status, [e]);
      expect(statusOf(ApiError.multipleResults('more than one resource matches the filter'))).to.deep.include({
        status: 404,
      });
      expect(statusOf(ApiError.noResult('no resource matches the filter'))).to.deep.include({ status: 404 });
      const conflict = statusOf(
        ApiError.uniqueViolation('"name" must be unique', { pointer: '/data/attributes/name' }),
      );
      expect(conflict.status).to.equal(409);
      expect((documentOf(conflict) as { errors: unknown }).errors).to.deep.equal([
        {
          status: '409',
          title: 'Conflict',
          detail: '"name" must be unique',
          source: { pointer: '/data/attributes/name' },
        },
      ]);
      expect(statusOf(ApiError.stillReferenced('still referenced')).status).to.equal(409);
    });

    it('are JSON:API even when Accept refuses it, and plain JSON for an evaluation that asked for it', () => {
      const refused = request('GET', '/api/person', { headers: { accept: 'text/html' } });
      expect(format.encodeErrors(refused, 406, [new ApiError(406, 'Not Acceptable', 'x')]).headers).to.deep.equal(
        ANSWER,
      );
      const json = request('GET', '/api/eval/person', { headers: { accept: 'application/json' } });
      expect(format.encodeErrors(json, 400, [ApiError.badRequest('x')]).headers).to.deep.equal({
        'content-type': 'application/json',
        vary: 'Accept',
      });
    });
  });
});
