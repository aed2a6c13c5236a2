import { bookshop, componentSchema, describeBookshopDocument, methodsOf, operationAt } from '@colapi/openapi-check';
import { openApiDocument } from '@colapi/openapi';
import { expect } from 'chai';
import { jsonApiFormat } from '../src/index.js';

describeBookshopDocument(
  'jsonApiFormat().openApi in openApiDocument',
  openApiDocument(bookshop(), { format: jsonApiFormat(), title: 'Bookshop', serverUrl: 'http://127.0.0.1:8080/' }),
  {
    titleFields: (schemas) => Object.keys(schemas['jsonapi.titles.resource']!.properties.attributes.properties),
    expectedTitleFields: ['title'],
  },
);

describe('openApiDocument (jsonapi) shapes', () => {
  const doc = openApiDocument(bookshop(), { format: jsonApiFormat() });

  it('offers only the methods a collection registered', () => {
    expect(methodsOf(doc, '/api/books')).to.deep.equal(['get', 'post']);
    expect(methodsOf(doc, '/api/books/{id}')).to.deep.equal(['get', 'patch', 'delete']);
    expect(methodsOf(doc, '/api/tags')).to.deep.equal(['get', 'post']);
    expect(methodsOf(doc, '/api/tags/{id}')).to.deep.equal(['get']);
    expect(methodsOf(doc, '/api/titles')).to.deep.equal(['get']);
  });

  it('describes every relationship: related resources, related items of to-many ones, and linkage', () => {
    expect(methodsOf(doc, '/api/books/{id}/author')).to.deep.equal(['get']);
    expect(doc.paths).not.to.have.property('/api/books/{id}/author/{related_id}');
    expect(methodsOf(doc, '/api/books/{id}/tags/{related_id}')).to.deep.equal(['get']);
    expect(methodsOf(doc, '/api/books/{id}/relationships/author')).to.deep.equal(['get', 'patch']);
    expect(methodsOf(doc, '/api/books/{id}/relationships/tags')).to.deep.equal(['get', 'post', 'patch', 'delete']);
    expect(methodsOf(doc, '/api/authors/{id}/books')).to.deep.equal(['get']);
  });

  it('lists the query parameters of a collection, the filter as JSON content', () => {
    const list = operationAt(doc, '/api/books', 'get');
    const names = list.parameters.map((p) => p.name);
    expect(names).to.include.members([
      'filter[objects]',
      'filter[single]',
      'sort',
      'group',
      'page[number]',
      'page[size]',
      'include',
      'only',
      'fields[books]',
      'fields[authors]',
      'fields[tags]',
      'callback',
    ]);
    const filter = list.parameters.find((p) => p.name === 'filter[objects]')!;
    expect(filter.content).to.have.property('application/json');
    const size = list.parameters.find((p) => p.name === 'page[size]')!;
    expect(size.schema).to.deep.equal({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
  });

  it('describes include and fields[...] on a relationship, and included in its document', () => {
    const linkage = operationAt(doc, '/api/books/{id}/relationships/tags', 'get');
    expect(linkage.parameters.map((p) => p.name)).to.include.members(['include', 'fields[tags]', 'callback']);
    const ref = linkage.responses['200']!.content!['application/vnd.api+json']!.schema.$ref!;
    expect(componentSchema(doc, ref.split('/').pop()!).properties).to.have.property('included');
  });

  it('requires functions on the evaluation endpoint (without it the server answers 400)', () => {
    const functions = operationAt(doc, '/api/eval/books', 'get').parameters.find((p) => p.name === 'functions')!;
    expect(functions).to.deep.include({ in: 'query', required: true });
  });

  it('shows belongs-to keys as relationships, virtual attributes as read-only attributes', () => {
    const book = componentSchema(doc, 'jsonapi.books.resource');
    expect(Object.keys(book.properties.attributes.properties)).to.deep.equal(['title', 'price', 'added_at']);
    expect(Object.keys(book.properties.relationships.properties)).to.deep.equal(['author', 'tags']);
    const author = componentSchema(doc, 'jsonapi.authors.resource');
    expect(author.properties.attributes.properties.initial).to.deep.include({ readOnly: true });
    expect(author.properties.attributes.properties.born).to.deep.equal({
      type: ['string', 'null'],
      format: 'date',
      examples: ['2024-05-31'],
    });
  });

  it('accepts a client id in a create only where allow_client_generated_ids is set', () => {
    expect(componentSchema(doc, 'jsonapi.tags.create').properties.data.properties).to.have.property('id');
    expect(componentSchema(doc, 'jsonapi.books.create').properties.data.properties).not.to.have.property('id');
    expect(componentSchema(doc, 'jsonapi.books.create').properties.data.properties.attributes.required).to.deep.equal([
      'title',
    ]);
  });

  it('honours the prefix and the limits', () => {
    const other = openApiDocument(bookshop(), { format: jsonApiFormat(), prefix: '/v2/', limits: { maxPageSize: 25 } });
    const size = operationAt(other, '/v2/books', 'get').parameters.find((p) => p.name === 'page[size]')!;
    expect(size.schema).to.deep.include({ maximum: 25 });
  });
});
