import type { CatalogueConfig } from '@colapi/catalogue';
import type { Database } from '@colapi/sql-compiler';
import { type HttpClient, testedKinds } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { serveLibrary } from './served-library.js';

/** tag.name is unique; the API calls it `label`. The database names the column `name` when it refuses a duplicate. */
const CONFIG: CatalogueConfig = { tables: { tag: { columns: { name: { name: 'label' } } } } };
const DETAIL = '"label" must be unique: another tag has the same value';

for (const kind of testedKinds()) {
  describe(`colapi serve: a unique violation on a renamed column names its field [${kind}]`, function () {
    this.timeout(60_000);
    const library = serveLibrary(kind, CONFIG);
    let a: HttpClient;
    let b: HttpClient;
    let sql: Database;
    before(() => {
      ({ a, b, sql } = library());
    });

    it('Format A: 409 with source.pointer at the attribute, on create and on update', async () => {
      const created = await a.post('/api/tag', { data: { type: 'tag', attributes: { label: 'classic' } } });
      expect(created.status).to.equal(409);
      expect(created.body.errors).to.have.length(1);
      expect(created.body.errors[0]).to.deep.include({
        status: '409',
        detail: DETAIL,
        source: { pointer: '/data/attributes/label' },
      });
      const updated = await a.patch('/api/tag/2', { data: { type: 'tag', id: '2', attributes: { label: 'classic' } } });
      expect(updated.status).to.equal(409);
      expect(updated.body.errors[0]).to.deep.include({ detail: DETAIL, source: { pointer: '/data/attributes/label' } });
    });

    it('Format B: 400 whose message names the field', async () => {
      const created = await b.post('/api/tag', { label: 'classic' });
      expect(created.status).to.equal(400);
      expect(created.body).to.deep.equal({ message: DETAIL });
      const updated = await b.patch('/api/tag/2', { label: 'history' });
      expect(updated.status).to.equal(400);
      expect(updated.body).to.deep.equal({ message: DETAIL });
    });

    it('leaves the rows as they were', async () => {
      const rows = await sql.knex('tag').orderBy('id').select('name');
      expect(rows.map((r: { name: string }) => r.name)).to.deep.equal(['classic', 'programming', 'history']);
    });
  });
}
