import { connect, disconnect, type Database } from '@colapi/sql-compiler';
import {
  type DatabaseKind,
  HttpClient,
  testDatabaseOrSkip,
  testedKinds,
  type TestDatabase,
} from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { serveCatalogue, type CatalogueServer } from '../src/index.js';

/**
 * Keys real schemas hold that a plain integer or text does not: a 64-bit integer past 2^53 (every database),
 * and on MariaDB/MySQL, which have no uuid type of their own, UUIDs kept as `char(36)`. Served through `colapi
 * serve` with no configuration, in both formats.
 */
const BIG = '9007199254740993';
const BIGGER = '9007199254740995';

const BIG_SCHEMAS: Record<DatabaseKind, readonly string[]> = {
  postgres: [
    'create table account (id bigint primary key, name text not null, counter bigint)',
    'create table entry (id bigint primary key, account_id bigint references account (id), note text)',
  ],
  mysql: [
    'create table account (id bigint primary key, name varchar(50) not null, counter bigint)',
    'create table entry (id bigint primary key, account_id bigint, note varchar(50), foreign key (account_id) references account (id))',
  ],
  sqlite: [
    'create table account (id bigint primary key, name text not null, counter bigint)',
    'create table entry (id bigint primary key, account_id bigint references account (id), note text)',
  ],
};

for (const kind of testedKinds()) {
  describe(`colapi serve: integer keys past 2^53, exact in both formats [${kind}]`, function () {
    this.timeout(60_000);
    let db: TestDatabase | undefined;
    let sql: Database;
    let a: HttpClient;
    let b: HttpClient;
    let servers: CatalogueServer[] = [];

    before(async function () {
      db = await testDatabaseOrSkip(this, kind);
      sql = connect(db!.url, { pool: { min: 0, max: 1 } });
      for (const statement of BIG_SCHEMAS[kind]) await sql.knex.raw(statement);
      const small = { pool: { min: 0, max: 2 } };
      servers = [
        await serveCatalogue({ databaseUrl: db!.url, format: 'jsonapi', connect: small }),
        await serveCatalogue({ databaseUrl: db!.url, format: 'legacy', connect: small }),
      ];
      a = new HttpClient(servers[0]!.origin, 'application/vnd.api+json');
      b = new HttpClient(servers[1]!.origin, 'application/json');
    });
    after(async () => {
      for (const s of servers) await s.close(500);
      if (sql) await disconnect(sql);
      await db?.drop();
    });

    it('creates a resource with a client id past 2^53 and answers it as the same digits', async () => {
      const created = await a.post('/api/account', {
        data: { type: 'account', id: BIG, attributes: { name: 'big', counter: BIGGER } },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body.data.id).to.equal(BIG);
      expect(created.body.data.attributes).to.deep.include({ counter: BIGGER });
      const small = await b.post('/api/account', { id: 7, name: 'small', counter: 5 });
      expect(small.status, JSON.stringify(small.body)).to.equal(201);
      // An ordinary integer stays a JSON number.
      expect(small.body).to.deep.include({ id: 7, counter: 5 });
      // The row holds the integer itself, not a rounded double nor text.
      const [row] = (await sql
        .knex('account')
        .where('name', 'big')
        .select(sql.knex.raw('cast(id as char(20)) as id'))) as {
        id: string;
      }[];
      expect(String(row!.id).trim()).to.equal(BIG);
    });

    it('fetches it by its id in a URL, in both formats, and not by its neighbours', async () => {
      const one = await a.get(`/api/account/${BIG}`);
      expect(one.status).to.equal(200);
      expect(one.body.data).to.deep.include({ id: BIG });
      const legacy = await b.get(`/api/account/${BIG}`);
      expect(legacy.status).to.equal(200);
      expect(legacy.body).to.deep.include({ id: BIG, counter: BIGGER });
      // 2^53 + 2 and 2^53 are the doubles either side of it: a key read through a double would match one.
      expect((await a.get('/api/account/9007199254740992')).status).to.equal(404);
      expect((await a.get('/api/account/9007199254740994')).status).to.equal(404);
    });

    it('finds it by a filter on its key and on a big counter, and lists it with the others', async () => {
      const byKey = encodeURIComponent(JSON.stringify([{ name: 'id', op: '==', val: BIG }]));
      expect(
        (await a.get(`/api/account?filter[objects]=${byKey}`)).body.data.map((r: { id: string }) => r.id),
      ).to.deep.equal([BIG]);
      const byCounter = encodeURIComponent(JSON.stringify([{ name: 'counter', op: 'in', val: [BIGGER, 1] }]));
      expect(
        (await a.get(`/api/account?filter[objects]=${byCounter}`)).body.data.map((r: { id: string }) => r.id),
      ).to.deep.equal([BIG]);
      const q = encodeURIComponent(JSON.stringify({ order_by: [{ field: 'id', direction: 'desc' }] }));
      const list = await b.get(`/api/account?q=${q}`);
      expect(list.body.objects.map((r: { id: unknown }) => r.id)).to.deep.equal([BIG, 7]);
    });

    it('relates a row to it and follows the relationship both ways', async () => {
      const entry = await a.post('/api/entry', {
        data: {
          type: 'entry',
          id: BIGGER,
          attributes: { note: 'n' },
          relationships: { account: { data: { type: 'account', id: BIG } } },
        },
      });
      expect(entry.status, JSON.stringify(entry.body)).to.equal(201);
      expect(entry.body.data.relationships.account.data).to.deep.equal({ type: 'account', id: BIG });
      const entries = await a.get(`/api/account/${BIG}/entries`);
      expect(entries.body.data.map((e: { id: string }) => e.id)).to.deep.equal([BIGGER]);
      const included = await a.get(`/api/entry/${BIGGER}?include=account`);
      expect(included.body.included[0]).to.deep.include({ type: 'account', id: BIG });
      const linkage = await a.get(`/api/account/${BIG}/relationships/entries`);
      expect(linkage.body.data).to.deep.equal([{ type: 'entry', id: BIGGER }]);
      const withLinkage = await a.get(`/api/account/${BIG}`);
      expect(withLinkage.body.data.relationships.entries.data).to.deep.equal([{ type: 'entry', id: BIGGER }]);
    });
  });
}
