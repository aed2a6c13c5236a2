import {
  bookshop,
  componentSchema,
  describeBookshopDocument,
  methodsOf,
  operationAt,
  schemaChecker,
} from '@colapi/openapi-check';
import { openApiDocument } from '@colapi/openapi';
import { expect } from 'chai';
import { legacyFormat } from '../src/index.js';
import { ctx, registry, request } from './fixtures.js';

describeBookshopDocument(
  'legacyFormat().openApi in openApiDocument',
  openApiDocument(bookshop(), { format: legacyFormat(), title: 'Bookshop', serverUrl: 'http://127.0.0.1:8080/' }),
  {
    titleFields: (schemas) => Object.keys(schemas['legacy.titles.fields']!.properties),
    expectedTitleFields: ['id', 'title'],
  },
);

describe('openApiDocument (legacy) shapes', () => {
  const doc = openApiDocument(bookshop({ books: { methods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] } }), {
    format: legacyFormat(),
  });

  it('offers bulk updates on the collection and PUT as an alias of PATCH', () => {
    expect(methodsOf(doc, '/api/books')).to.deep.equal(['get', 'post', 'patch', 'put']);
    expect(methodsOf(doc, '/api/books/{id}')).to.deep.equal(['get', 'patch', 'put', 'delete']);
    expect(
      operationAt(doc, '/api/books', 'patch').responses['201']!.content!['application/json']!.schema.$ref,
    ).to.equal('#/components/schemas/legacy.num-modified');
  });

  it('searches with q and pages with page and results_per_page', () => {
    const names = operationAt(doc, '/api/books', 'get').parameters.map((p) => p.name);
    expect(names).to.deep.equal([
      'Colapi-Read-From',
      'q',
      'page',
      'results_per_page',
      'callback',
      'If-None-Match',
      'If-Match',
    ]);
  });

  it('describes the Colapi-Read-From header on reads only', () => {
    const header = operationAt(doc, '/api/books/{id}', 'get').parameters.find((p) => p.name === 'Colapi-Read-From');
    expect(header).to.include({ in: 'header' });
    expect(operationAt(doc, '/api/books', 'post').parameters.map((p) => p.name)).not.to.include('Colapi-Read-From');
  });

  it('shows related instances nested, and has no JSON:API relationship endpoints', () => {
    const object = componentSchema(doc, 'legacy.books.object');
    expect(object.allOf[1].properties.tags).to.deep.equal({
      type: 'array',
      items: { $ref: '#/components/schemas/legacy.tags.fields' },
    });
    expect(Object.keys(doc.paths).some((p) => p.includes('/relationships/'))).to.equal(false);
    expect(methodsOf(doc, '/api/books/{id}/tags/{related_id}')).to.deep.equal(['get', 'delete']);
  });
});

/**
 * The write bodies of the document say what the decoder takes: each body below is checked by the decoder
 * and by the document's schema of the same request, and both must agree (resource-write.ts is the truth).
 */
describe('the documented write bodies agree with the decoder', () => {
  const format = legacyFormat();
  const doc = openApiDocument(registry, { format });
  const check = schemaChecker(doc);
  const bodySchema = (path: string, method: 'post' | 'patch') =>
    (doc.paths[path]![method] as { requestBody: { content: Record<string, { schema: object }> } }).requestBody.content[
      'application/json'
    ]!.schema;
  const decodes = (method: string, target: string, body: unknown) => {
    const req = request(method, target, { body });
    try {
      format.decode(req, registry.collection(req.route.collection)!, ctx);
      return true;
    } catch {
      return false;
    }
  };
  // 'database': the decoder takes it, the database refuses it (NOT NULL) and the server answers 400.
  const CASES: [string, 'POST' | 'PATCH', string, string, unknown, boolean | 'database'][] = [
    ['an update with add', 'PATCH', '/api/article/3', '/api/article/{id}', { tags: { add: [{ name: 'new' }] } }, true],
    [
      'an update with remove and __delete__',
      'PATCH',
      '/api/article/3',
      '/api/article/{id}',
      { comments: { remove: [{ id: 1, __delete__: true }] } },
      true,
    ],
    [
      'add and remove together',
      'PATCH',
      '/api/article/3',
      '/api/article/{id}',
      { tags: { add: [{ name: 'a' }], remove: [{ name: 'b' }] } },
      false,
    ],
    ['an operation with neither', 'PATCH', '/api/article/3', '/api/article/{id}', { tags: {} }, false],
    ['a to-one remove by key', 'PATCH', '/api/article/3', '/api/article/{id}', { author: { remove: { id: 7 } } }, true],
    [
      'a to-one remove in a list of one',
      'PATCH',
      '/api/article/3',
      '/api/article/{id}',
      { author: { remove: [{ id: 7 }] } },
      true,
    ],
    [
      'a to-one remove with fields beside the key',
      'PATCH',
      '/api/article/3',
      '/api/article/{id}',
      { author: { remove: { id: 7, name: 'x' } } },
      false,
    ],
    ['a to-one remove without key', 'PATCH', '/api/article/3', '/api/article/{id}', { author: { remove: {} } }, false],
    [
      'a to-one remove of two',
      'PATCH',
      '/api/article/3',
      '/api/article/{id}',
      { author: { remove: [{ id: 7 }, { id: 8 }] } },
      false,
    ],
    [
      'a to-one add of a new instance',
      'PATCH',
      '/api/article/3',
      '/api/article/{id}',
      { author: { add: { name: 'Ann' } } },
      true,
    ],
    [
      'a to-many remove with a field',
      'PATCH',
      '/api/article/3',
      '/api/article/{id}',
      { comments: { remove: [{ id: 1, body: 'x' }] } },
      false,
    ],
    [
      'a foreign key and its relationship',
      'PATCH',
      '/api/article/3',
      '/api/article/{id}',
      { author_id: 1, author: { id: 1 } },
      false,
    ],
    ['a foreign key alone', 'PATCH', '/api/article/3', '/api/article/{id}', { author_id: 1 }, true],
    [
      'a to-one add of a list of one',
      'PATCH',
      '/api/article/3',
      '/api/article/{id}',
      { author: { add: [{ id: 7 }] } },
      false,
    ],
    ['its own id as text', 'PATCH', '/api/article/3', '/api/article/{id}', { id: '3' }, true],
    ['an id of null in an update', 'PATCH', '/api/article/3', '/api/article/{id}', { id: null }, true],
    ['an id that is no key', 'PATCH', '/api/article/3', '/api/article/{id}', { id: 'three' }, false],
    ['an id of null in a create', 'POST', '/api/person', '/api/person', { id: null, name: 'Ann' }, true],
    ['a related id that is no key', 'PATCH', '/api/article/3', '/api/article/{id}', { author: { id: '07' } }, false],
    [
      'a new related instance with its required fields',
      'POST',
      '/api/person',
      '/api/person',
      { name: 'Ann', articles: [{ title: 'T' }] },
      true,
    ],
    [
      'a new related instance without a required field',
      'POST',
      '/api/person',
      '/api/person',
      { name: 'Ann', articles: [{ published: null }] },
      'database',
    ],
    [
      'a new related instance with an unknown field',
      'POST',
      '/api/person',
      '/api/person',
      { name: 'Ann', articles: [{ title: 'T', nope: 1 }] },
      false,
    ],
    [
      'a nested foreign key and its relationship',
      'POST',
      '/api/person',
      '/api/person',
      { name: 'Ann', articles: [{ title: 'T', author_id: 1, author: null }] },
      false,
    ],
    ['a name longer than its column', 'POST', '/api/person', '/api/person', { name: 'x'.repeat(11) }, false],
    ['a computed field', 'POST', '/api/person', '/api/person', { name: 'Ann', initial: 'A' }, false],
    ['a client id where ids are generated', 'POST', '/api/person', '/api/person', { id: 5, name: 'Ann' }, false],
    [
      'a client id where the collection takes them',
      'POST',
      '/api/people_with_ids',
      '/api/people_with_ids',
      { id: 5, name: 'Ann' },
      true,
    ],
  ];
  for (const [name, method, target, path, body, valid] of CASES) {
    it(`${name}: ${valid === true ? 'taken' : 'refused'} by both`, () => {
      expect(decodes(method, target, body), 'the decoder').to.equal(valid !== false);
      const wrong = check(bodySchema(path, method === 'POST' ? 'post' : 'patch'), body);
      expect(wrong === undefined, `the document: ${wrong}`).to.equal(valid === true);
    });
  }
});
