import { type DatabaseKind, type HttpClient, testedKinds } from '@colapi/test-fixtures/testing';
import { operationAt, schemaChecker } from '@colapi/openapi-check';
import { expect } from 'chai';
import type { CatalogueServer } from '../src/index.js';
import { serveSchema, type ServedSchema } from './served-schema.js';

/**
 * The types of real schemas through `colapi serve` with no configuration, on each database: a table keyed
 * by a UUID holding a column of each type the database has, and a table referring to it. Each value is
 * written, read back in both formats, found by a filter, and sorted by where the type orders.
 */
const SCHEMAS: Record<DatabaseKind, readonly string[]> = {
  postgres: [
    "create type mood as enum ('sad', 'ok', 'happy')",
    `create table gadget (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      mood mood,
      price numeric(10,2),
      big numeric(30,10),
      counter bigint,
      bytes bytea,
      doc jsonb,
      tags text[],
      moods mood[],
      scores integer[],
      seen timestamptz,
      span tsrange,
      mac macaddr,
      rate money,
      search tsvector generated always as (to_tsvector('simple', name)) stored)`,
    'create table part (id serial primary key, gadget_id uuid references gadget (id), label text)',
  ],
  mysql: [
    `create table gadget (
      id uuid primary key default uuid(),
      name varchar(100) not null,
      mood enum('sad', 'ok', 'happy'),
      price decimal(10,2),
      big decimal(30,10),
      counter bigint,
      bytes longblob,
      doc json,
      features set('wifi', 'gps', 'nfc'),
      flag bit(1))`,
    'create table part (id integer auto_increment primary key, gadget_id uuid, label varchar(50), foreign key (gadget_id) references gadget (id))',
  ],
  sqlite: [
    `create table gadget (
      id uuid primary key,
      name text not null,
      mood text check (mood in ('sad', 'ok', 'happy')),
      price numeric(10,2),
      counter integer,
      bytes blob,
      doc json)`,
    'create table part (id integer primary key, gadget_id uuid references gadget (id), label text)',
  ],
};

interface Case {
  readonly field: string;
  /** Written to the first gadget, and what comes back. */
  readonly write: unknown;
  readonly read?: unknown;
  /** Written to the second gadget. */
  readonly other: unknown;
  /** The filter that finds the first gadget and not the second. */
  readonly find: { readonly op: string; readonly val: unknown };
  /** A value of the wrong form. */
  readonly wrong: unknown;
  /** Whether sorting by it puts the first gadget first. */
  readonly ordersFirst?: boolean;
}

const bytes = Buffer.from([0, 1, 2, 250, 255, 10, 0]).toString('base64');
const COMMON: readonly Case[] = [
  { field: 'mood', write: 'happy', other: 'sad', find: { op: 'in', val: ['happy', 'ok'] }, wrong: 'angry' },
  {
    field: 'price',
    write: '1.005',
    read: '1.01',
    other: 12,
    find: { op: '<', val: '1.02' },
    wrong: '1e10',
    ordersFirst: true,
  },
  { field: 'bytes', write: bytes, other: 'AAAA', find: { op: '==', val: bytes }, wrong: 'not base64!' },
  {
    field: 'doc',
    write: { a: [1, 2], b: 'x', c: null },
    other: ['list'],
    find: { op: 'contains', val: { b: 'x' } },
    wrong: undefined,
  },
];
const BY_KIND: Record<DatabaseKind, readonly Case[]> = {
  postgres: [
    {
      field: 'big',
      write: '12345678901234567890.0123456789',
      other: '-1',
      find: { op: '>', val: '12345678901234567890.0123456788' },
      wrong: 'x',
    },
    {
      field: 'counter',
      write: '9007199254740993',
      other: 5,
      find: { op: '==', val: '9007199254740993' },
      wrong: 1.5,
    },
    {
      field: 'tags',
      write: ['red', 'blue, "quoted"', 'back\\slash'],
      other: ['green'],
      find: { op: 'cs', val: ['blue, "quoted"'] },
      wrong: 'red',
    },
    { field: 'moods', write: ['ok', 'happy'], other: [], find: { op: 'overlaps', val: ['happy'] }, wrong: ['angry'] },
    { field: 'scores', write: [3, 1, 2], other: [7], find: { op: 'contains', val: [1, 3] }, wrong: ['a'] },
    {
      field: 'seen',
      write: '2024-05-31T23:30:00.25+02:00',
      read: '2024-05-31T21:30:00.25Z',
      other: '2024-05-31T22:00:00Z',
      find: { op: '==', val: '2024-05-31T21:30:00.25Z' },
      wrong: '2024-05-31T21:30:00',
      ordersFirst: true,
    },
    {
      field: 'span',
      write: '[2024-01-01 00:00:00,2024-02-01 00:00:00)',
      read: '["2024-01-01 00:00:00","2024-02-01 00:00:00")',
      other: 'empty',
      find: { op: '==', val: '["2024-01-01 00:00:00","2024-02-01 00:00:00")' },
      wrong: undefined,
    },
    {
      field: 'mac',
      write: '08:00:2b:01:02:03',
      other: '08:00:2b:01:02:04',
      find: { op: '==', val: '08:00:2b:01:02:03' },
      wrong: undefined,
    },
    { field: 'rate', write: '12.34', other: '99.99', find: { op: '<', val: 13 }, wrong: 'cheap', ordersFirst: true },
  ],
  mysql: [
    {
      field: 'big',
      write: '12345678901234567890.0123456789',
      other: '-1',
      find: { op: '>', val: '12345678901234567890.0123456788' },
      wrong: 'x',
    },
    {
      field: 'counter',
      write: '9007199254740993',
      other: 5,
      find: { op: '==', val: '9007199254740993' },
      wrong: 1.5,
    },
    {
      field: 'features',
      write: ['nfc', 'wifi'],
      read: ['wifi', 'nfc'],
      other: ['gps'],
      find: { op: 'contains', val: ['wifi'] },
      wrong: ['radio'],
    },
    { field: 'flag', write: true, other: false, find: { op: '==', val: true }, wrong: 'maybe' },
  ],
  sqlite: [{ field: 'counter', write: 7, other: 5, find: { op: '>', val: 6 }, wrong: 'seven' }],
};

const FIRST = 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11';
const SECOND = 'b1ffcd00-0d1c-4f09-8c7e-7cc0ce491b22';

for (const kind of testedKinds()) {
  describe(`colapi serve on the types of real schemas [${kind}]`, function () {
    this.timeout(60_000);
    let served: ServedSchema | undefined;
    let a: HttpClient;
    let b: HttpClient;
    let servers: readonly CatalogueServer[] = [];
    const cases = [...COMMON, ...(BY_KIND[kind] ?? [])];
    const attributes = (pick: (c: Case) => unknown) =>
      Object.fromEntries(cases.filter((c) => pick(c) !== undefined).map((c) => [c.field, pick(c)]));

    before(async function () {
      const schema = SCHEMAS[kind];
      if (!schema) throw new Error(`no schema of the types for ${kind}: add one`);
      served = await serveSchema(this, kind, schema);
      ({ servers, a, b } = served);
    });
    after(() => served?.close());

    it('serves both tables and every column, the UUID key and the foreign key to it as a relationship', () => {
      const current = servers[0]!.current();
      expect(current.warnings.filter((w) => /^(gadget|part)\b/.test(w))).to.deep.equal([]);
      const gadget = current.registry.collection('gadget')!;
      expect(gadget.columns.get('id')).to.include({ type: 'uuid' });
      expect([...gadget.relationships.keys()]).to.deep.equal(['parts']);
      expect([...current.registry.collection('part')!.relationships.keys()]).to.deep.equal(['gadget']);
    });

    it('writes each value, answers it in its JSON form, in both formats', async () => {
      // An id has one spelling, a UUID's is in lower case: another is 400 in a body (404 in a URL).
      const upper = await a.post('/api/gadget', { data: { type: 'gadget', id: FIRST, attributes: { name: 'x' } } });
      expect(upper.status).to.equal(400);
      expect(upper.body.errors[0].source).to.deep.equal({ pointer: '/data/id' });
      const created = await a.post('/api/gadget', {
        data: {
          type: 'gadget',
          id: FIRST.toLowerCase(),
          attributes: { name: 'first', ...attributes((c) => c.write) },
        },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body.data.id).to.equal(FIRST.toLowerCase());
      const expected = attributes((c) => (c.read === undefined ? c.write : c.read));
      expect(created.body.data.attributes).to.deep.include(expected);
      const other = await a.post('/api/gadget', {
        data: { type: 'gadget', id: SECOND, attributes: { name: 'second', ...attributes((c) => c.other) } },
      });
      expect(other.status, JSON.stringify(other.body)).to.equal(201);
      expect((await a.get(`/api/gadget/${FIRST.toLowerCase()}`)).body.data.attributes).to.deep.include(expected);
      const legacy = await b.get(`/api/gadget/${FIRST.toLowerCase()}`);
      expect(legacy.status).to.equal(200);
      expect(legacy.body).to.deep.include({ id: FIRST.toLowerCase(), ...expected });
    });

    it('finds each value by the filter its type takes', async () => {
      for (const c of cases) {
        const filter = encodeURIComponent(JSON.stringify([{ name: c.field, ...c.find }]));
        const r = await a.get(`/api/gadget?filter[objects]=${filter}`);
        if (kind === 'sqlite' && c.find.op === 'contains') {
          // SQLite has no containment of JSON documents: refused before any SQL, naming the parameter.
          expect(r.status, JSON.stringify(r.body)).to.equal(400);
          expect(r.body.errors[0].source).to.deep.equal({ parameter: 'filter[objects]' });
          continue;
        }
        expect(r.status, `${c.field}: ${JSON.stringify(r.body)}`).to.equal(200);
        expect(
          r.body.data.map((g: { id: string }) => g.id),
          c.field,
        ).to.deep.equal([FIRST.toLowerCase()]);
      }
    });

    it('sorts by the types that order', async () => {
      for (const c of cases.filter((x) => x.ordersFirst)) {
        const r = await a.get(`/api/gadget?sort=${c.field}`);
        expect(r.status, `${c.field}: ${JSON.stringify(r.body)}`).to.equal(200);
        expect(r.body.data[0].id, c.field).to.equal(FIRST.toLowerCase());
      }
      expect((await a.get('/api/gadget?sort=-id')).body.data[0].id).to.equal(SECOND);
    });

    it('refuses a value of the wrong form with 400 naming the field, and changes nothing', async () => {
      for (const c of cases.filter((x) => x.wrong !== undefined)) {
        const r = await a.patch(`/api/gadget/${SECOND}`, {
          data: { type: 'gadget', id: SECOND, attributes: { [c.field]: c.wrong } },
        });
        expect(r.status, `${c.field}: ${JSON.stringify(r.body)}`).to.equal(400);
        expect(r.body.errors[0].source, c.field).to.deep.equal({ pointer: `/data/attributes/${c.field}` });
      }
      const after = (await a.get(`/api/gadget/${SECOND}`)).body.data.attributes;
      expect(after).to.deep.include({ name: 'second' });
    });

    it('addresses a resource by its UUID strictly: another spelling or no UUID is 404', async () => {
      expect((await a.get(`/api/gadget/${FIRST}`)).status).to.equal(404);
      expect((await a.get('/api/gadget/not-a-uuid')).status).to.equal(404);
      expect((await b.get('/api/gadget/not-a-uuid')).status).to.equal(404);
    });

    it('relates rows through a foreign key to a UUID', async () => {
      const part = await a.post('/api/part', {
        data: {
          type: 'part',
          attributes: { label: 'lid' },
          relationships: { gadget: { data: { type: 'gadget', id: FIRST.toLowerCase() } } },
        },
      });
      expect(part.status, JSON.stringify(part.body)).to.equal(201);
      const parts = await a.get(`/api/gadget/${FIRST.toLowerCase()}/parts`);
      expect(parts.body.data.map((p: { id: string }) => p.id)).to.deep.equal([part.body.data.id]);
      const included = await a.get(`/api/part/${part.body.data.id}?include=gadget`);
      expect(included.body.included[0]).to.deep.include({ type: 'gadget', id: FIRST.toLowerCase() });
      const missing = await a.post('/api/part', {
        data: {
          type: 'part',
          relationships: { gadget: { data: { type: 'gadget', id: '00000000-0000-0000-0000-000000000000' } } },
        },
      });
      expect(missing.status).to.equal(404);
    });

    it('answers what its OpenAPI document says, in both formats', async () => {
      for (const [client, collectionOf] of [
        [a, (body: { data: unknown }) => body.data],
        [b, (body: { objects: unknown }) => body.objects],
      ] as const) {
        const doc = (await client.get('/api/openapi.json')).body;
        const check = schemaChecker(doc);
        const schemaOf = (path: string) =>
          Object.values(operationAt(doc, path, 'get').responses['200']!.content!)[0]!.schema as object;
        const one = await client.get(`/api/gadget/${FIRST.toLowerCase()}`);
        expect(check(schemaOf('/api/gadget/{id}'), one.body), `${client === a ? 'A' : 'B'} one`).to.equal(undefined);
        const list = await client.get('/api/gadget');
        expect((collectionOf as (b: unknown) => unknown[])(list.body)).to.have.length(2);
        expect(check(schemaOf('/api/gadget'), list.body), `${client === a ? 'A' : 'B'} list`).to.equal(undefined);
      }
    });

    it('describes each type in OpenAPI', async () => {
      const doc = (await a.get('/api/openapi.json')).body;
      const text = JSON.stringify(doc);
      expect(text).to.include('"contentEncoding":"base64"');
      expect(text).to.include('"enum":["sad","ok","happy"');
    });
  });
}
