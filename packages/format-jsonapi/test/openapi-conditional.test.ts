import { bookshop, expectValidOpenApi, operationAt } from '@colapi/openapi-check';
import { openApiDocument } from '@colapi/openapi';
import { expect } from 'chai';
import { jsonApiFormat } from '../src/index.js';

const MEDIA = 'application/vnd.api+json';
const headersOf = (doc: ReturnType<typeof openApiDocument>, path: string, method: string, status: string) =>
  Object.keys(operationAt(doc, path, method).responses[status]!.headers ?? {});
const parametersOf = (doc: ReturnType<typeof openApiDocument>, path: string, method: string) =>
  operationAt(doc, path, method)
    .parameters.filter((p) => p.in === 'header')
    .map((p) => `${p.name}${p.required ? '!' : ''}`);

describe('openApiDocument (jsonapi): conditional requests', () => {
  const doc = openApiDocument(bookshop(), { format: jsonApiFormat() });
  const strict = openApiDocument(bookshop(), { format: jsonApiFormat(), requireIfMatch: true });

  it('is valid with requireIfMatch', async () => {
    await expectValidOpenApi(strict);
  });

  it('tags every GET 200 with ETag, and those about one resource with its Resource-ETag', () => {
    expect(headersOf(doc, '/api/books', 'get', '200')).to.deep.equal(['ETag']);
    expect(headersOf(doc, '/api/books/{id}', 'get', '200')).to.deep.equal(['ETag', 'Resource-ETag']);
    expect(headersOf(doc, '/api/books/{id}/relationships/tags', 'get', '200')).to.deep.equal(['ETag', 'Resource-ETag']);
    expect(headersOf(doc, '/api/books/{id}/tags/{related_id}', 'get', '200')).to.deep.equal(['ETag', 'Resource-ETag']);
    expect(headersOf(doc, '/api/authors/{id}/books', 'get', '200')).to.deep.equal(['ETag']);
    expect(headersOf(doc, '/api/eval/books', 'get', '200')).to.deep.equal(['ETag']);
    // A to-one related resource has a version only when there is one (data: null has none).
    const related = (doc.paths['/api/books/{id}/author'] as any).get.responses['200'].headers;
    expect(related).to.deep.equal({
      'Resource-ETag': { $ref: '#/components/headers/Resource-ETag.when-found' },
      ETag: { $ref: '#/components/headers/ETag' },
    });
  });

  it('answers 304 and 412 on every GET', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      const get = (item as Record<string, any>).get;
      if (!get) continue;
      expect(Object.keys(get.responses), path).to.include.members(['304', '412']);
      expect(parametersOf(doc, path, 'get'), path).to.include.members(['If-None-Match', 'If-Match']);
    }
  });

  it('carries the new Resource-ETag on the answers of creates, updates and relationship writes', () => {
    expect(headersOf(doc, '/api/books', 'post', '201')).to.deep.equal(['Location', 'Resource-ETag']);
    expect(headersOf(doc, '/api/books/{id}', 'patch', '200')).to.deep.equal(['Resource-ETag']);
    for (const method of ['post', 'patch', 'delete'])
      expect(headersOf(doc, '/api/books/{id}/relationships/tags', method, '204'), method).to.deep.equal([
        'Resource-ETag',
      ]);
    expect(headersOf(doc, '/api/books/{id}', 'delete', '204')).to.deep.equal([]);
  });

  it('takes If-Match on every write of an existing resource (required, and 428, under requireIfMatch)', () => {
    const writes: [string, string][] = [
      ['/api/books/{id}', 'patch'],
      ['/api/books/{id}', 'delete'],
      ['/api/books/{id}/relationships/author', 'patch'],
      ['/api/books/{id}/relationships/tags', 'post'],
      ['/api/books/{id}/relationships/tags', 'patch'],
      ['/api/books/{id}/relationships/tags', 'delete'],
    ];
    for (const [path, method] of writes) {
      expect(parametersOf(doc, path, method), `${method} ${path}`).to.deep.equal(['If-Match', 'If-None-Match']);
      expect(parametersOf(strict, path, method), `${method} ${path}`).to.deep.equal(['If-Match!', 'If-None-Match']);
      expect(Object.keys(operationAt(doc, path, method).responses))
        .to.include('412')
        .and.not.include('428');
      const required = operationAt(strict, path, method).responses['428']!;
      expect(required.content![MEDIA]!.schema.$ref).to.equal('#/components/schemas/jsonapi.error-document');
    }
    expect(parametersOf(strict, '/api/books', 'post')).to.deep.equal([]);
    expect(Object.keys(operationAt(strict, '/api/books', 'post').responses)).not.to.include('428');
  });

  it('lets an error point at the header at fault', () => {
    const failed = operationAt(doc, '/api/books/{id}', 'patch').responses['412']!;
    const name = failed.content![MEDIA]!.schema.$ref!.split('/').pop()!;
    const schema = (doc.components as any).schemas[name];
    expect(schema.properties.errors.items.properties.source.properties).to.have.property('header');
  });
});
