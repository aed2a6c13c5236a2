import { expect } from 'chai';
import { type DocumentPaths, methodsOf } from './document-parts.js';
import { expectValidOpenApi } from './expect-valid-openapi.js';

type Document = DocumentPaths & { openapi?: unknown; servers?: unknown; info?: unknown; tags?: unknown };
type Schemas = Record<string, Record<string, any>>;

export interface BookshopDocumentOptions {
  /** The fields the format shows of `titles` (registered with only: ['title']), read from the document's schemas. */
  readonly titleFields: (schemas: Schemas) => string[];
  /** What titleFields must answer. */
  readonly expectedTitleFields: readonly string[];
}

/**
 * The checks every format's description of bookshop() passes, as mocha tests under `title`: a valid OpenAPI 3.1
 * document, servers, title and tags, the evaluation endpoint, unique operationIds, and what only and exclude
 * hide. `doc` is openApiDocument(bookshop(), { format, title: 'Bookshop', serverUrl: 'http://127.0.0.1:8080/' }).
 */
export function describeBookshopDocument(title: string, doc: Document, options: BookshopDocumentOptions): void {
  const schemas = () => (doc.components as { schemas: Schemas }).schemas;

  describe(title, () => {
    it('is a valid OpenAPI 3.1 document whose references all resolve and whose schemas compile', async () => {
      expect(doc.openapi).to.equal('3.1.0');
      await expectValidOpenApi(doc);
    });

    it('names the server and the title, and tags every collection', () => {
      expect(doc.servers).to.deep.equal([{ url: 'http://127.0.0.1:8080' }]);
      expect((doc.info as { title: string }).title).to.equal('Bookshop');
      expect((doc.tags as { name: string }[]).map((t) => t.name)).to.deep.equal(['authors', 'books', 'tags', 'titles']);
    });

    it('describes the evaluation endpoint only for collections with allow_functions', () => {
      expect(methodsOf(doc, '/api/eval/authors')).to.deep.equal(['get']);
      expect(methodsOf(doc, '/api/eval/books')).to.deep.equal(['get']);
      expect(doc.paths).not.to.have.property('/api/eval/tags');
    });

    it('gives every operation a unique operationId', () => {
      const ids = Object.values(doc.paths).flatMap((item) =>
        Object.values(item).map((o) => (o as { operationId: string }).operationId),
      );
      expect(new Set(ids).size).to.equal(ids.length);
    });

    it('leaves out the relationships and fields that only and exclude hide', () => {
      expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/titles/'))).to.deep.equal(['/api/titles/{id}']);
      expect(Object.keys(schemas()).filter((n) => n.includes('titles.tags'))).to.deep.equal([]);
      expect(options.titleFields(schemas())).to.deep.equal(options.expectedTitleFields);
    });
  });
}
