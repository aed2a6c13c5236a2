import { connect, disconnect, type Database } from '@colapi/sql-compiler';
import {
  type DatabaseKind,
  HttpClient,
  type TestDatabase,
  testDatabaseOrSkip,
  testedKinds,
} from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { serveCatalogue, type CatalogueServer } from '../src/index.js';

/**
 * Small tables whose every refusal must name its field: NOT NULL columns and foreign keys, a key without a
 * default, one-column and two-column CHECKs, numeric(5,2) and smallint. On PostgreSQL a CHECK and a NOT NULL
 * are also a domain's, whose errors name only the domain.
 */
const DDL: Record<string, string[]> = {
  postgres: [
    'create domain positive_count as integer check (value > 0)',
    'create table writer (id serial primary key, name varchar(40) not null)',
    `create table book (id serial primary key, title varchar(80) not null, pages positive_count,
      price numeric(5,2), copies smallint, rating integer check (rating between 1 and 5),
      first_year integer, last_year integer, writer_id integer not null references writer(id),
      constraint years_ordered check (first_year <= last_year))`,
    'create table label (code integer primary key, name varchar(20) not null)',
    'create domain stamp_code as varchar(10) not null',
    'create table stamp (id serial primary key, code stamp_code)',
  ],
  mysql: [
    'create table writer (id int auto_increment primary key, name varchar(40) not null) engine=InnoDB',
    `create table book (id int auto_increment primary key, title varchar(80) not null, pages integer check (pages > 0),
      price decimal(5,2), copies smallint, rating integer check (rating between 1 and 5),
      first_year integer, last_year integer, writer_id integer not null, foreign key (writer_id) references writer(id),
      constraint years_ordered check (first_year <= last_year)) engine=InnoDB`,
    'create table label (code integer primary key, name varchar(20) not null) engine=InnoDB',
    'create table stamp (id int auto_increment primary key, code varchar(10) not null) engine=InnoDB',
  ],
  sqlite: [
    'create table writer (id integer primary key, name varchar(40) not null)',
    `create table book (id integer primary key, title varchar(80) not null, pages integer check (pages > 0),
      price numeric(5,2), copies smallint, rating integer constraint rating_range check (rating between 1 and 5),
      first_year integer, last_year integer, writer_id integer not null references writer(id),
      constraint years_ordered check (first_year <= last_year))`,
    // Not `integer primary key`, which is the rowid and numbered; NOT NULL, which SQLite's keys lack otherwise.
    'create table label (code int not null primary key, name varchar(20) not null)',
    'create table stamp (id integer primary key, code varchar(10) not null)',
  ],
};

const BOOK = {
  id: 1,
  title: 'First',
  pages: 10,
  price: '1.50',
  copies: 3,
  rating: 3,
  first_year: 2000,
  last_year: 2001,
  writer_id: 1,
};

interface Served {
  readonly sql: Database;
  readonly a: HttpClient;
  readonly b: HttpClient;
  readonly servers: CatalogueServer[];
}

/** A refusal of Format A: 400, one error, naming `field` in its detail, at `pointer` (or none). */
function refusedA(res: { status: number; body: any }, field: RegExp, pointer: string | undefined): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(400);
  expect(res.body.errors).to.have.length(1);
  const [error] = res.body.errors;
  expect(error.detail).to.match(field);
  expect(error.source?.pointer).to.equal(pointer);
}

/** A refusal of Format B: 400 whose message names the field. */
function refusedB(res: { status: number; body: any }, field: RegExp): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(400);
  expect(Object.keys(res.body)).to.deep.equal(['message']);
  expect(res.body.message).to.match(field);
}

/** The component schema a `$ref` names, or the schema itself. */
function resolve(document: any, schema: any): any {
  const ref = schema?.$ref as string | undefined;
  return ref === undefined ? schema : document.components.schemas[ref.replace('#/components/schemas/', '')];
}

/** The schema of the body of POST on a path, resolved. */
function createBody(document: any, path: string, media: string): any {
  return resolve(document, document.paths[path].post.requestBody.content[media].schema);
}

for (const kind of testedKinds()) {
  describe(`colapi serve: errors name the field [${kind}]`, function () {
    this.timeout(60_000);
    let db: TestDatabase | undefined;
    let served: Served | undefined;
    before(async function () {
      db = await testDatabaseOrSkip(this, kind as DatabaseKind, 'colapi_i29e_');
      const sql = connect(db!.url, { pool: { min: 0, max: 1 } });
      for (const statement of DDL[kind]!) await sql.knex.raw(statement);
      // Numbered by the database (1 on each), so that its generator is past them for the creates that succeed.
      await sql.knex('writer').insert({ name: 'Ann' });
      const { id: _, ...book } = BOOK;
      await sql.knex('book').insert(book);
      await sql.knex('label').insert({ code: 1, name: 'one' });
      const small = { pool: { min: 0, max: 2 } };
      const jsonapi = await serveCatalogue({ databaseUrl: db!.url, format: 'jsonapi', connect: small });
      const legacy = await serveCatalogue({ databaseUrl: db!.url, format: 'legacy', connect: small });
      served = {
        sql,
        a: new HttpClient(jsonapi.origin, 'application/vnd.api+json'),
        b: new HttpClient(legacy.origin, 'application/json'),
        servers: [jsonapi, legacy],
      };
    });
    after(async () => {
      for (const s of served?.servers ?? []) await s.close(500);
      if (served) await disconnect(served.sql);
      await db?.drop();
    });

    /** A create of a book by writer 1, or by `writer` (`'none'`: without the relationship). */
    const createA = (attributes: Record<string, unknown>, writer: unknown = { type: 'writer', id: '1' }) =>
      served!.a.post('/api/book', {
        data: {
          type: 'book',
          attributes: { title: 'New', ...attributes },
          ...(writer === 'none' ? {} : { relationships: { writer: { data: writer } } }),
        },
      });
    const updateA = (attributes: Record<string, unknown>) =>
      served!.a.patch('/api/book/1', { data: { type: 'book', id: '1', attributes } });
    const createB = (fields: Record<string, unknown>) =>
      served!.b.post('/api/book', { title: 'New', writer_id: 1, ...fields });
    const updateB = (fields: Record<string, unknown>) => served!.b.patch('/api/book/1', fields);

    describe('a missing value', () => {
      it('Format A: an attribute not sent, on create', async () => {
        const res = await served!.a.post('/api/book', {
          data: { type: 'book', attributes: {}, relationships: { writer: { data: { type: 'writer', id: '1' } } } },
        });
        refusedA(res, /"title" is required/, '/data/attributes/title');
      });

      it('Format A: a required to-one relationship, not sent on create and set to null on update', async () => {
        refusedA(await createA({}, 'none'), /"writer(_id)?".*is required/, '/data/relationships/writer');
        refusedA(await createA({}, null), /"writer(_id)?".*is required/, '/data/relationships/writer');
        const res = await served!.a.patch('/api/book/1', {
          data: { type: 'book', id: '1', relationships: { writer: { data: null } } },
        });
        refusedA(res, /"writer(_id)?".*is required/, '/data/relationships/writer');
        // The relationship's own endpoint: its body is the linkage.
        const linkage = await served!.a.patch('/api/book/1/relationships/writer', { data: null });
        refusedA(linkage, /"writer(_id)?".*is required/, '/data');
      });

      it('Format A: a key without a default, not sent', async () => {
        const res = await served!.a.post('/api/label', { data: { type: 'label', attributes: { name: 'two' } } });
        refusedA(res, /"code" is required: label gives no id of its own/, '/data/id');
      });

      it('Format A and B: a column (on PostgreSQL of a NOT NULL domain) not sent', async () => {
        refusedA(
          await served!.a.post('/api/stamp', { data: { type: 'stamp', attributes: {} } }),
          /"code" is required/,
          '/data/attributes/code',
        );
        refusedB(await served!.b.post('/api/stamp', {}), /"code" is required/);
        expect(await served!.sql.knex('stamp').count({ n: '*' })).to.deep.equal([{ n: 0 }]);
      });

      it('Format B: the field, the foreign key and the key', async () => {
        refusedB(await served!.b.post('/api/book', { writer_id: 1 }), /"title" is required/);
        refusedB(
          await served!.b.post('/api/book', { title: 'New' }),
          /"writer_id" \(the relationship "writer"\) is required/,
        );
        refusedB(await updateB({ writer: null }), /"writer_id".* is required/);
        refusedB(await served!.b.post('/api/label', { name: 'two' }), /"code" is required/);
      });
    });

    describe('a failed CHECK', () => {
      const pages =
        kind === 'postgres' ? /"pages" breaks the check "positive_count_check"/ : /"pages" breaks the check/;

      it('Format A: of one column (on PostgreSQL a domain) points at it, on create and on update', async () => {
        refusedA(await createA({ rating: 9 }), /"rating" breaks the check/, '/data/attributes/rating');
        refusedA(await updateA({ rating: 0 }), /"rating" breaks the check/, '/data/attributes/rating');
        refusedA(await createA({ pages: -1 }), pages, '/data/attributes/pages');
        refusedA(await updateA({ pages: 0 }), pages, '/data/attributes/pages');
      });

      it('Format A: of two columns names the constraint and both, without a pointer', async () => {
        const detail = /"first_year", "last_year" break the check "years_ordered" of the database together/;
        refusedA(await createA({ first_year: 2005, last_year: 2000 }), detail, undefined);
        refusedA(await updateA({ first_year: 2005 }), detail, undefined);
      });

      it('Format B: the message names the field, or the constraint and its fields', async () => {
        refusedB(await createB({ rating: 9 }), /"rating" breaks the check/);
        refusedB(await updateB({ pages: -3 }), pages);
        refusedB(await updateB({ last_year: 1990 }), /"first_year", "last_year" break the check "years_ordered"/);
      });
    });

    describe('a number beyond its declared size', () => {
      it('Format A: numeric(5,2) and smallint, on create and on update', async () => {
        refusedA(await createA({ price: 1000 }), /"price"/, '/data/attributes/price');
        // Rounded to two places, as the database stores it, 999.995 is 1000.00.
        refusedA(await updateA({ price: '999.995' }), /"price"/, '/data/attributes/price');
        refusedA(await createA({ copies: 40000 }), /"copies": 40000 is out of the range/, '/data/attributes/copies');
        refusedA(await updateA({ copies: -32769 }), /"copies"/, '/data/attributes/copies');
      });

      it('Format A: the largest values that fit are kept', async () => {
        const res = await createA({ price: '-999.99', copies: 32767 });
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        expect(res.body.data.attributes.copies).to.equal(32767);
        expect(Number(res.body.data.attributes.price)).to.equal(-999.99);
        await served!.sql.knex('book').where('id', res.body.data.id).del();
      });

      it('Format B: the message names the field', async () => {
        refusedB(await createB({ price: 12345.6 }), /"price"/);
        refusedB(await updateB({ copies: 99999 }), /"copies"/);
      });
    });

    it('OpenAPI: a create requires the NOT NULL fields without default, the required relationship and the id', async () => {
      const a = (await served!.a.getRaw('/api/openapi.json')).body;
      const book = createBody(a, '/api/book', 'application/vnd.api+json').properties.data;
      expect(book.required).to.include.members(['type', 'attributes', 'relationships']);
      expect(book.required).not.to.include('id');
      expect(book.properties.attributes.required).to.deep.equal(['title']);
      expect(book.properties.relationships.required).to.deep.equal(['writer']);
      const label = createBody(a, '/api/label', 'application/vnd.api+json').properties.data;
      expect(label.required).to.include.members(['type', 'id', 'attributes']);
      expect(label.properties.attributes.required).to.deep.equal(['name']);

      const b = (await served!.b.getRaw('/api/openapi.json')).body;
      const bookB = createBody(b, '/api/book', 'application/json');
      expect(bookB.required).to.deep.equal(['title']);
      expect(bookB.allOf).to.deep.include({
        anyOf: [{ required: ['writer_id'] }, { required: ['writer'] }],
        description: 'writer_id or writer.',
      });
      expect(createBody(b, '/api/label', 'application/json').required).to.deep.equal(['code', 'name']);
    });

    // A suite of its own, after the others: mocha runs a suite's own tests before its nested suites.
    describe('afterwards', () => {
      it('every row is as it was', async () => {
        const books = await served!.sql.knex('book').select();
        expect(books).to.have.length(1);
        expect({ ...books[0], price: Number(books[0].price).toFixed(2) }).to.deep.equal(BOOK);
        expect(await served!.sql.knex('label').select()).to.deep.equal([{ code: 1, name: 'one' }]);
        expect(await served!.sql.knex('writer').select()).to.deep.equal([{ id: 1, name: 'Ann' }]);
      });
    });
  });
}
