import { connect, disconnect, type Database } from '@colapi/sql-compiler';
import { filterParam, HttpClient, mustReachDatabases, testedKinds } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { serveCatalogue, type CatalogueServer } from '../src/index.js';
import { loadDataset, type LoadedDataset } from './dataset-loaders.js';

/**
 * Chinook's SQLite script writes its dates as `2009-01-01 00:00:00`: served with no configuration, a filter
 * on the value the API answers finds its rows, ranges count what SQL counts, and a write keeps the script's form.
 */
if (testedKinds().includes('sqlite')) {
  describe('colapi serve on Chinook (SQLite): dates in the form the script wrote them', function () {
    this.timeout(120_000);
    let loaded: LoadedDataset | undefined;
    let sql: Database;
    let jsonapi: CatalogueServer | undefined;
    let legacy: CatalogueServer | undefined;
    let a: HttpClient;
    let b: HttpClient;
    const sqlCount = async (where: string, bindings: string[]): Promise<number> =>
      Number((await sql.knex.raw(`select count(*) as n from Invoice where ${where}`, bindings))[0].n);

    before(async function () {
      try {
        loaded = await loadDataset('chinook', 'sqlite');
      } catch (error) {
        if (mustReachDatabases()) throw error;
        console.warn(`  ! ${(error as Error).message}; skipping`);
        this.skip();
      }
      sql = connect(loaded!.db.url, { pool: { min: 0, max: 1 } });
      jsonapi = await serveCatalogue({ databaseUrl: loaded!.db.url, format: 'jsonapi' });
      legacy = await serveCatalogue({ databaseUrl: loaded!.db.url, format: 'legacy' });
      a = new HttpClient(jsonapi.origin, 'application/vnd.api+json');
      b = new HttpClient(legacy.origin, 'application/json');
    });
    after(async () => {
      await jsonapi?.close(500);
      await legacy?.close(500);
      if (sql) await disconnect(sql);
      await loaded?.db.drop();
    });

    it('reads the form of InvoiceDate, BirthDate and HireDate from their rows', () => {
      const forms = (collection: string, names: string[]) =>
        names.map((n) => jsonapi!.current().registry.collection(collection)!.model.columns.get(n)!.textForm);
      expect(forms('Invoice', ['InvoiceDate'])).to.deep.equal(['YYYY-MM-DD HH:MM:SS']);
      expect(forms('Employee', ['BirthDate', 'HireDate'])).to.deep.equal([
        'YYYY-MM-DD HH:MM:SS',
        'YYYY-MM-DD HH:MM:SS',
      ]);
    });

    it('finds the invoices of a date by the value the API answered', async () => {
      const date = (await a.get('/api/Invoice/1')).body.data.attributes.InvoiceDate as string;
      expect(date).to.equal('2021-01-01T00:00:00');
      const found = await a.get(`/api/Invoice?${filterParam([{ name: 'InvoiceDate', op: '==', val: date }])}`);
      expect(found.body.meta.total).to.equal(await sqlCount('InvoiceDate = ?', ['2021-01-01 00:00:00']));
      expect(found.body.meta.total).to.be.above(0);
    });

    it('counts the invoices from, after, before and up to an invoice’s date as SQL does, in both formats', async () => {
      const date = (await a.get('/api/Invoice/100')).body.data.attributes.InvoiceDate as string;
      const stored = date.replace('T', ' ');
      for (const [op, legacyOp, sqlOp] of [
        ['>=', 'ge', '>='],
        ['>', 'gt', '>'],
        ['<', 'lt', '<'],
        ['<=', 'le', '<='],
      ] as const) {
        const expected = await sqlCount(`InvoiceDate ${sqlOp} ?`, [stored]);
        const filter = [{ name: 'InvoiceDate', op, val: date }];
        expect((await a.get(`/api/Invoice?${filterParam(filter)}`)).body.meta.total, op).to.equal(expected);
        const q = JSON.stringify({ filters: [{ name: 'InvoiceDate', op: legacyOp, val: date }] });
        expect((await b.get(`/api/Invoice?q=${encodeURIComponent(q)}`)).body.num_results, legacyOp).to.equal(expected);
      }
    });

    it('writes an invoice in the script’s form, and finds it by its date', async () => {
      const created = await b.post('/api/Invoice', {
        CustomerId: 1,
        InvoiceDate: '2026-11-27T08:00:00',
        Total: '1.98',
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const id = created.body.InvoiceId as number;
      try {
        const [row] = await sql.knex('Invoice').where('InvoiceId', id).select('InvoiceDate');
        expect(row.InvoiceDate).to.equal('2026-11-27 08:00:00');
        const on = [{ name: 'InvoiceDate', op: '==', val: '2026-11-27T08:00:00' }];
        const found = await a.get(`/api/Invoice?${filterParam(on)}`);
        expect(found.body.data.map((r: { id: string }) => r.id)).to.deep.equal([String(id)]);
      } finally {
        await sql.knex('Invoice').where('InvoiceId', id).del();
      }
    });
  });
}
