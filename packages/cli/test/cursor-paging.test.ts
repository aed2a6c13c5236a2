import type { CatalogueConfig } from '@colapi/catalogue';
import { type HttpClient, testedKinds } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import type { Database } from '@colapi/sql-compiler';
import { serveLibrary } from './served-library.js';

const PROFILE_TYPE = 'application/vnd.api+json; profile="https://jsonapi.org/profiles/ethanresnick/cursor-pagination"';
const SECRET = 'a key every worker shares';

/** Books paged by cursor with an exact total, and the key cursors are signed with, from the configuration. */
const CONFIG = {
  cursorSecret: SECRET,
  tables: { book: { collections: [{ paging: 'cursor', total: 'exact' }] } },
} as CatalogueConfig;

/** A cursor of `/api/book` without sort or filter at the book `id`, signed as the server signs it. */
function cursorOf(id: number): string {
  const payload = Buffer.from(JSON.stringify([id])).toString('base64url');
  return `${payload}.${createHmac('sha256', SECRET).update('/api/book\n\n').update('\n').update(payload).digest('base64url')}`;
}

const ids = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);

for (const kind of testedKinds()) {
  describe(`colapi serve: paging "cursor" and cursorSecret from colapi.config.json [${kind}]`, function () {
    this.timeout(60_000);
    const library = serveLibrary(kind, CONFIG);
    let a: HttpClient;
    let b: HttpClient;
    let sql: Database;
    let books: string[];
    before(async () => {
      ({ a, b, sql } = library());
      books = (await sql.knex('book').select('id').orderBy('id')).map((r: { id: number }) => String(r.id));
    });

    it('pages the collection by cursor unasked, with meta.page.total, to the end and back', async () => {
      expect(books.length).to.be.greaterThan(2);
      const first = await a.get('/api/book?page[size]=2');
      expect(first.status, first.text).to.equal(200);
      expect(first.headers.get('content-type')).to.equal(PROFILE_TYPE);
      expect(first.body.meta).to.deep.equal({ page: { total: books.length } });
      const seen = [...ids(first.body)];
      let res = first;
      while (res.body.links.next) {
        const next = new URL(res.body.links.next);
        res = await a.get(next.pathname + next.search);
        expect(res.status, res.text).to.equal(200);
        seen.push(...ids(res.body));
      }
      expect(seen).to.deep.equal(books);
    });

    it('signs cursors with the configured cursorSecret', async () => {
      const res = await a.get(`/api/book?page[size]=1&page[after]=${encodeURIComponent(cursorOf(Number(books[0])))}`);
      expect(res.status, res.text).to.equal(200);
      expect(ids(res.body)).to.deep.equal([books[1]]);
      expect(res.body.data[0].meta.page.cursor).to.equal(cursorOf(Number(books[1])));
    });

    it('leaves Format B paging as it was', async () => {
      const res = await b.get('/api/book?page=1&results_per_page=2');
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(res.body.objects.map((o: { id: number }) => String(o.id))).to.deep.equal(books.slice(0, 2));
      expect(res.body.num_results).to.equal(books.length);
    });
  });
}
