import { bookshop, expectValidOpenApi, operationAt } from '@colapi/openapi-check';
import { openApiDocument } from '@colapi/openapi';
import { expect } from 'chai';
import { legacyFormat } from '../src/index.js';

const headersOf = (doc: ReturnType<typeof openApiDocument>, path: string, method: string, status: string) =>
  Object.keys(operationAt(doc, path, method).responses[status]!.headers ?? {});
const parameter = (doc: ReturnType<typeof openApiDocument>, path: string, method: string, name: string) =>
  operationAt(doc, path, method).parameters.find((p) => p.in === 'header' && p.name === name);

describe('openApiDocument (legacy): conditional requests', () => {
  const registry = () => bookshop({ books: { methods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] } });
  const doc = openApiDocument(registry(), { format: legacyFormat() });
  const strict = openApiDocument(registry(), { format: legacyFormat(), requireIfMatch: true });

  it('is valid with requireIfMatch', async () => {
    await expectValidOpenApi(strict);
  });

  it('tags every GET 200 with ETag, an object with its Resource-ETag, never a list (related ones included)', () => {
    expect(headersOf(doc, '/api/books', 'get', '200')).to.deep.equal(['Link', 'ETag']);
    expect(headersOf(doc, '/api/books/{id}', 'get', '200')).to.deep.equal(['ETag', 'Resource-ETag']);
    expect(headersOf(doc, '/api/books/{id}/author', 'get', '200')).to.deep.equal(['Link', 'ETag']);
    expect(headersOf(doc, '/api/books/{id}/tags/{related_id}', 'get', '200')).to.deep.equal(['ETag', 'Resource-ETag']);
    expect(headersOf(doc, '/api/eval/books', 'get', '200')).to.deep.equal(['ETag']);
    for (const path of ['/api/books', '/api/books/{id}', '/api/books/{id}/author', '/api/eval/books'])
      expect(Object.keys(operationAt(doc, path, 'get').responses), path).to.include.members(['304', '412']);
  });

  it('takes If-Match on updates, PUT, deletes and the removal of a related instance, with the new tag answered', () => {
    for (const method of ['patch', 'put', 'delete']) {
      expect(parameter(doc, '/api/books/{id}', method, 'If-Match')).to.include({ in: 'header' });
      expect(parameter(strict, '/api/books/{id}', method, 'If-Match')).to.include({ required: true });
      expect(operationAt(strict, '/api/books/{id}', method).responses).to.have.property('428');
    }
    expect(headersOf(doc, '/api/books/{id}', 'put', '200')).to.deep.equal(['Resource-ETag']);
    expect(headersOf(doc, '/api/books/{id}/tags/{related_id}', 'delete', '204')).to.deep.equal(['Resource-ETag']);
    const text = parameter(doc, '/api/books/{id}/tags/{related_id}', 'delete', 'If-Match')!.description!;
    expect(text).to.match(/Resource-ETag of the resource at \{id\}/);
    expect(headersOf(doc, '/api/books', 'post', '201')).to.deep.equal(['Location', 'Resource-ETag']);
    expect(parameter(strict, '/api/books', 'post', 'If-Match')).to.equal(undefined);
  });

  it('takes only If-Match: * on a bulk update, required under requireIfMatch, and no Resource-ETag', () => {
    for (const method of ['patch', 'put']) {
      const ifMatch = parameter(strict, '/api/books', method, 'If-Match')!;
      expect(ifMatch).to.deep.include({ required: true, schema: { type: 'string', enum: ['*'] } });
      expect(parameter(doc, '/api/books', method, 'If-None-Match')).to.equal(undefined);
      expect(Object.keys(operationAt(strict, '/api/books', method).responses)).to.include.members(['412', '428']);
      expect(Object.keys(operationAt(doc, '/api/books', method).responses)).not.to.include('428');
      expect(headersOf(doc, '/api/books', method, '201')).to.deep.equal([]);
    }
  });

  it("answers 412 and 428 with the format's error object", () => {
    const required = operationAt(strict, '/api/books/{id}', 'delete').responses['428']!;
    expect(required.content!['application/json']!.schema.$ref).to.equal('#/components/schemas/legacy.error');
  });
});
