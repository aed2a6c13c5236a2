import type { Database } from '@colapi/sql-compiler';
import { type DatabaseKind, type HttpClient, testedKinds } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import type { CatalogueServer } from '../src/index.js';
import { serveSchema, type ServedSchema } from './served-schema.js';

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
  // SQLite's usual spelling, INTEGER, holds 64 bits whatever the name says (an INTEGER key would be the
  // rowid, numbered by the database, where these tests send their own ids).
  sqlite: [
    'create table account (id bigint primary key, name text not null, counter integer)',
    'create table entry (id bigint primary key, account_id integer references account (id), note text)',
  ],
};

for (const kind of testedKinds()) {
  describe(`colapi serve: integer keys past 2^53, exact in both formats [${kind}]`, function () {
    this.timeout(60_000);
    let served: ServedSchema | undefined;
    let sql: Database;
    let a: HttpClient;
    let b: HttpClient;

    before(async function () {
      const schema = BIG_SCHEMAS[kind];
      if (!schema) throw new Error(`no schema of big keys for ${kind}: add one`);
      served = await serveSchema(this, kind, schema);
      ({ sql, a, b } = served);
    });
    after(() => served?.close());

    it('creates a resource with a client id past 2^53 and answers it as the same digits', async () => {
      const created = await a.post('/api/account', {
        data: { type: 'account', id: BIG, attributes: { name: 'big', counter: BIGGER } },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body.data.id).to.equal(BIG);
      expect(created.body.data.attributes).to.deep.include({ counter: BIGGER });
      // Between 2^31 and 2^53: an integer on every database here (SQLite's INTEGER included).
      const middle = await b.post('/api/account', { id: 3_000_000_001, name: 'middle', counter: 3_000_000_000 });
      expect(middle.status, JSON.stringify(middle.body)).to.equal(201);
      expect(middle.body).to.deep.include({ id: 3_000_000_001, counter: 3_000_000_000 });
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
      expect(list.body.objects.map((r: { id: unknown }) => r.id)).to.deep.equal([BIG, 3_000_000_001, 7]);
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

const FIRST = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11';
const SECOND = 'b1ffcd00-0d1c-4f09-8c7e-7cc0ce491b22';

/** MariaDB/MySQL only: PostgreSQL and SQLite declare a UUID `uuid` (types.test.ts serves it there). */
const CHAR_UUID_SCHEMA = [
  'create table owner (id char(36) primary key, name varchar(50) not null, code char(36))',
  'create table pet (petId char(36) primary key, owner_id char(36), label varchar(50), foreign key (owner_id) references owner (id))',
  // Named as an id but holding other text: stays text.
  'create table ticket (ticket_id char(36) primary key, note varchar(20))',
  "insert into ticket values ('TICKET-0000000000000000000000000001', 'kept')",
];

// Only where the database has no uuid type of its own: MariaDB/MySQL.
for (const kind of testedKinds().filter((k) => k === 'mysql')) {
  describe(`colapi serve: UUIDs kept as char(36) [${kind}]`, function () {
    this.timeout(60_000);
    let served: ServedSchema | undefined;
    let a: HttpClient;
    let b: HttpClient;
    let servers: readonly CatalogueServer[] = [];

    before(async function () {
      served = await serveSchema(this, kind, CHAR_UUID_SCHEMA);
      ({ servers, a, b } = served);
    });
    after(() => served?.close());

    it('serves a char(36) named as an id as a uuid, and one holding other text as text', () => {
      const { registry } = servers[0]!.current();
      expect(registry.collection('owner')!.columns.get('id')).to.include({ type: 'uuid' });
      expect(registry.collection('pet')!.columns.get('petId')).to.include({ type: 'uuid' });
      expect(registry.collection('pet')!.columns.get('owner_id')).to.include({ type: 'uuid' });
      // Not named as an id: its name does not say what it holds.
      expect(registry.collection('owner')!.columns.get('code')).to.include({ type: 'string' });
      expect(registry.collection('ticket')!.columns.get('ticket_id')).to.include({ type: 'string' });
    });

    it('creates, fetches by id, filters and sorts by a char(36) UUID key', async () => {
      const upper = await a.post('/api/owner', {
        data: { type: 'owner', id: FIRST.toUpperCase(), attributes: { name: 'x' } },
      });
      expect(upper.status).to.equal(400);
      expect(upper.body.errors[0].source).to.deep.equal({ pointer: '/data/id' });
      const first = await a.post('/api/owner', { data: { type: 'owner', id: FIRST, attributes: { name: 'first' } } });
      expect(first.status, JSON.stringify(first.body)).to.equal(201);
      expect(first.body.data.id).to.equal(FIRST);
      expect((await b.post('/api/owner', { id: SECOND, name: 'second' })).status).to.equal(201);
      expect((await a.get(`/api/owner/${FIRST}`)).body.data.attributes).to.deep.include({ name: 'first' });
      expect((await b.get(`/api/owner/${SECOND}`)).body).to.deep.include({ id: SECOND, name: 'second' });
      expect((await a.get(`/api/owner/${FIRST.toUpperCase()}`)).status).to.equal(404);
      const ids = async (filter: unknown) =>
        (await a.get(`/api/owner?filter[objects]=${encodeURIComponent(JSON.stringify([filter]))}`)).body.data.map(
          (r: { id: string }) => r.id,
        );
      // Any letter case is accepted in a filter and compared in lower case.
      expect(await ids({ name: 'id', op: '==', val: FIRST.toUpperCase() })).to.deep.equal([FIRST]);
      expect(await ids({ name: 'id', op: 'in', val: [SECOND] })).to.deep.equal([SECOND]);
      expect(await ids({ name: 'id', op: '>', val: FIRST })).to.deep.equal([SECOND]);
      expect((await a.get('/api/owner?sort=-id')).body.data.map((r: { id: string }) => r.id)).to.deep.equal([
        SECOND,
        FIRST,
      ]);
    });

    it('refuses a malformed UUID with 400 naming the field or the parameter, before any SQL', async () => {
      const bad = await a.post('/api/pet', {
        data: { type: 'pet', id: SECOND, attributes: { label: 'x', owner_id: 'nope' } },
      });
      expect(bad.status, JSON.stringify(bad.body)).to.equal(400);
      const filter = encodeURIComponent(JSON.stringify([{ name: 'id', op: '==', val: 'not-a-uuid' }]));
      const r = await a.get(`/api/owner?filter[objects]=${filter}`);
      expect(r.status).to.equal(400);
      expect(r.body.errors[0].source).to.deep.equal({ parameter: 'filter[objects]' });
      expect(r.body.errors[0].detail).to.include('id');
    });

    it('relates rows through a char(36) foreign key: relationship, include, linkage', async () => {
      const pet = await a.post('/api/pet', {
        data: {
          type: 'pet',
          id: SECOND,
          attributes: { label: 'cat' },
          relationships: { owner: { data: { type: 'owner', id: FIRST } } },
        },
      });
      expect(pet.status, JSON.stringify(pet.body)).to.equal(201);
      expect((await a.get(`/api/owner/${FIRST}/pets`)).body.data.map((p: { id: string }) => p.id)).to.deep.equal([
        SECOND,
      ]);
      const included = await a.get(`/api/pet/${SECOND}?include=owner`);
      expect(included.body.included[0]).to.deep.include({ type: 'owner', id: FIRST });
      expect((await a.get(`/api/owner/${FIRST}`)).body.data.relationships.pets.data).to.deep.equal([
        { type: 'pet', id: SECOND },
      ]);
      const missing = await a.post('/api/pet', {
        data: {
          type: 'pet',
          id: FIRST,
          relationships: { owner: { data: { type: 'owner', id: '00000000-0000-0000-0000-000000000000' } } },
        },
      });
      expect(missing.status).to.equal(404);
    });

    it('describes a char(36) UUID as format uuid in OpenAPI, and serves text ids as before', async () => {
      // Format B shows the key and the foreign key as fields.
      const doc = (await b.get('/api/openapi.json')).body;
      expect(JSON.stringify(doc)).to.include('"format":"uuid"');
      const ticket = await a.get('/api/ticket/TICKET-0000000000000000000000000001');
      expect(ticket.status).to.equal(200);
      expect(ticket.body.data.attributes).to.deep.equal({ note: 'kept' });
    });
  });
}

const THIRD = 'c2aade11-1e2d-4a1a-9d8f-8dd1df5a2c33';

/** MariaDB/MySQL only: PostgreSQL and SQLite declare a UUID `uuid` (types.test.ts serves it there). */
const BINARY_UUID_SCHEMA = [
  'create table device (id binary(16) primary key, name varchar(50) not null)',
  'create table reading (id binary(16) primary key, device_id binary(16), level int, foreign key (device_id) references device (id))',
  'create table tag (id integer auto_increment primary key, label varchar(20))',
  'create table device_tag (device_id binary(16) not null, tag_id integer not null, primary key (device_id, tag_id), foreign key (device_id) references device (id), foreign key (tag_id) references tag (id))',
  // Bytes that are no key: base64, as before; one the configuration names a UUID.
  'create table upload (id integer primary key, digest binary(16), origin binary(16))',
];

// Only where the database has no uuid type of its own: MariaDB/MySQL.
for (const kind of testedKinds().filter((k) => k === 'mysql')) {
  describe(`colapi serve: UUIDs kept as binary(16) [${kind}]`, function () {
    this.timeout(60_000);
    let served: ServedSchema | undefined;
    let sql: Database;
    let a: HttpClient;
    let b: HttpClient;
    let servers: readonly CatalogueServer[] = [];
    const ids = async (path: string) => (await a.get(path)).body.data.map((r: { id: string }) => r.id);
    const filtered = (filter: unknown) =>
      ids(`/api/device?filter[objects]=${encodeURIComponent(JSON.stringify([filter]))}`);

    before(async function () {
      const config = { tables: { upload: { columns: { origin: { type: 'uuid' as const } } } } };
      served = await serveSchema(this, kind, BINARY_UUID_SCHEMA, config);
      ({ sql, servers, a, b } = served);
    });
    after(() => served?.close());

    it('serves a binary(16) key and the foreign keys to it as UUIDs, other binary(16) as bytes', () => {
      const { registry, warnings } = servers[0]!.current();
      expect(warnings.filter((w) => /^(device|reading|tag|upload)\b/.test(w))).to.deep.equal([]);
      expect(registry.collection('device')!.columns.get('id')).to.include({ type: 'uuid', uuidBytes: true });
      expect(registry.collection('reading')!.columns.get('device_id')).to.include({ type: 'uuid', uuidBytes: true });
      expect(registry.collection('upload')!.columns.get('digest')).to.include({ type: 'binary' });
      expect(registry.collection('upload')!.columns.get('origin')).to.include({ type: 'uuid', uuidBytes: true });
      expect([...registry.collection('device')!.relationships.keys()]).to.deep.equal(['readings', 'tags']);
    });

    it('creates with a client id, stores its 16 bytes, and answers the canonical text in both formats', async () => {
      const upper = await a.post('/api/device', {
        data: { type: 'device', id: FIRST.toUpperCase(), attributes: { name: 'x' } },
      });
      expect(upper.status).to.equal(400);
      const first = await a.post('/api/device', { data: { type: 'device', id: FIRST, attributes: { name: 'first' } } });
      expect(first.status, JSON.stringify(first.body)).to.equal(201);
      expect(first.body.data.id).to.equal(FIRST);
      const second = await b.post('/api/device', { id: SECOND, name: 'second' });
      expect(second.status, JSON.stringify(second.body)).to.equal(201);
      expect(second.body).to.deep.include({ id: SECOND, name: 'second' });
      const [[row]] = (await sql.knex.raw('select lower(hex(id)) as hex from device where name = ?', ['first'])) as [
        { hex: string }[],
      ];
      expect(row!.hex).to.equal(FIRST.replace(/-/g, ''));
      expect((await a.get(`/api/device/${FIRST}`)).body.data).to.deep.include({ id: FIRST });
      expect((await b.get(`/api/device/${SECOND}`)).body).to.deep.include({ id: SECOND, name: 'second' });
      expect((await a.get(`/api/device/${FIRST.toUpperCase()}`)).status).to.equal(404);
      expect((await a.get('/api/device/not-a-uuid')).status).to.equal(404);
    });

    it('filters by ==, in and ordering (by the stored bytes), and sorts', async () => {
      expect(await filtered({ name: 'id', op: '==', val: FIRST.toUpperCase() })).to.deep.equal([FIRST]);
      expect(await filtered({ name: 'id', op: 'in', val: [SECOND, THIRD] })).to.deep.equal([SECOND]);
      expect(await filtered({ name: 'id', op: '>', val: FIRST })).to.deep.equal([SECOND]);
      expect(await filtered({ name: 'id', op: '<=', val: FIRST })).to.deep.equal([FIRST]);
      expect(await ids('/api/device?sort=-id')).to.deep.equal([SECOND, FIRST]);
      expect(await ids('/api/device?sort=id')).to.deep.equal([FIRST, SECOND]);
    });

    it('refuses a malformed UUID with 400 naming the field or parameter', async () => {
      const bad = await a.post('/api/reading', {
        data: { type: 'reading', id: 'nope', attributes: { level: 1 } },
      });
      expect(bad.status, JSON.stringify(bad.body)).to.equal(400);
      const filter = encodeURIComponent(JSON.stringify([{ name: 'id', op: '==', val: 'not-a-uuid' }]));
      const r = await a.get(`/api/device?filter[objects]=${filter}`);
      expect(r.status).to.equal(400);
      expect(r.body.errors[0].source).to.deep.equal({ parameter: 'filter[objects]' });
      const legacy = await b.post('/api/upload', { id: 1, origin: 'xyz' });
      expect(legacy.status).to.equal(400);
      expect(JSON.stringify(legacy.body)).to.include('origin');
    });

    it('relates rows through a binary(16) foreign key: create, related, include, linkage, filter', async () => {
      const reading = await a.post('/api/reading', {
        data: {
          type: 'reading',
          id: THIRD,
          attributes: { level: 3 },
          relationships: { device: { data: { type: 'device', id: FIRST } } },
        },
      });
      expect(reading.status, JSON.stringify(reading.body)).to.equal(201);
      expect(reading.body.data.relationships.device.data).to.deep.equal({ type: 'device', id: FIRST });
      expect(await ids(`/api/device/${FIRST}/readings`)).to.deep.equal([THIRD]);
      const included = await a.get(`/api/reading/${THIRD}?include=device`);
      expect(included.body.included[0]).to.deep.include({ type: 'device', id: FIRST });
      const list = await a.get('/api/device?include=readings');
      expect(
        list.body.data.map((d: { relationships: { readings: { data: unknown } } }) => d.relationships.readings.data),
      ).to.deep.equal([[{ type: 'reading', id: THIRD }], []]);
      expect(list.body.included.map((r: { id: string }) => r.id)).to.deep.equal([THIRD]);
      const q = encodeURIComponent(JSON.stringify({ filters: [{ name: 'device_id', op: '==', val: FIRST }] }));
      const byDevice = await b.get(`/api/reading?q=${q}`);
      expect(byDevice.body.objects.map((r: { id: string; device_id: string }) => [r.id, r.device_id])).to.deep.equal([
        [THIRD, FIRST],
      ]);
      // Moved to the other device through its relationship endpoint, then the first cannot go while referenced.
      const moved = await a.patch(`/api/reading/${THIRD}/relationships/device`, {
        data: { type: 'device', id: SECOND },
      });
      expect(moved.status, JSON.stringify(moved.body)).to.be.oneOf([200, 204]);
      expect(await ids(`/api/device/${SECOND}/readings`)).to.deep.equal([THIRD]);
      expect((await a.delete(`/api/device/${SECOND}`)).status).to.equal(409);
      // Back to the first through the first's to-many relationship (the foreign key set on the reading).
      const back = { data: [{ type: 'reading', id: THIRD }] };
      expect((await a.post(`/api/device/${FIRST}/relationships/readings`, back)).status).to.be.oneOf([200, 204]);
      expect(await ids(`/api/device/${FIRST}/readings`)).to.deep.equal([THIRD]);
      expect(await ids(`/api/device/${SECOND}/readings`)).to.deep.equal([]);
    });

    it('creates a row whose binary(16) key the database fills, and answers its UUID', async () => {
      await sql.knex.raw(
        "create table session (id binary(16) primary key default (unhex(replace(uuid(), '-', ''))), note varchar(20))",
      );
      await servers[0]!.reload();
      const created = await a.post('/api/session', { data: { type: 'session', attributes: { note: 'n' } } });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body.data.id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect((await a.get(`/api/session/${created.body.data.id}`)).body.data.attributes).to.deep.equal({ note: 'n' });
    });

    it('joins binary(16) keys through a join table: add, list, remove', async () => {
      const tag = await a.post('/api/tag', { data: { type: 'tag', attributes: { label: 'hot' } } });
      expect(tag.status).to.equal(201);
      const link = { data: [{ type: 'tag', id: tag.body.data.id }] };
      expect((await a.post(`/api/device/${FIRST}/relationships/tags`, link)).status).to.be.oneOf([200, 204]);
      expect(await ids(`/api/device/${FIRST}/tags`)).to.deep.equal([tag.body.data.id]);
      expect(await ids(`/api/tag/${tag.body.data.id}/devices`)).to.deep.equal([FIRST]);
      expect((await a.get(`/api/device/${FIRST}`)).body.data.relationships.tags.data).to.deep.equal(link.data);
      expect((await a.delete(`/api/device/${FIRST}/relationships/tags`, { body: link })).status).to.be.oneOf([
        200, 204,
      ]);
      expect(await ids(`/api/device/${FIRST}/tags`)).to.deep.equal([]);
    });

    it('describes binary(16) UUIDs as format uuid in OpenAPI, and keeps other bytes base64', async () => {
      const doc = JSON.stringify((await b.get('/api/openapi.json')).body);
      expect(doc).to.include('"format":"uuid"');
      expect(doc).to.include('"contentEncoding":"base64"');
      const digest = Buffer.alloc(16, 7).toString('base64');
      const upload = await b.post('/api/upload', { id: 2, digest, origin: FIRST });
      expect(upload.status, JSON.stringify(upload.body)).to.equal(201);
      expect(upload.body).to.deep.include({ digest, origin: FIRST });
    });
  });
}
