import { signDevelopmentToken, validateAuthConfig } from '@colapi/auth';
import { connect, disconnect, type Database } from '@colapi/sql-compiler';
import { HttpClient, testDatabaseOrSkip, testedKinds, type TestDatabase } from '@colapi/test-fixtures/testing';
import { operationAt, schemaChecker } from '@colapi/openapi-check';
import { expect } from 'chai';
import { serveCatalogue, type CatalogueServer } from '../src/index.js';

/**
 * Tables keyed by several columns through `colapi serve`, in both formats, on each database: `order_line`
 * (order_id, line_no), whose order_id refers to `orders` and whose warehouse_id to `warehouse`, and `sku_price`
 * (sku, region), keyed by text that may hold the id's separator and its escape character; `shipment_item`
 * refers to an order_line by a foreign key of both its columns. DDL only.
 */
const DDL: Record<'postgres' | 'mysql' | 'sqlite', readonly string[]> = {
  postgres: [
    'create table orders (id integer primary key, note varchar(40))',
    'create table warehouse (id integer primary key, name varchar(40) not null)',
    `create table order_line (order_id integer not null references orders (id), line_no integer not null,
      sku varchar(40) not null, qty integer not null, warehouse_id integer references warehouse (id),
      primary key (order_id, line_no))`,
    'create table sku_price (sku varchar(40) not null, region varchar(10) not null, price integer, primary key (sku, region))',
    `create table shipment_item (id serial primary key, order_id integer, line_no integer, qty integer not null,
      foreign key (order_id, line_no) references order_line (order_id, line_no))`,
  ],
  mysql: [
    'create table orders (id integer primary key, note varchar(40))',
    'create table warehouse (id integer primary key, name varchar(40) not null)',
    `create table order_line (order_id integer not null, line_no integer not null,
      sku varchar(40) not null, qty integer not null, warehouse_id integer,
      primary key (order_id, line_no), foreign key (order_id) references orders (id),
      foreign key (warehouse_id) references warehouse (id))`,
    'create table sku_price (sku varchar(40) not null, region varchar(10) not null, price integer, primary key (sku, region))',
    `create table shipment_item (id integer auto_increment primary key, order_id integer, line_no integer, qty integer not null,
      foreign key (order_id, line_no) references order_line (order_id, line_no))`,
  ],
  sqlite: [
    'create table orders (id integer primary key, note varchar(40))',
    'create table warehouse (id integer primary key, name varchar(40) not null)',
    `create table order_line (order_id integer not null references orders (id), line_no integer not null,
      sku varchar(40) not null, qty integer not null, warehouse_id integer references warehouse (id),
      primary key (order_id, line_no))`,
    'create table sku_price (sku varchar(40) not null, region varchar(10) not null, price integer, primary key (sku, region))',
    `create table shipment_item (id integer primary key, order_id integer, line_no integer, qty integer not null,
      foreign key (order_id, line_no) references order_line (order_id, line_no))`,
  ],
};

const ROWS = [
  "insert into orders (id, note) values (1, 'first'), (2, 'second')",
  "insert into warehouse (id, name) values (1, 'north'), (2, 'south')",
];

/** The id of a sku_price whose sku holds the separator and the escape: `a,b\c` in region `eu`. */
const ODD_SKU = 'a,b\\c';
const ODD_ID = 'a\\,b\\\\c,eu';
const path = (id: string) => encodeURIComponent(id).replace(/%2C/g, ',');

const AUTH = {
  jwt: [{ secret: 'a-composite-keys-test-secret-of-thirty-two-characters', algorithms: ['HS256'] }],
};
/** A member reads and updates the lines of the order its token names, and reads every order. */
const ROLES = {
  member: {
    orders: { read: true },
    order_line: {
      read: { where: [{ name: 'order_id', op: '==', val: { claim: 'order' } }] },
      update: { where: [{ name: 'order_id', op: '==', val: { claim: 'order' } }] },
    },
  },
};

const q = (search: unknown) => `q=${encodeURIComponent(JSON.stringify(search))}`;
const objects = (filters: unknown) => `filter[objects]=${encodeURIComponent(JSON.stringify(filters))}`;
const ids = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);

for (const kind of testedKinds()) {
  describe(`composite primary keys through colapi serve [${kind}]`, function () {
    this.timeout(60_000);
    let db: TestDatabase | undefined;
    let sql: Database;
    let a: HttpClient;
    let b: HttpClient;
    /** Format A paging order_line by cursor, with atomic operations. */
    let cursor: HttpClient;
    /** Format A under access rules, and the headers of a member whose token names order 1. */
    let scoped: HttpClient;
    let member: Record<string, string>;
    let servers: CatalogueServer[] = [];

    before(async function () {
      db = await testDatabaseOrSkip(this, kind);
      sql = connect(db!.url, { pool: { min: 0, max: 1 } });
      const ddl = DDL[kind as keyof typeof DDL];
      if (!ddl) throw new Error(`no schema of composite keys for ${kind}: add one`);
      for (const statement of [...ddl, ...ROWS]) await sql.knex.raw(statement);
      const small = { pool: { min: 0, max: 2 } };
      servers = [
        await serveCatalogue({ databaseUrl: db!.url, format: 'jsonapi', connect: small }),
        await serveCatalogue({ databaseUrl: db!.url, format: 'legacy', connect: small }),
        await serveCatalogue({
          databaseUrl: db!.url,
          format: 'jsonapi',
          connect: small,
          config: { atomic: true, tables: { order_line: { collections: [{ paging: 'cursor' }] } } },
        }),
      ];
      cursor = new HttpClient(servers[2]!.origin, 'application/vnd.api+json');
      servers.push(
        await serveCatalogue({
          databaseUrl: db!.url,
          format: 'jsonapi',
          connect: small,
          config: { auth: AUTH, roles: ROLES },
        }),
      );
      scoped = new HttpClient(servers[3]!.origin, 'application/vnd.api+json');
      const token = await signDevelopmentToken(validateAuthConfig(AUTH, 'test'), {
        role: 'member',
        claims: { order: 1 },
        expiresIn: '1h',
      });
      member = { authorization: `Bearer ${token}` };
      a = new HttpClient(servers[0]!.origin, 'application/vnd.api+json');
      b = new HttpClient(servers[1]!.origin, 'application/json');
    });
    after(async () => {
      for (const s of servers) await s.close(500);
      if (sql) await disconnect(sql);
      await db?.drop();
    });

    const line = (id: string | undefined, attributes: Record<string, unknown>, order?: number) => ({
      data: {
        type: 'order_line',
        ...(id === undefined ? {} : { id }),
        attributes,
        ...(order === undefined ? {} : { relationships: { order: { data: { type: 'orders', id: String(order) } } } }),
      },
    });

    it('serves the tables keyed by several columns, their key columns in key order, with the relationships of their foreign keys', () => {
      const current = servers[0]!.current();
      expect(current.warnings.filter((w) => /^(order_line|sku_price)\b/.test(w))).to.deep.equal([]);
      const lines = current.registry.collection('order_line')!;
      expect(lines.model.keyColumns).to.deep.equal(['order_id', 'line_no']);
      expect(lines.model.key).to.equal('id');
      expect([...lines.relationships.keys()].sort()).to.deep.equal(['order', 'shipment_items', 'warehouse']);
      expect(lines.relationships.get('shipment_items')!.join).to.deep.equal({
        kind: 'composite',
        on: 'target',
        ownColumns: ['order_id', 'line_no'],
        targetColumns: ['order_id', 'line_no'],
      });
      expect([...current.registry.collection('shipment_item')!.relationships.keys()]).to.deep.equal(['order_line']);
      expect(current.registry.collection('sku_price')!.model.keyColumns).to.deep.equal(['sku', 'region']);
      expect([...current.registry.collection('orders')!.relationships.keys()]).to.deep.equal(['order_lines']);
    });

    it('creates with a client id or with the key columns as fields; refuses a malformed, contradicting or taken id', async () => {
      const byId = await a.post('/api/order_line', line('1,1', { sku: 'apple', qty: 3 }, 1));
      expect(byId.status, JSON.stringify(byId.body)).to.equal(201);
      expect(byId.body.data.id).to.equal('1,1');
      expect(byId.body.data.attributes).to.include({ line_no: 1, sku: 'apple', qty: 3 });
      expect(byId.body.data.relationships.order.data).to.deep.equal({ type: 'orders', id: '1' });
      expect(byId.headers.get('location')).to.match(/\/api\/order_line\/1(,|%2C)1$/);

      const byFields = await a.post('/api/order_line', line(undefined, { line_no: 2, sku: 'pear', qty: 1 }, 1));
      expect(byFields.status, JSON.stringify(byFields.body)).to.equal(201);
      expect(byFields.body.data.id).to.equal('1,2');

      const created = await b.post('/api/order_line', { order_id: 2, line_no: 1, sku: 'fig', qty: 7 });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body).to.include({ id: '2,1', order_id: 2, line_no: 1 });
      const viaId = await b.post('/api/order_line', { id: '2,2', sku: 'kiwi', qty: 2 });
      expect(viaId.status, JSON.stringify(viaId.body)).to.equal(201);
      expect(viaId.body).to.include({ id: '2,2', order_id: 2, line_no: 2 });

      for (const bad of ['1', '1,2,3', '1,x', '01,3', '1,3\\', '1\\a,3', '', 3]) {
        const refused = await a.post('/api/order_line', line(bad as string, { sku: 'x', qty: 1 }));
        expect(refused.status, `${JSON.stringify(bad)}: ${JSON.stringify(refused.body)}`).to.equal(400);
        expect(refused.body.errors[0].source).to.deep.equal({ pointer: '/data/id' });
        const legacy = await b.post('/api/order_line', { id: bad, sku: 'x', qty: 1 });
        expect(legacy.status, `B ${JSON.stringify(bad)}`).to.equal(400);
      }
      const contradicting = await a.post('/api/order_line', line('1,3', { line_no: 4, sku: 'x', qty: 1 }));
      expect(contradicting.status).to.equal(400);
      expect(contradicting.body.errors[0].source).to.deep.equal({ pointer: '/data/id' });
      const partial = await a.post('/api/order_line', line(undefined, { sku: 'x', qty: 1 }, 1));
      expect(partial.status).to.equal(400);
      expect(partial.body.errors[0].detail).to.match(/line_no/);
      const taken = await a.post('/api/order_line', line('1,1', { sku: 'x', qty: 1 }));
      expect(taken.status).to.equal(409);
    });

    it('fetches by id in both formats; an id of the wrong shape or kind names nothing (404)', async () => {
      const one = await a.get('/api/order_line/1,2');
      expect(one.status).to.equal(200);
      expect(one.body.data).to.include({ type: 'order_line', id: '1,2' });
      expect(one.body.data.links.self).to.match(/\/api\/order_line\/1%2C2$/);
      const legacy = await b.get('/api/order_line/2,1');
      expect(legacy.status).to.equal(200);
      expect(legacy.body).to.include({ id: '2,1', order_id: 2, line_no: 1, sku: 'fig' });
      for (const bad of ['1', '1,2,3', '1,x', '1,02', '1,9', 'x,1', '1,2%5C', '1%5Cq,2', '1,']) {
        expect((await a.get(`/api/order_line/${bad}`)).status, bad).to.equal(404);
        expect((await b.get(`/api/order_line/${bad}`)).status, `B ${bad}`).to.equal(404);
      }
    });

    it('lists in key order by default, sorts by id (every part) both ways, pages', async () => {
      expect(ids((await a.get('/api/order_line')).body)).to.deep.equal(['1,1', '1,2', '2,1', '2,2']);
      expect(ids((await a.get('/api/order_line?sort=-id')).body)).to.deep.equal(['2,2', '2,1', '1,2', '1,1']);
      expect(ids((await a.get('/api/order_line?sort=-qty')).body)).to.deep.equal(['2,1', '1,1', '2,2', '1,2']);
      const page = await a.get('/api/order_line?page[size]=1&page[number]=3');
      expect(ids(page.body)).to.deep.equal(['2,1']);
      expect(page.body.meta.total).to.equal(4);
      const legacy = await b.get(`/api/order_line?${q({ order_by: [{ field: 'id', direction: 'desc' }], limit: 2 })}`);
      expect(legacy.body.objects.map((o: { id: string }) => o.id)).to.deep.equal(['2,2', '2,1']);
      const offset = await b.get(`/api/order_line?${q({ offset: 3 })}`);
      expect(offset.body.objects.map((o: { id: string }) => o.id)).to.deep.equal(['2,2']);
    });

    it('pages by cursor over the key columns, both ways, under any sort', async () => {
      const walk = async (query: string) => {
        const seen: string[] = [];
        let res = await cursor.get(`/api/order_line?page[size]=1${query}`);
        for (;;) {
          expect(res.status, res.text).to.equal(200);
          seen.push(...ids(res.body));
          if (!res.body.links.next) return { seen, last: res };
          const next = new URL(res.body.links.next);
          res = await cursor.get(next.pathname + next.search);
        }
      };
      expect((await walk('')).seen).to.deep.equal(['1,1', '1,2', '2,1', '2,2']);
      expect((await walk('&sort=-id')).seen).to.deep.equal(['2,2', '2,1', '1,2', '1,1']);
      const byQty = await walk('&sort=-qty');
      expect(byQty.seen).to.deep.equal(['2,1', '1,1', '2,2', '1,2']);
      const prev = new URL(byQty.last.body.links.prev);
      expect(ids((await cursor.get(prev.pathname + prev.search)).body)).to.deep.equal(['2,2']);
    });

    it('filters by id: eq, ne, in, not_in of whole ids, strictly read (400 naming the parameter)', async () => {
      const eq = await a.get(`/api/order_line?${objects([{ name: 'id', op: 'eq', val: '1,2' }])}`);
      expect(ids(eq.body)).to.deep.equal(['1,2']);
      const ne = await a.get(`/api/order_line?${objects([{ name: 'id', op: '!=', val: '1,2' }])}`);
      expect(ne.body.data, JSON.stringify(ne.body)).to.be.an('array');
      expect(ids(ne.body)).to.deep.equal(['1,1', '2,1', '2,2']);
      const within = await a.get(`/api/order_line?${objects([{ name: 'id', op: 'in', val: ['2,2', '1,1', '9,9'] }])}`);
      expect(ids(within.body)).to.deep.equal(['1,1', '2,2']);
      const outside = await a.get(`/api/order_line?${objects([{ name: 'id', op: 'not_in', val: ['2,2', '1,1'] }])}`);
      expect(ids(outside.body)).to.deep.equal(['1,2', '2,1']);
      const none = await a.get(`/api/order_line?${objects([{ name: 'id', op: 'in', val: [] }])}`);
      expect(ids(none.body), JSON.stringify(none.body)).to.deep.equal([]);
      for (const filter of [
        { name: 'id', op: 'eq', val: '1' },
        { name: 'id', op: 'eq', val: '1,x' },
        { name: 'id', op: 'lt', val: '1,2' },
        { name: 'id', op: 'in', val: '1,2' },
      ]) {
        const refused = await a.get(`/api/order_line?${objects([filter])}`);
        expect(refused.status, JSON.stringify(filter)).to.equal(400);
        expect(refused.body.errors[0].source).to.deep.equal({ parameter: 'filter[objects]' });
      }
      const legacy = await b.get(`/api/order_line?${q({ filters: [{ name: 'id', op: '==', val: '2,1' }] })}`);
      expect(legacy.body.objects.map((o: { id: string }) => o.id)).to.deep.equal(['2,1']);
      const single = await b.get(
        `/api/order_line?${q({ filters: [{ name: 'id', op: '==', val: '2,1' }], single: true })}`,
      );
      expect(single.body).to.include({ id: '2,1' });
      const grouped = await b.get(`/api/order_line?${q({ group_by: [{ field: 'sku' }] })}`);
      expect(grouped.status).to.equal(400);
    });

    it('shows linkage to and from such rows, includes them, and serves the related and relationship endpoints', async () => {
      const order = await a.get('/api/orders/1?include=order_lines');
      expect(order.body.data.relationships.order_lines.data).to.deep.equal([
        { type: 'order_line', id: '1,1' },
        { type: 'order_line', id: '1,2' },
      ]);
      expect(order.body.included.map((r: { id: string }) => r.id)).to.deep.equal(['1,1', '1,2']);
      const listed = await a.get('/api/orders?include=order_lines');
      expect(listed.body.data[1].relationships.order_lines.data.map((r: { id: string }) => r.id)).to.deep.equal([
        '2,1',
        '2,2',
      ]);
      const plain = await a.get('/api/orders');
      expect(plain.body.data[1].relationships.order_lines.data.map((r: { id: string }) => r.id)).to.deep.equal([
        '2,1',
        '2,2',
      ]);
      const withOrder = await a.get('/api/order_line/2,2?include=order');
      expect(withOrder.body.included[0]).to.include({ type: 'orders', id: '2' });
      const related = await a.get('/api/orders/2/order_lines?sort=-id');
      expect(ids(related.body)).to.deep.equal(['2,2', '2,1']);
      const owner = await a.get('/api/order_line/2,1/order');
      expect(owner.body.data).to.include({ type: 'orders', id: '2' });
      const linkage = await a.get('/api/order_line/2,1/relationships/order');
      expect(linkage.body.data).to.deep.equal({ type: 'orders', id: '2' });
      const toMany = await a.get('/api/orders/2/relationships/order_lines');
      expect(toMany.body.data.map((r: { id: string }) => r.id)).to.deep.equal(['2,1', '2,2']);
      expect((await a.get('/api/order_line/9,9/order')).status).to.equal(404);
      const nested = await b.get('/api/orders/1');
      expect(nested.body.order_lines.map((o: { id: string }) => o.id)).to.deep.equal(['1,1', '1,2']);
      const legacyRelated = await b.get('/api/orders/2/order_lines');
      expect(legacyRelated.body.objects.map((o: { id: string }) => o.id)).to.deep.equal(['2,1', '2,2']);
      const through = await a.get(
        `/api/orders?${objects([{ name: 'order_lines', op: 'any', val: { name: 'sku', op: 'eq', val: 'kiwi' } }])}`,
      );
      expect(ids(through.body)).to.deep.equal(['2']);
      const back = await a.get(
        `/api/order_line?${objects([{ name: 'order', op: 'has', val: { name: 'note', op: 'eq', val: 'first' } }])}`,
      );
      expect(ids(back.body)).to.deep.equal(['1,1', '1,2']);
    });

    it('runs atomic operations on such rows: add, update and remove by id, a bad id 400 at its pointer', async () => {
      const ext = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';
      const send = (operations: unknown[]) =>
        cursor.post(
          '/api/operations',
          { 'atomic:operations': operations },
          { headers: { 'content-type': ext, accept: ext } },
        );
      const done = await send([
        { op: 'add', data: { type: 'order_line', id: '2,3', attributes: { sku: 'x', qty: 1 } } },
        {
          op: 'update',
          ref: { type: 'order_line', id: '2,3' },
          data: { type: 'order_line', id: '2,3', attributes: { qty: 2 } },
        },
      ]);
      expect(done.status, done.text).to.equal(200);
      expect(done.body['atomic:results'][0].data.id).to.equal('2,3');
      expect((await a.get('/api/order_line/2,3')).body.data.attributes.qty).to.equal(2);
      const removed = await send([{ op: 'remove', ref: { type: 'order_line', id: '2,3' } }]);
      expect(removed.status, removed.text).to.equal(204);
      expect((await a.get('/api/order_line/2,3')).status).to.equal(404);
      const bad = await send([{ op: 'remove', ref: { type: 'order_line', id: '2' } }]);
      expect(bad.status, bad.text).to.be.oneOf([400, 404]);
    });

    it('serves a foreign key of several columns as a to-one relationship and its inverse, and writes both', async () => {
      for (const [order, lineNo, qty] of [
        [1, 2, 1],
        [2, 1, 3],
        [2, 1, 5],
        [null, null, 7],
      ] as const) {
        const created = await a.post('/api/shipment_item', {
          data: { type: 'shipment_item', attributes: { order_id: order, line_no: lineNo, qty } },
        });
        expect(created.status, JSON.stringify(created.body)).to.equal(201);
      }
      const one = await a.get('/api/shipment_item/2?include=order_line');
      expect(one.body.data.relationships.order_line.data).to.deep.equal({ type: 'order_line', id: '2,1' });
      expect(one.body.data.attributes).to.include({ order_id: 2, line_no: 1, qty: 3 });
      expect(one.body.included.map((r: { id: string }) => r.id)).to.deep.equal(['2,1']);
      const none = await a.get('/api/shipment_item/4');
      expect(none.body.data.relationships.order_line.data).to.equal(null);
      const lines = await a.get('/api/order_line?include=shipment_items');
      expect(
        lines.body.data.map((r: { id: string; relationships: { shipment_items: { data: { id: string }[] } } }) => [
          r.id,
          r.relationships.shipment_items.data.map((s) => s.id),
        ]),
      ).to.deep.equal([
        ['1,1', []],
        ['1,2', ['1']],
        ['2,1', ['2', '3']],
        ['2,2', []],
      ]);
      expect(lines.body.included.map((r: { id: string }) => r.id)).to.deep.equal(['1', '2', '3']);
      const plain = await a.get('/api/order_line/2,1');
      expect(plain.body.data.relationships.shipment_items.data.map((r: { id: string }) => r.id)).to.deep.equal([
        '2',
        '3',
      ]);
      expect(ids((await a.get('/api/order_line/2,1/shipment_items?sort=-qty')).body)).to.deep.equal(['3', '2']);
      expect((await a.get('/api/shipment_item/3/order_line')).body.data).to.include({ type: 'order_line', id: '2,1' });
      expect((await a.get('/api/shipment_item/4/order_line')).body.data).to.equal(null);
      const linkage = await a.get('/api/order_line/2,1/relationships/shipment_items');
      expect(linkage.body.data.map((r: { id: string }) => r.id)).to.deep.equal(['2', '3']);
      const toOne = await a.get('/api/shipment_item/1/relationships/order_line');
      expect(toOne.body.data).to.deep.equal({ type: 'order_line', id: '1,2' });
      const bySku = await a.get(
        `/api/shipment_item?${objects([{ name: 'order_line', op: 'has', val: { name: 'sku', op: 'eq', val: 'fig' } }])}`,
      );
      expect(ids(bySku.body)).to.deep.equal(['2', '3']);
      const anyQty = await a.get(
        `/api/order_line?${objects([{ name: 'shipment_items', op: 'any', val: { name: 'qty', op: '>', val: 4 } }])}`,
      );
      expect(ids(anyQty.body)).to.deep.equal(['2,1']);
      const sorted = await a.get('/api/shipment_item?sort=-order_line.sku,id');
      expect(ids(sorted.body)).to.deep.equal(['1', '2', '3', '4']);
      const legacy = await b.get('/api/order_line/2,1');
      expect(legacy.body.shipment_items.map((s: { id: number }) => s.id)).to.deep.equal([2, 3]);
      const nested = await b.get('/api/shipment_item/1');
      expect(nested.body.order_line).to.include({ id: '1,2', sku: 'pear' });
      const legacyFilter = await b.get(
        `/api/shipment_item?${q({ filters: [{ name: 'order_line__sku', op: '==', val: 'pear' }] })}`,
      );
      expect(legacyFilter.body.objects.map((s: { id: number }) => s.id)).to.deep.equal([1]);
      const legacyRelated = await b.get('/api/order_line/2,1/shipment_items');
      expect(legacyRelated.body.objects.map((s: { id: number }) => s.id)).to.deep.equal([2, 3]);

      const set = await a.patch('/api/shipment_item/4/relationships/order_line', {
        data: { type: 'order_line', id: '1,1' },
      });
      expect(set.status, set.text).to.be.oneOf([200, 204]);
      const linked = await a.get('/api/shipment_item/4');
      expect(linked.body.data.relationships.order_line.data).to.deep.equal({ type: 'order_line', id: '1,1' });
      expect(linked.body.data.attributes).to.include({ order_id: 1, line_no: 1 });
      const unset = await a.patch('/api/shipment_item/4/relationships/order_line', { data: null });
      expect(unset.status, unset.text).to.be.oneOf([200, 204]);
      expect((await b.get('/api/shipment_item/4')).body).to.include({ order_id: null, line_no: null });
      const missing = await a.patch('/api/shipment_item/4/relationships/order_line', {
        data: { type: 'order_line', id: '7,7' },
      });
      expect(missing.status).to.equal(404);
      const malformed = await a.patch('/api/shipment_item/4/relationships/order_line', {
        data: { type: 'order_line', id: '7' },
      });
      expect(malformed.status).to.equal(400);
      expect(malformed.body.errors[0].source).to.deep.equal({ pointer: '/data/id' });
      const twice = await a.patch('/api/shipment_item/4', {
        data: {
          type: 'shipment_item',
          id: '4',
          attributes: { order_id: 2 },
          relationships: { order_line: { data: { type: 'order_line', id: '2,1' } } },
        },
      });
      expect(twice.status).to.equal(400);
      const created = await a.post('/api/shipment_item', {
        data: {
          type: 'shipment_item',
          attributes: { qty: 9 },
          relationships: { order_line: { data: { type: 'order_line', id: '2,2' } } },
        },
      });
      expect(created.status, created.text).to.equal(201);
      expect(created.body.data.attributes).to.include({ order_id: 2, line_no: 2 });
      const repointed = await b.patch(`/api/shipment_item/${created.body.data.id}`, { order_line: { id: '1,1' } });
      expect(repointed.status, repointed.text).to.equal(200);
      expect(repointed.body).to.include({ order_id: 1, line_no: 1 });
      expect((await b.delete(`/api/shipment_item/${created.body.data.id}`)).status).to.equal(204);
      const added = await a.post('/api/order_line/1,1/relationships/shipment_items', {
        data: [{ type: 'shipment_item', id: '4' }],
      });
      expect(added.status, added.text).to.be.oneOf([200, 204]);
      expect((await b.get('/api/shipment_item/4')).body).to.include({ order_id: 1, line_no: 1 });
      const replaced = await a.patch('/api/order_line/2,1/relationships/shipment_items', {
        data: [{ type: 'shipment_item', id: '2' }],
      });
      expect(replaced.status, replaced.text).to.be.oneOf([200, 204]);
      expect((await a.get('/api/order_line/2,1/relationships/shipment_items')).body.data).to.deep.equal([
        { type: 'shipment_item', id: '2' },
      ]);
      expect((await b.get('/api/shipment_item/3')).body).to.include({ order_id: null, line_no: null });
      const removed = await a.delete('/api/order_line/1,1/relationships/shipment_items', {
        body: { data: [{ type: 'shipment_item', id: '4' }] },
      });
      expect(removed.status, removed.text).to.be.oneOf([200, 204]);
      expect((await b.get('/api/shipment_item/4')).body).to.include({ order_id: null, line_no: null });
      expect((await b.delete('/api/order_line/2,1/shipment_items/2')).status).to.equal(204);
      expect((await b.delete('/api/order_line/2,1/shipment_items/2')).status).to.equal(404);
      expect((await a.get('/api/order_line/2,1/relationships/shipment_items')).body.data).to.deep.equal([]);
      // Back as they were for the tests after this one.
      const restored = await a.post('/api/order_line/2,1/relationships/shipment_items', {
        data: [
          { type: 'shipment_item', id: '2' },
          { type: 'shipment_item', id: '3' },
        ],
      });
      expect(restored.status, restored.text).to.be.oneOf([200, 204]);
      const moved = await a.patch('/api/shipment_item/4', {
        data: { type: 'shipment_item', id: '4', attributes: { order_id: 1, line_no: 1 } },
      });
      expect(moved.body.data.relationships.order_line.data).to.deep.equal({ type: 'order_line', id: '1,1' });
      const back = await a.patch('/api/shipment_item/4', {
        data: { type: 'shipment_item', id: '4', attributes: { order_id: null, line_no: null } },
      });
      expect(back.body.data.relationships.order_line.data).to.equal(null);
      expect((await a.delete('/api/order_line/1,2')).status).to.equal(409);
    });

    it('writes relationships of such rows and to them: to-one, to-many add, remove and replace', async () => {
      const set = await a.patch('/api/order_line/1,1/relationships/warehouse', {
        data: { type: 'warehouse', id: '1' },
      });
      expect(set.status, JSON.stringify(set.body)).to.be.oneOf([200, 204]);
      const add = await a.post('/api/warehouse/1/relationships/order_lines', {
        data: [{ type: 'order_line', id: '2,2' }],
      });
      expect(add.status, JSON.stringify(add.body)).to.be.oneOf([200, 204]);
      const lines = await a.get('/api/warehouse/1/relationships/order_lines');
      expect(lines.body.data.map((r: { id: string }) => r.id)).to.deep.equal(['1,1', '2,2']);
      const remove = await a.delete('/api/warehouse/1/relationships/order_lines', {
        body: { data: [{ type: 'order_line', id: '1,1' }] },
      });
      expect(remove.status, JSON.stringify(remove.body)).to.be.oneOf([200, 204]);
      const replace = await a.patch('/api/warehouse/2/relationships/order_lines', {
        data: [
          { type: 'order_line', id: '1,2' },
          { type: 'order_line', id: '2,1' },
        ],
      });
      expect(replace.status, JSON.stringify(replace.body)).to.be.oneOf([200, 204]);
      const south = await a.get('/api/warehouse/2/relationships/order_lines');
      expect(south.body.data.map((r: { id: string }) => r.id)).to.deep.equal(['1,2', '2,1']);
      expect((await a.get('/api/warehouse/1/relationships/order_lines')).body.data).to.deep.equal([
        { type: 'order_line', id: '2,2' },
      ]);
      const badTarget = await a.post('/api/warehouse/1/relationships/order_lines', {
        data: [{ type: 'order_line', id: '2' }],
      });
      expect(badTarget.status).to.equal(400);
      expect(badTarget.body.errors[0].source).to.deep.equal({ pointer: '/data/0/id' });
      const missing = await a.post('/api/warehouse/1/relationships/order_lines', {
        data: [{ type: 'order_line', id: '7,7' }],
      });
      expect(missing.status).to.equal(404);
      const unlinked = await b.delete('/api/warehouse/2/order_lines/2,1');
      expect(unlinked.status, JSON.stringify(unlinked.body)).to.equal(204);
      expect((await b.get('/api/order_line/2,1')).body.warehouse_id).to.equal(null);
      const moving = await a.patch('/api/order_line/1,1/relationships/order', { data: { type: 'orders', id: '2' } });
      expect(moving.status).to.equal(400);
    });

    it('updates a row but never its key columns; bulk updates and deletes by q; deletes', async () => {
      const patched = await a.patch('/api/order_line/1,2', line('1,2', { qty: 9 }));
      expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
      expect(patched.body.data.attributes.qty).to.equal(9);
      const rekey = await a.patch('/api/order_line/1,2', line('1,2', { line_no: 5 }));
      expect(rekey.status).to.equal(400);
      expect(rekey.body.errors[0].source).to.deep.equal({ pointer: '/data/attributes/line_no' });
      const legacy = await b.patch('/api/order_line/2,1', { id: '2,1', qty: 4 });
      expect(legacy.status, JSON.stringify(legacy.body)).to.equal(200);
      expect(legacy.body).to.include({ id: '2,1', qty: 4 });
      expect((await b.patch('/api/order_line/2,1', { line_no: 3 })).status).to.equal(400);
      expect((await b.patch('/api/order_line/2,1', { id: '2,2' })).status).to.equal(400);
      const bulk = await b.patch('/api/order_line', {
        q: { filters: [{ name: 'id', op: 'in', val: ['1,1', '2,2'] }] },
        qty: 0,
      });
      // Format B answers a bulk update 201 with the count (encode.ts), as for any other collection.
      expect(bulk.status, JSON.stringify(bulk.body)).to.equal(201);
      expect(bulk.body.num_modified).to.equal(2);
      const zero = await a.get(`/api/order_line?${objects([{ name: 'qty', op: 'eq', val: 0 }])}`);
      expect(ids(zero.body)).to.deep.equal(['1,1', '2,2']);

      expect((await a.delete('/api/order_line/1,1')).status).to.equal(204);
      expect((await a.get('/api/order_line/1,1')).status).to.equal(404);
      expect((await a.delete('/api/order_line/1,1')).status).to.equal(404);
      expect((await b.delete('/api/order_line/2,2')).status).to.equal(204);
      expect((await b.delete('/api/order_line/x,2')).status).to.equal(404);
      expect(ids((await a.get('/api/order_line')).body)).to.deep.equal(['1,2', '2,1']);
    });

    it('answers what its OpenAPI document says, and describes the id, in both formats', async () => {
      for (const [client, one, list] of [
        [a, '/api/shipment_item/1?include=order_line', '/api/order_line?include=shipment_items'],
        [b, '/api/order_line/2,1', '/api/order_line'],
      ] as const) {
        const doc = (await client.get('/api/openapi.json')).body;
        const check = schemaChecker(doc);
        const schemaOf = (path: string) =>
          Object.values(operationAt(doc, path, 'get').responses['200']!.content!)[0]!.schema as object;
        const path = one.startsWith('/api/shipment_item') ? '/api/shipment_item/{id}' : '/api/order_line/{id}';
        expect(check(schemaOf(path), (await client.get(one)).body), `${one}`).to.equal(undefined);
        expect(check(schemaOf('/api/order_line'), (await client.get(list)).body), list).to.equal(undefined);
        const parameters = operationAt(doc, '/api/order_line/{id}', 'get').parameters as {
          name: string;
          description?: string;
        }[];
        expect(parameters.find((p) => p.name === 'id')?.description).to.match(
          /order_id, line_no, in that order, joined by ","/,
        );
      }
    });

    it('keeps to the rows access rules let a role read and update', async () => {
      // Left now: 1,2 (order 1) and 2,1 (order 2).
      const as = { headers: member };
      expect(ids((await scoped.get('/api/order_line', as)).body)).to.deep.equal(['1,2']);
      expect((await scoped.get('/api/order_line/1,2', as)).status).to.equal(200);
      expect((await scoped.get('/api/order_line/2,1', as)).status).to.equal(404);
      const within = await scoped.get(
        `/api/order_line?${objects([{ name: 'id', op: 'in', val: ['1,2', '2,1'] }])}`,
        as,
      );
      expect(ids(within.body)).to.deep.equal(['1,2']);
      const included = await scoped.get('/api/orders?include=order_lines', as);
      expect(included.body.included.map((r: { id: string }) => r.id)).to.deep.equal(['1,2']);
      expect(included.body.data[1].relationships.order_lines.data).to.deep.equal([]);
      const patched = await scoped.patch('/api/order_line/1,2', line('1,2', { qty: 5 }), as);
      expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
      expect((await scoped.patch('/api/order_line/2,1', line('2,1', { qty: 5 }), as)).status).to.equal(404);
      expect((await b.get('/api/order_line/2,1')).body.qty).to.equal(4);
    });

    it('keys by text holding the separator and the escape character', async () => {
      const created = await b.post('/api/sku_price', { sku: ODD_SKU, region: 'eu', price: 5 });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body.id).to.equal(ODD_ID);
      const plain = await a.post('/api/sku_price', {
        data: { type: 'sku_price', id: 'a,eu', attributes: { price: 1 } },
      });
      expect(plain.status, JSON.stringify(plain.body)).to.equal(201);
      expect(plain.body.data.attributes).to.include({ sku: 'a', region: 'eu' });
      const one = await a.get(`/api/sku_price/${path(ODD_ID)}`);
      expect(one.status).to.equal(200);
      expect(one.body.data.attributes).to.include({ sku: ODD_SKU, region: 'eu', price: 5 });
      expect(ids((await a.get('/api/sku_price')).body)).to.deep.equal(['a,eu', ODD_ID]);
      const found = await a.get(`/api/sku_price?${objects([{ name: 'id', op: 'eq', val: ODD_ID }])}`);
      expect(ids(found.body)).to.deep.equal([ODD_ID]);
      // Unescaped, the separator makes three parts; a lone backslash escapes nothing it may.
      expect((await a.get(`/api/sku_price/${path('a,b\\c,eu')}`)).status).to.equal(404);
      expect((await a.get(`/api/sku_price/${path('a\\,b\\c,eu')}`)).status).to.equal(404);
      const patched = await b.patch(`/api/sku_price/${path(ODD_ID)}`, { price: 6 });
      expect(patched.body).to.include({ id: ODD_ID, price: 6 });
      expect((await a.delete(`/api/sku_price/${path(ODD_ID)}`)).status).to.equal(204);
    });
  });
}
