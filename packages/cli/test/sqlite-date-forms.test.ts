import { connect, disconnect, type Database } from '@colapi/sql-compiler';
import {
  filterParam,
  HttpClient,
  testDatabaseOrSkip,
  testedKinds,
  type TestDatabase,
} from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { serveCatalogue, type CatalogueServer } from '../src/index.js';

/**
 * SQLite keeps dates as text in whatever form wrote them; Chinook's script writes `2009-01-01 00:00:00`. Each
 * column's form is found in its rows: values are written and compared in it, and answered in the wire's.
 */
const SCHEMA = [
  `create table invoice (id integer primary key, issued datetime not null, due date, stamped datetime,
     mixed datetime, empty datetime, clock time)`,
  `insert into invoice (issued, due, stamped, mixed, clock) values
     ('2021-01-01 00:00:00', '2021-02-01 00:00:00', '2021-01-01 08:00:00.000', '2021-01-01 00:00:00', '08:00:00.00'),
     ('2021-01-02 00:00:00', '2021-02-02 00:00:00', '2021-01-02 08:00:00.250', '2021-01-02T00:00:00', '09:00:00.50'),
     ('2021-01-03 10:30:00', '2021-02-03 00:00:00', '2021-01-03 08:00:00.500', null, '10:00:00.00')`,
];

if (testedKinds().includes('sqlite')) {
  describe('colapi serve: SQLite dates in the text form their column holds', function () {
    this.timeout(60_000);
    let db: TestDatabase | undefined;
    let sql: Database;
    let jsonapi: CatalogueServer | undefined;
    let legacy: CatalogueServer | undefined;
    let a: HttpClient;
    let b: HttpClient;
    const stored = async (id: number | string, column: string): Promise<unknown> =>
      (await sql.knex('invoice').where('id', id).first(column))?.[column];
    const ids = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);

    before(async function () {
      db = await testDatabaseOrSkip(this, 'sqlite');
      sql = connect(db!.url, { pool: { min: 0, max: 1 } });
      for (const statement of SCHEMA) await sql.knex.raw(statement);
      jsonapi = await serveCatalogue({ databaseUrl: db!.url, format: 'jsonapi' });
      legacy = await serveCatalogue({ databaseUrl: db!.url, format: 'legacy' });
      a = new HttpClient(jsonapi.origin, 'application/vnd.api+json');
      b = new HttpClient(legacy.origin, 'application/json');
    });
    after(async () => {
      await jsonapi?.close(500);
      await legacy?.close(500);
      if (sql) await disconnect(sql);
      await db?.drop();
    });

    it('finds each column’s form in its rows; a column of mixed forms or of no values has none', () => {
      const columns = jsonapi!.current().registry.collection('invoice')!.model.columns;
      const forms = Object.fromEntries([...columns.values()].map((c) => [c.name, [c.textForm, c.fractionDigits]]));
      expect(forms).to.deep.equal({
        id: [undefined, undefined],
        issued: ['YYYY-MM-DD HH:MM:SS', undefined],
        due: ['YYYY-MM-DD HH:MM:SS', undefined],
        stamped: ['YYYY-MM-DD HH:MM:SS.SSS', 3],
        mixed: [undefined, undefined],
        empty: [undefined, undefined],
        clock: ['HH:MM:SS.SS', 2],
      });
    });

    it('answers the wire form', async () => {
      const res = await a.get('/api/invoice/2');
      expect(res.body.data.attributes).to.deep.equal({
        issued: '2021-01-02T00:00:00',
        due: '2021-02-02',
        stamped: '2021-01-02T08:00:00.25',
        mixed: '2021-01-02T00:00:00',
        empty: null,
        clock: '09:00:00.5',
      });
    });

    it('finds a row by the value the API answered for it, with == and in', async () => {
      for (const [field, value, other] of [
        ['issued', '2021-01-02T00:00:00', '1999-01-01T00:00:00'],
        ['due', '2021-02-02', '1999-01-01'],
        ['stamped', '2021-01-02T08:00:00.25', '1999-01-01T00:00:00'],
        ['clock', '09:00:00.5', '23:00:00'],
      ]) {
        const eq = await a.get(`/api/invoice?${filterParam([{ name: field, op: '==', val: value }])}`);
        expect(ids(eq.body), field).to.deep.equal(['2']);
        const among = await a.get(`/api/invoice?${filterParam([{ name: field, op: 'in', val: [value, other] }])}`);
        expect(ids(among.body), field).to.deep.equal(['2']);
      }
      // A space on input is the same value.
      const spaced = await a.get(
        `/api/invoice?${filterParam([{ name: 'issued', op: '==', val: '2021-01-03 10:30:00' }])}`,
      );
      expect(ids(spaced.body)).to.deep.equal(['3']);
    });

    it('answers the right rows to range filters, in both formats', async () => {
      const after = [{ name: 'issued', op: '>', val: '2021-01-02T00:00:00' }];
      expect(ids((await a.get(`/api/invoice?${filterParam(after)}`)).body)).to.deep.equal(['3']);
      const from = [{ name: 'issued', op: '>=', val: '2021-01-02T00:00:00' }];
      expect(ids((await a.get(`/api/invoice?${filterParam(from)}`)).body)).to.deep.equal(['2', '3']);
      const before = [{ name: 'stamped', op: '<', val: '2021-01-02T08:00:00.25' }];
      expect(ids((await a.get(`/api/invoice?${filterParam(before)}`)).body)).to.deep.equal(['1']);
      // A value with more fraction digits than the column writes compares as the finer value it is.
      const finer = [{ name: 'stamped', op: '>', val: '2021-01-02T08:00:00.2501' }];
      expect(ids((await a.get(`/api/invoice?${filterParam(finer)}`)).body)).to.deep.equal(['3']);
      const q = JSON.stringify({ filters: [{ name: 'due', op: 'lt', val: '2021-02-02' }] });
      const legacyList = await b.get(`/api/invoice?q=${encodeURIComponent(q)}`);
      expect(legacyList.body.objects.map((o: { id: number }) => o.id)).to.deep.equal([1]);
    });

    it('writes in the column’s form, on create and update, and answers the wire form', async () => {
      const created = await a.post('/api/invoice', {
        data: {
          type: 'invoice',
          attributes: {
            issued: '2021-01-04T08:15:00',
            due: '2021-02-04',
            stamped: '2021-01-04T08:00:00.5',
            mixed: '2021-01-04T00:00:00',
            empty: '2021-01-04 01:00:00',
            clock: '11:00:00',
          },
        },
      });
      expect(created.status).to.equal(201);
      expect(created.body.data.attributes).to.deep.include({
        issued: '2021-01-04T08:15:00',
        due: '2021-02-04',
        stamped: '2021-01-04T08:00:00.5',
        empty: '2021-01-04T01:00:00',
        clock: '11:00:00',
      });
      const id = created.body.data.id as string;
      expect(await stored(id, 'issued')).to.equal('2021-01-04 08:15:00');
      expect(await stored(id, 'due')).to.equal('2021-02-04 00:00:00');
      expect(await stored(id, 'stamped')).to.equal('2021-01-04 08:00:00.500');
      expect(await stored(id, 'clock')).to.equal('11:00:00.00');
      // Mixed and empty columns are written in the wire's form.
      expect(await stored(id, 'mixed')).to.equal('2021-01-04T00:00:00');
      expect(await stored(id, 'empty')).to.equal('2021-01-04T01:00:00');

      const patched = await b.patch(`/api/invoice/${id}`, {
        issued: '2021-01-05T09:00:00',
        stamped: '2021-01-05T08:00:00',
      });
      expect(patched.status).to.equal(200);
      expect(await stored(id, 'issued')).to.equal('2021-01-05 09:00:00');
      expect(await stored(id, 'stamped')).to.equal('2021-01-05 08:00:00.000');
      const found = await a.get(
        `/api/invoice?${filterParam([{ name: 'issued', op: '==', val: '2021-01-05T09:00:00' }])}`,
      );
      expect(ids(found.body)).to.deep.equal([id]);
      await sql.knex('invoice').where('id', id).del();
    });

    it('writes and compares the database clock in the column’s form', async () => {
      const created = await a.post('/api/invoice', {
        data: {
          type: 'invoice',
          attributes: { issued: 'CURRENT_TIMESTAMP', due: 'CURRENT_DATE', stamped: 'CURRENT_TIMESTAMP' },
        },
      });
      expect(created.status).to.equal(201);
      const id = created.body.data.id as string;
      expect(await stored(id, 'issued')).to.match(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(await stored(id, 'due')).to.match(/^\d{4}-\d{2}-\d{2} 00:00:00$/);
      expect(await stored(id, 'stamped')).to.match(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.000$/);
      const past = [{ name: 'issued', op: '<=', val: 'CURRENT_TIMESTAMP' }];
      expect(ids((await a.get(`/api/invoice?${filterParam(past)}`)).body)).to.deep.equal(['1', '2', '3', id]);
      await sql.knex('invoice').where('id', id).del();
    });

    it('keeps the form across a reload of the catalogue, rows written through the API included', async () => {
      const created = await a.post('/api/invoice', {
        data: { type: 'invoice', attributes: { issued: '2021-01-06T00:00:00' } },
      });
      const again = await serveCatalogue({ databaseUrl: db!.url, format: 'jsonapi' });
      try {
        const column = again.current().registry.collection('invoice')!.model.columns.get('issued')!;
        expect(column.textForm).to.equal('YYYY-MM-DD HH:MM:SS');
      } finally {
        await again.close(500);
        await sql.knex('invoice').where('id', created.body.data.id).del();
      }
    });
  });
}
