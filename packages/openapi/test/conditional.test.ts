import { bookshop, expectValidOpenApi, operationAt, schemaChecker } from '@colapi/openapi-check';
import type { HttpMethod } from '@colapi/schema';
import type { OpenApiDescription, RouteKind } from '@colapi/wire-format';
import { expect } from 'chai';
import { jsonResponse, noContent, openApiDocument, pathParameters, type DescribedFormat } from '../src/index.js';

/** A format with reads and writes of one resource and creates, as plain as can be, with its own error body. */
const ERROR = { type: 'object', required: ['oops'], properties: { oops: { type: 'string' } } };
const PLAIN: OpenApiDescription = {
  summary: 'Plain.',
  operation(route, method) {
    if (route.kind !== 'collection' && route.kind !== 'resource') return undefined;
    const ok = method === 'DELETE' ? { '204': noContent } : { '200': jsonResponse('OK', 'text/plain', {}) };
    return {
      operationId: `${route.collection.name}.${route.kind}.${method}`,
      parameters: pathParameters(route),
      responses: {
        ...(method === 'POST' ? { '201': jsonResponse('Created.', 'text/plain', {}) } : ok),
        '4XX': jsonResponse('Refused.', 'application/problem+json', ERROR),
      },
    };
  },
};
const METHODS: Record<RouteKind, readonly HttpMethod[]> = {
  collection: ['GET', 'POST'],
  resource: ['GET', 'PATCH', 'DELETE'],
  related: [],
  'related-item': [],
  relationship: [],
  evaluate: [],
};
const plain: DescribedFormat = {
  name: 'plain',
  mediaType: 'text/plain',
  methodsFor: (k) => METHODS[k],
  openApi: PLAIN,
};

type Doc = ReturnType<typeof openApiDocument>;
const raw = (doc: Doc, path: string, method: string) =>
  (doc.paths[path] as Record<string, { parameters: { $ref?: string }[]; responses: Record<string, any> }>)[method]!;
const refs = (doc: Doc, path: string, method: string) =>
  raw(doc, path, method)
    .parameters.map((p) => p.$ref)
    .filter(Boolean);

describe('openApiDocument: conditional requests', () => {
  const doc = openApiDocument(bookshop(), { format: plain });
  const strict = openApiDocument(bookshop(), { format: plain, requireIfMatch: true });
  const components = (d: Doc) => d.components as Record<string, Record<string, any>>;

  it('is a valid OpenAPI 3.1 document, with requireIfMatch and without', async () => {
    await expectValidOpenApi(doc);
    await expectValidOpenApi(strict);
  });

  it('describes If-None-Match and If-Match on every GET, with its 304 and 412, and the ETag of its 200', () => {
    for (const path of ['/api/books', '/api/books/{id}']) {
      expect(refs(doc, path, 'get')).to.deep.equal([
        '#/components/parameters/If-None-Match.read',
        '#/components/parameters/If-Match.read',
      ]);
      const { responses } = raw(doc, path, 'get');
      expect(responses['304']).to.deep.equal({ $ref: '#/components/responses/NotModified' });
      expect(responses['412']).to.deep.equal({ $ref: '#/components/responses/PreconditionFailed' });
      expect(responses['200'].headers.ETag).to.deep.equal({ $ref: '#/components/headers/ETag' });
      expect(Object.keys(responses)).to.deep.equal(['200', '304', '412', '4XX']);
    }
    expect(components(doc).responses!.NotModified).not.to.have.property('content');
  });

  it('gives the Resource-ETag to answers about one resource: a GET of it, its update and its create, not a list or a delete', () => {
    const tag = { $ref: '#/components/headers/Resource-ETag' };
    expect(raw(doc, '/api/books/{id}', 'get').responses['200'].headers['Resource-ETag']).to.deep.equal(tag);
    expect(raw(doc, '/api/books/{id}', 'patch').responses['200'].headers).to.deep.equal({ 'Resource-ETag': tag });
    expect(raw(doc, '/api/books', 'post').responses['201'].headers).to.deep.equal({ 'Resource-ETag': tag });
    expect(raw(doc, '/api/books', 'get').responses['200'].headers).not.to.have.property('Resource-ETag');
    expect(raw(doc, '/api/books/{id}', 'delete').responses['204']).not.to.have.property('headers');
    expect(components(doc).headers!['Resource-ETag']).to.include({ required: true });
  });

  it('takes If-Match on writes of a resource, optional without requireIfMatch, and no 428', () => {
    for (const method of ['patch', 'delete']) {
      expect(refs(doc, '/api/books/{id}', method)).to.deep.equal([
        '#/components/parameters/If-Match.write',
        '#/components/parameters/If-None-Match.write',
      ]);
      expect(raw(doc, '/api/books/{id}', method).responses)
        .to.have.property('412')
        .and.not.have.property('428');
    }
    expect(components(doc).parameters!['If-Match.write']).not.to.have.property('required');
    expect(components(doc).responses).not.to.have.property('PreconditionRequired');
  });

  it('requires If-Match and documents 428 on those writes under requireIfMatch, never on a create', () => {
    expect(components(strict).parameters!['If-Match.write']).to.include({
      name: 'If-Match',
      in: 'header',
      required: true,
    });
    expect(raw(strict, '/api/books/{id}', 'patch').responses['428']).to.deep.equal({
      $ref: '#/components/responses/PreconditionRequired',
    });
    expect(operationAt(strict, '/api/books/{id}', 'delete').responses['428']!.content).to.have.property(
      'application/problem+json',
    );
    const create = raw(strict, '/api/books', 'post');
    expect(create.responses).not.to.have.property('428');
    expect(create.responses).not.to.have.property('412');
    expect(create.parameters.map((p) => p.$ref).filter(Boolean)).to.deep.equal([]);
  });

  it("answers 412 with the format's own error body", () => {
    const failed = operationAt(doc, '/api/books/{id}', 'patch').responses['412']!;
    expect(failed.content).to.deep.equal({ 'application/problem+json': { schema: ERROR } });
  });

  it('describes If-Match and If-None-Match values as the server parses them', () => {
    const check = schemaChecker(doc);
    const { schema } = components(doc).parameters!['If-Match.write'];
    for (const good of ['*', '"a"', ' "a" ', 'W/"a", "b"', ', "a" ,', '"a",,"b"', '""'])
      expect(check(schema, good), good).to.equal(undefined);
    for (const bad of ['a', '', ',', '"a', 'W/a', '*, "a"', '"a" "b"', 'w/"a"'])
      expect(check(schema, bad), bad).not.to.equal(undefined);
    const etag = components(doc).headers!.ETag.schema;
    expect(check(etag, '"abc-gzip"')).to.equal(undefined);
    expect(check(etag, 'W/"abc"')).not.to.equal(undefined);
  });

  it('says in If-Match which tag a write takes: the Resource-ETag, not the ETag of a read', () => {
    const text = components(doc).parameters!['If-Match.write'].description as string;
    expect(text)
      .to.match(/^The Resource-ETag/)
      .and.match(/ETag of a read .* does not match/);
  });
});
