import type { CatalogueConfig } from '@colapi/catalogue';
import type { Database } from '@colapi/sql-compiler';
import { type HttpClient, testedKinds } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import type { CatalogueServer } from '../src/index.js';
import { serveLibrary } from './served-library.js';

/** The library's collections as a user would configure them: functions on books, a column renamed. */
const CONFIG: CatalogueConfig = {
  tables: {
    book: { collections: [{ allow_functions: true }] },
    author: { columns: { born: { name: 'birth_date' } } },
  },
};

const q = (filters: unknown) => `filter[objects]=${encodeURIComponent(JSON.stringify(filters))}`;
const ids = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);

for (const kind of testedKinds()) {
  describe(`colapi serve on a schema made with DDL only [${kind}]`, function () {
    this.timeout(60_000);
    const library = serveLibrary(kind, CONFIG);
    let a: HttpClient;
    let b: HttpClient;
    let sql: Database;
    let jsonapi: CatalogueServer;
    before(() => {
      ({ a, b, sql, jsonapi } = library());
    });

    it('serves every table with a key as a collection, and says what it left out', () => {
      expect([...jsonapi.current().registry.collections.keys()]).to.deep.equal([
        'author',
        'book',
        'book_summary',
        'category',
        'edition',
        'profile',
        'tag',
      ]);
      const warnings = jsonapi.current().warnings;
      // Bytes are served as base64 and a computed column read-only: nothing of author is left out.
      expect(warnings.filter((w) => w.startsWith('author.'))).to.deep.equal([]);
      // A composite primary key is served, its id the parts in key order (composite-keys.test.ts).
      expect(warnings.filter((w) => w.startsWith('edition'))).to.deep.equal([]);
    });

    it('lists, sorts and includes across to-one and many-to-many relationships', async () => {
      const r = await a.get('/api/book?sort=title&include=author,tags&fields[author]=name');
      expect(r.status).to.equal(200);
      expect(r.body.meta.total).to.equal(4);
      expect(r.body.data.map((x: { attributes: { title: string } }) => x.attributes.title)).to.deep.equal([
        'Compiling Routines',
        'Notes on the Engine',
        'On the Economy of Machinery',
        'Passages from the Life',
      ]);
      const notes = r.body.data[1];
      expect(Object.keys(notes.relationships)).to.have.members(['author', 'editor', 'category', 'editions', 'tags']);
      expect(notes.relationships.author.data).to.deep.equal({ type: 'author', id: '1' });
      expect(notes.relationships.editor.data).to.deep.equal({ type: 'author', id: '2' });
      expect(notes.relationships.tags.data).to.deep.equal([
        { type: 'tag', id: '1' },
        { type: 'tag', id: '2' },
      ]);
      expect(notes.attributes).to.deep.include({ published_on: '1843-09-01', price: '12.50', pages: 66 });
      expect(notes.attributes.added_at).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
      const included = r.body.included.map((x: { type: string; id: string }) => `${x.type}/${x.id}`).sort();
      expect(included).to.deep.equal(['author/1', 'author/2', 'author/3', 'tag/1', 'tag/2', 'tag/3']);
      expect(r.body.included.find((x: { type: string }) => x.type === 'author').attributes).to.have.keys(['name']);
    });

    it('filters through relationships with has and any', async () => {
      const any = await a.get(
        `/api/book?${q([{ name: 'tags', op: 'any', val: { name: 'name', op: '==', val: 'programming' } }])}`,
      );
      expect(ids(any.body)).to.deep.equal(['1', '3']);
      const has = await a.get(
        `/api/book?${q([{ name: 'author', op: 'has', val: { name: 'active', op: '==', val: true } }])}`,
      );
      expect(ids(has.body)).to.deep.equal(['1', '3']);
      const editors = await a.get(
        `/api/author?${q([{ name: 'books_by_editor', op: 'any', val: { name: 'pages', op: '>', val: 100 } }])}`,
      );
      expect(ids(editors.body)).to.deep.equal(['1', '2']);
    });

    it('follows a self-reference, two foreign keys to one table, and a unique foreign key', async () => {
      expect(ids((await a.get('/api/category/1/categories')).body)).to.deep.equal(['2', '3']);
      expect((await a.get('/api/category/2/parent')).body.data.attributes.name).to.equal('Science');
      expect(ids((await a.get('/api/author/2/books_by_author')).body)).to.deep.equal(['2', '4']);
      expect(ids((await a.get('/api/author/2/books_by_editor')).body)).to.deep.equal(['1', '4']);
      expect((await a.get('/api/author/1/profile')).body.data).to.deep.include({ type: 'profile', id: '1' });
      expect((await a.get('/api/author/3/profile')).body.data).to.equal(null);
      expect((await a.get('/api/book/1/relationships/tags')).body.data).to.deep.equal([
        { type: 'tag', id: '1' },
        { type: 'tag', id: '2' },
      ]);
      expect(ids((await a.get('/api/tag/2/books')).body)).to.deep.equal(['1', '3']);
    });

    it('evaluates functions where the configuration allows them', async () => {
      const functions = encodeURIComponent(
        JSON.stringify([
          { name: 'sum', field: 'pages' },
          { name: 'count', field: 'id' },
          { name: 'max', field: 'published_on' },
        ]),
      );
      const r = await a.get(`/api/eval/book?functions=${functions}`);
      expect(r.status).to.equal(200);
      expect(r.body.data).to.deep.equal([1090, 4, '1952-05-01']);
      expect(
        (await a.get(`/api/eval/author?functions=${encodeURIComponent('[{"name":"count","field":"id"}]')}`)).status,
      ).to.equal(404);
    });

    it('serves bytes as base64 and a computed column read-only, and shows a renamed column under its new name', async () => {
      const r = await a.get('/api/author/1');
      expect(r.body.data.attributes).to.deep.include({
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        birth_date: '1815-12-10',
        active: true,
        photo: null,
        name_length: 12,
      });
      const bytes = Buffer.from([0, 1, 2, 250, 255, 10]).toString('base64');
      const written = await a.patch('/api/author/1', {
        data: { type: 'author', id: '1', attributes: { photo: bytes } },
      });
      expect(written.status, JSON.stringify(written.body)).to.equal(200);
      expect((await a.get('/api/author/1')).body.data.attributes.photo).to.equal(bytes);
      const found = await a.get(`/api/author?${q([{ name: 'photo', op: '==', val: bytes }])}`);
      expect(ids(found.body)).to.deep.equal(['1']);
      const computed = await a.patch('/api/author/1', {
        data: { type: 'author', id: '1', attributes: { name_length: 3 } },
      });
      expect(computed.status).to.equal(400);
      expect(computed.body.errors[0].source).to.deep.equal({ pointer: '/data/attributes/name_length' });
      const notBase64 = await a.patch('/api/author/1', {
        data: { type: 'author', id: '1', attributes: { photo: 'not base64!' } },
      });
      expect(notBase64.status).to.equal(400);
      await a.patch('/api/author/1', { data: { type: 'author', id: '1', attributes: { photo: null } } });
      const sorted = await a.get(
        `/api/author?sort=-birth_date&${q([{ name: 'birth_date', op: '<', val: '1900-01-01' }])}`,
      );
      expect(ids(sorted.body)).to.deep.equal(['1', '2']);
      expect((await a.get('/api/edition/1,1')).body.data.attributes).to.deep.equal({ number: 1, year: 1843 });
    });

    it('serves a view read-only', async () => {
      const r = await a.get('/api/book_summary?sort=id');
      expect(r.status).to.equal(200);
      expect(r.body.data[0]).to.deep.include({
        type: 'book_summary',
        id: '1',
        attributes: { title: 'Notes on the Engine', pages: 66, author_name: 'Ada Lovelace' },
      });
      const post = await a.post('/api/book_summary', { data: { type: 'book_summary', attributes: { title: 'x' } } });
      expect(post.status).to.equal(405);
      expect(post.headers.get('allow')).to.equal('GET');
    });

    it('describes itself in OpenAPI and serves the browsable page', async () => {
      const doc = (await a.get('/api/openapi.json')).body;
      expect(Object.keys(doc.paths)).to.include.members([
        '/api/book',
        '/api/book/{id}',
        '/api/book/{id}/tags',
        '/api/eval/book',
        '/api/book_summary',
      ]);
      const create =
        doc.components.schemas['author-create'] ??
        Object.entries(doc.components.schemas).find(([k]) => /author.*create/.test(k))?.[1];
      const required = JSON.stringify(create);
      // name is required; active has a default and is not.
      expect(required).to.contain('"name"');
      expect(required).not.to.match(/"required":\[[^\]]*"active"/);
      const page = await fetch(`${jsonapi.origin}/`);
      expect(page.status).to.equal(200);
      expect(await page.text()).to.contain('browsable API');
    });

    it('answers Format B: relation__field filters, nested related instances, PUT', async () => {
      const search = encodeURIComponent(
        JSON.stringify({
          filters: [{ name: 'author__name', op: 'like', val: '%Babbage' }],
          order_by: [{ field: 'id' }],
        }),
      );
      const r = await b.get(`/api/book?q=${search}`);
      expect(r.status).to.equal(200);
      expect(r.body.objects.map((o: { id: number }) => o.id)).to.deep.equal([2, 4]);
      expect(r.body.objects[0].author).to.deep.include({ id: 2, name: 'Charles Babbage' });
      expect((await b.get('/api/category/1/categories')).body.objects.map((o: { id: number }) => o.id)).to.deep.equal([
        2, 3,
      ]);
      expect((await b.put('/api/tag/3', { name: 'History' })).status).to.equal(200);
      expect((await b.get('/api/tag/3')).body.name).to.equal('History');
    });

    it('writes: defaults fill what a create leaves out, relationships are set, foreign keys are kept', async () => {
      const created = await a.post('/api/author', {
        data: { type: 'author', attributes: { name: 'Alan Turing', birth_date: '1912-06-23' } },
      });
      expect(created.status).to.equal(201);
      expect(created.body.data.attributes).to.deep.include({
        name: 'Alan Turing',
        birth_date: '1912-06-23',
        active: true,
      });
      const id = created.body.data.id;
      const [row] = await sql.knex('author').where('id', Number(id)).select('born');
      expect(String(row.born)).to.contain('1912-06-23');
      const book = await a.post('/api/book', {
        data: {
          type: 'book',
          attributes: { title: 'On Computable Numbers', pages: 36 },
          relationships: { author: { data: { type: 'author', id } }, tags: { data: [{ type: 'tag', id: '2' }] } },
        },
      });
      expect(book.status).to.equal(201);
      const bookId = book.body.data.id;
      expect((await a.get(`/api/book/${bookId}/relationships/tags`)).body.data).to.deep.equal([
        { type: 'tag', id: '2' },
      ]);
      const patched = await a.patch(`/api/book/${bookId}`, {
        data: {
          type: 'book',
          id: bookId,
          attributes: { price: 9.5 },
          relationships: { category: { data: { type: 'category', id: '2' } } },
        },
      });
      expect(patched.status).to.equal(200);
      // A numeric(8,2) answers its exact text at its scale, whatever form it was written in.
      expect(patched.body.data.attributes.price).to.equal('9.50');
      expect((await a.delete(`/api/author/${id}`)).status).to.equal(409);
      await sql.knex('book_tag').where('book_id', Number(bookId)).del();
      expect((await a.delete(`/api/book/${bookId}`)).status).to.equal(204);
      expect((await a.delete(`/api/author/${id}`)).status).to.equal(204);
      const invalid = await a.post('/api/author', {
        data: { type: 'author', attributes: { birth_date: '1912-06-23' } },
      });
      expect(invalid.status).to.equal(400);
    });
  });
}
