import { bookshop, expectValidOpenApi } from '@colapi/openapi-check';
import type { HttpMethod } from '@colapi/schema';
import type { OpenApiDescription, RouteKind } from '@colapi/wire-format';
import { expect } from 'chai';
import {
  callbackParameter,
  columnSchema,
  jsonResponse,
  openApiDocument,
  pathParameters,
  type DescribedFormat,
} from '../src/index.js';

/**
 * A third format, as small as a format can be: CSV-ish rows under text/csv, reads only, described with the
 * building blocks of this package. The generator knows nothing of it but what the format object says.
 */
const ROWS: OpenApiDescription = {
  summary: 'Rows of comma-separated values.',
  operation(route, method, ctx) {
    if (method !== 'GET' || route.kind === 'related') return undefined;
    const fields = Object.fromEntries([...route.collection.columns.values()].map((c) => [c.name, columnSchema(c)]));
    const row = ctx.schema(`rows.${route.collection.name}`, () => ({ type: 'object', properties: fields }));
    return {
      operationId: `${route.collection.name}.${route.kind}`,
      parameters: [...pathParameters(route), callbackParameter('The argument is the rows.')],
      responses: {
        '200': jsonResponse('OK', 'text/csv', row),
        '4XX': jsonResponse('Refused.', 'text/plain', { type: 'string' }),
      },
    };
  },
};
const METHODS: Record<RouteKind, readonly HttpMethod[]> = {
  collection: ['GET', 'POST'],
  resource: ['GET'],
  related: ['GET'],
  'related-item': [],
  relationship: [],
  evaluate: [],
};
const rows: DescribedFormat = {
  name: 'rows',
  mediaType: 'text/csv',
  methodsFor: (kind) => METHODS[kind],
  openApi: ROWS,
};

describe('openApiDocument with a format of its own', () => {
  const doc = openApiDocument(bookshop(), {
    format: rows,
    title: 'Bookshop',
    serverUrl: 'http://127.0.0.1:8080/',
    prefix: '/v2/',
  });

  it('is a valid OpenAPI 3.1 document whose references all resolve and whose schemas compile', async () => {
    expect(doc.openapi).to.equal('3.1.0');
    await expectValidOpenApi(doc);
  });

  it('keeps the paths where the format routes a method, the collection registered it and the format describes it', () => {
    expect(Object.keys(doc.paths)).to.deep.equal([
      '/v2/authors',
      '/v2/authors/{id}',
      '/v2/books',
      '/v2/books/{id}',
      '/v2/tags',
      '/v2/tags/{id}',
      '/v2/titles',
      '/v2/titles/{id}',
    ]);
    // POST is routed and registered, but the format does not describe it: left out.
    expect(Object.keys(doc.paths['/v2/books']!)).to.deep.equal(['get']);
  });

  it('names the server, the title, the summary and the format', () => {
    expect(doc.servers).to.deep.equal([{ url: 'http://127.0.0.1:8080' }]);
    expect(doc.info).to.deep.include({ title: 'Bookshop', description: 'Rows of comma-separated values.' });
    expect(doc['x-colapi']).to.deep.include({ format: 'rows', mediaType: 'text/csv', prefix: '/v2' });
  });

  it('documents the JSONP answer of every operation that takes callback', () => {
    const answer = (
      doc.paths['/v2/books/{id}']!.get as { responses: Record<string, { content: Record<string, unknown> }> }
    ).responses['200']!;
    expect(Object.keys(answer.content)).to.deep.equal(['text/csv', 'application/javascript']);
  });
});
