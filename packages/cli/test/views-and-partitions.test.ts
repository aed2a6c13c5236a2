import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, disconnect, type Database } from '@colapi/sql-compiler';
import { HttpClient, testDatabaseOrSkip, testedKinds, type TestDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { colapi, freePort, line, stop, type Run } from './colapi-process.js';

/** What `colapi serve` serves of PostgreSQL's views, materialized views and partitioned tables, over HTTP. */
const DDL = [
  'create table maker (id integer primary key, name varchar(40) not null)',
  'create table gadget (code varchar(10) primary key, label varchar(40) not null, maker_id integer references maker (id))',
  // A view over one table: keyed by the column showing its key, under another name.
  'create view gadget_card as select code as ref, upper(label) as title from gadget',
  // A materialized view keyed by its unique index; one made WITH NO DATA.
  'create materialized view maker_stats as select m.id as maker, count(g.code) as gadgets from maker m left join gadget g on g.maker_id = m.id group by m.id with no data',
  'create unique index on maker_stats (maker)',
  'create materialized view gadget_pending as select code, label from gadget with no data',
  // A partitioned table with a key of its own, and one keyed by the key its partitions share.
  'create table reading (id integer primary key, maker_id integer references maker (id), value integer not null) partition by range (id)',
  'create table reading_low partition of reading for values from (minvalue) to (1000)',
  'create table reading_high partition of reading for values from (1000) to (maxvalue)',
  'create table sale (id integer not null, sold_on date not null, gadget_code varchar(10) not null references gadget (code)) partition by range (sold_on)',
  "create table sale_2024 partition of sale (primary key (id)) for values from ('2024-01-01') to ('2025-01-01')",
  "create table sale_2025 partition of sale (primary key (id)) for values from ('2025-01-01') to ('2026-01-01')",
];

const ROWS = [
  "insert into maker (id, name) values (1, 'Acme'), (2, 'Bolt')",
  "insert into gadget (code, label, maker_id) values ('a1', 'anvil', 1), ('b2', 'bolt', 2), ('r3', 'rope', 1)",
  'refresh materialized view maker_stats',
  'insert into reading (id, maker_id, value) values (5, 1, 50), (1500, 2, 150)',
  "insert into sale (id, sold_on, gadget_code) values (1, '2024-03-01', 'a1'), (2, '2025-06-01', 'b2')",
];

const MEDIA = { jsonapi: 'application/vnd.api+json', legacy: 'application/json' } as const;

if (testedKinds().includes('postgres')) {
  describe('colapi serve: views, materialized views and partitioned tables [postgres]', function () {
    this.timeout(60_000);
    let db: TestDatabase | undefined;
    let sql: Database;
    const runs: Run[] = [];
    const http: Partial<Record<keyof typeof MEDIA, HttpClient>> = {};
    const dir = mkdtempSync(join(tmpdir(), 'colapi-views-'));
    const config = join(dir, 'colapi.config.json');

    before(async function () {
      db = await testDatabaseOrSkip(this, 'postgres');
      sql = connect(db!.url, { pool: { min: 0, max: 1 } });
      for (const statement of [...DDL, ...ROWS]) await sql.knex.raw(statement);
      writeFileSync(
        config,
        JSON.stringify({ tables: { gadget_pending: { collections: [{ allow_functions: true }] } } }),
      );
      for (const format of ['jsonapi', 'legacy'] as const) {
        const run = colapi([
          'serve',
          db!.url,
          '--port',
          String(await freePort()),
          '--format',
          format,
          '--config',
          config,
        ]);
        runs.push(run);
        const [, origin] = await line(run, /^listening on (http:\/\/\S+)$/);
        http[format] = new HttpClient(origin!, MEDIA[format]);
      }
    });
    after(async () => {
      for (const run of runs) await stop(run);
      if (sql) await disconnect(sql);
      await db?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    const a = () => http.jsonapi!;
    const b = () => http.legacy!;
    const ids = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);

    it('serves them all, and says at start that the partitions are served through their tables', () => {
      const [run] = runs;
      expect(run!.stderr).to.contain(
        'colapi: serving 7 collections (gadget, gadget_card, gadget_pending, maker, maker_stats, reading, sale)',
      );
      expect(run!.stderr).to.contain('warning: reading_high, reading_low: partitions of reading, served through it\n');
      expect(run!.stderr).to.contain(
        'warning: sale_2024, sale_2025: partitions of sale, served through it; keyed by id, a key of each partition, which PostgreSQL holds unique within a partition only\n',
      );
    });

    it('lists and fetches a view by the key of its base table, read-only', async () => {
      const list = await a().get('/api/gadget_card?sort=ref');
      expect(list.status, list.text).to.equal(200);
      expect(ids(list.body)).to.deep.equal(['a1', 'b2', 'r3']);
      const one = await a().get('/api/gadget_card/b2');
      expect(one.status).to.equal(200);
      expect(one.body.data).to.deep.include({ type: 'gadget_card', id: 'b2', attributes: { title: 'BOLT' } });
      expect((await b().get('/api/gadget_card/r3')).body).to.deep.equal({ ref: 'r3', title: 'ROPE' });
      const post = await a().post('/api/gadget_card', { data: { type: 'gadget_card', attributes: { title: 'X' } } });
      expect(post.status).to.equal(405);
    });

    it('lists and fetches a materialized view by its unique index', async () => {
      const list = await a().get('/api/maker_stats?sort=maker');
      expect(list.status, list.text).to.equal(200);
      expect(list.body.data.map((r: { id: string; attributes: object }) => [r.id, r.attributes])).to.deep.equal([
        ['1', { gadgets: 2 }],
        ['2', { gadgets: 1 }],
      ]);
      expect((await b().get('/api/maker_stats/2')).body).to.deep.equal({ maker: 2, gadgets: 1 });
    });

    it('reads, writes and deletes the rows of a partitioned table through it, in whichever partition they live', async () => {
      const low = await a().get('/api/reading/5?include=maker');
      expect(low.status, low.text).to.equal(200);
      expect(low.body.data.attributes).to.deep.equal({ value: 50 });
      expect(low.body.included.map((r: { id: string }) => r.id)).to.deep.equal(['1']);
      expect((await b().get('/api/reading/1500')).body).to.deep.include({ id: 1500, value: 150 });
      expect(ids((await a().get('/api/reading?sort=-id')).body)).to.deep.equal(['1500', '5']);
      const readings = await a().get('/api/maker/2/readings');
      expect(ids(readings.body)).to.deep.equal(['1500']);
      const created = await a().post('/api/reading', {
        data: {
          type: 'reading',
          id: '2000',
          attributes: { value: 200 },
          relationships: { maker: { data: { type: 'maker', id: '1' } } },
        },
      });
      expect(created.status, created.text).to.equal(201);
      const [{ partition }] = (
        await sql.knex.raw('select tableoid::regclass::text as partition from reading where id = 2000')
      ).rows;
      expect(partition).to.equal('reading_high');
      expect((await a().delete('/api/reading/2000')).status).to.equal(204);
      expect((await a().get('/api/reading/2000')).status).to.equal(404);
    });

    it('fetches the rows of a table keyed by its partitions’ key, from each partition, with their relationships', async () => {
      const one = await a().get('/api/sale/1?include=gadget_code_gadget');
      expect(one.status, one.text).to.equal(200);
      expect(one.body.data.attributes).to.deep.equal({ sold_on: '2024-03-01' });
      expect(one.body.included.map((r: { id: string }) => r.id)).to.deep.equal(['a1']);
      expect((await b().get('/api/sale/2')).body).to.deep.include({ id: 2, sold_on: '2025-06-01' });
      expect(ids((await a().get('/api/gadget/b2/sales')).body)).to.deep.equal(['2']);
    });

    const detail =
      'a materialized view this request reads has not been populated: it is served once REFRESH MATERIALIZED VIEW has filled it';
    const filters = encodeURIComponent(JSON.stringify([{ name: 'code', op: 'eq', val: 'a1' }]));
    const functions = JSON.stringify([{ name: 'count', field: 'code' }]);
    for (const [what, jsonapi, legacy] of [
      ['a list', '/api/gadget_pending', '/api/gadget_pending'],
      ['a resource', '/api/gadget_pending/a1', '/api/gadget_pending/a1'],
      [
        'a search',
        `/api/gadget_pending?filter[objects]=${filters}`,
        `/api/gadget_pending?q=${encodeURIComponent(`{"filters":${decodeURIComponent(filters)}}`)}`,
      ],
      [
        'a function evaluation',
        `/api/eval/gadget_pending?functions=${encodeURIComponent(functions)}`,
        `/api/eval/gadget_pending?q=${encodeURIComponent(`{"functions":${functions}}`)}`,
      ],
    ]) {
      it(`answers 503 for an unpopulated materialized view, in both formats: ${what}`, async () => {
        const answer = await a().get(jsonapi!);
        expect(answer.status, answer.text).to.equal(503);
        expect(answer.body.errors).to.deep.equal([{ status: '503', title: 'Service Unavailable', detail }]);
        const plain = await b().get(legacy!);
        expect(plain.status, plain.text).to.equal(503);
        expect(plain.body).to.deep.equal({ message: detail });
      });
    }

    it('serves the materialized view once it is refreshed', async () => {
      await sql.knex.raw('refresh materialized view gadget_pending');
      const list = await a().get('/api/gadget_pending?sort=code');
      expect(list.status, list.text).to.equal(200);
      expect(ids(list.body)).to.deep.equal(['a1', 'b2', 'r3']);
    });
  });
}
