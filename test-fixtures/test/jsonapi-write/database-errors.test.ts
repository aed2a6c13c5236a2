import type { DatabaseErrorKind } from '@colapi/sql-compiler';
import { itWhen, describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { databaseError } from '@colapi/server-koa';
import { census, count, expectError, expectStatus, ref, resource, rows } from './helpers.js';

/** Errors the database raises are answered with a status of their own: never a 500, never its text. */
describeEachDatabase('Format A: database errors are mapped', (t, kind) => {
  beforeEach(() => t().seed());

  describe('through the API', () => {
    it('a unique violation (a duplicate tag name) is 409 pointing at the attribute, on create and on update', async () => {
      const before = await census(t());
      const pointer = { pointer: '/data/attributes/name' };
      for (const res of [
        await t().http.post('/api/tag', resource('tag', { name: 'news' })),
        await t().http.post('/api/tag', resource('tag', { name: 'news' }, undefined, '9')),
        await t().http.patch('/api/tag/2', resource('tag', { name: 'news' }, undefined, '2')),
      ]) {
        expect(expectError(res, 409, pointer).detail).to.equal('"name" must be unique: another tag has the same value');
      }
      expect(await census(t())).to.deep.equal(before);
      expect((await rows(t(), 'tag', { id: 2 }))[0]!.name).to.equal('tech');
    });

    it('setting a unique value to what it already is is fine', async () => {
      expectStatus(await t().http.patch('/api/tag/2', resource('tag', { name: 'tech' }, undefined, '2')), 200);
    });

    it('a not-null violation raised by the database (a tag with no name) is 400', async () => {
      expectError(await t().http.post('/api/tag', resource('tag', {})), 400);
      expectError(await t().http.post('/api/tag', { data: { type: 'tag' } }), 400);
      expect(await count(t(), 'tag')).to.equal(3);
    });

    it('null for a column that takes none is refused before the database, pointing at it', async () => {
      expectError(await t().http.post('/api/tag', resource('tag', { name: null })), 400, {
        pointer: '/data/attributes/name',
      });
    });

    it('a missing related row is 404', async () => {
      expectError(
        await t().http.post('/api/article', resource('article', { title: 'x' }, { author: ref('person', 404) })),
        404,
      );
      expectError(await t().http.patch('/api/article/1/relationships/author', { data: ref('person', 404) }), 404);
      expect(await count(t(), 'article')).to.equal(5);
    });

    it('a row still referenced is 409', async () => {
      expectError(await t().http.delete('/api/person/2'), 409);
    });

    // integer columns are 32 bits on PostgreSQL and MariaDB; SQLite would store 64 and is refused alike.
    for (const age of [2147483648, -2147483649, 9007199254740991]) {
      it(`an integer out of its column's range (${age}) is 400 on create and on update, nothing written`, async () => {
        const before = await census(t());
        for (const res of [
          await t().http.post('/api/person', resource('person', { name: 'big', age })),
          await t().http.patch('/api/person/1', resource('person', { age }, undefined, '1')),
        ]) {
          const error = expectError(res, 400);
          // PostgreSQL's error does not name the column; the other two do.
          if (kind === 'postgres') expect(error.detail).to.equal('a number is out of the range its field holds');
          else {
            expect(error.detail).to.equal('"age": the number is out of the range the field holds');
            expect(error.source).to.deep.equal({ pointer: '/data/attributes/age' });
          }
        }
        expect(await census(t())).to.deep.equal(before);
        expect((await rows(t(), 'person', { id: 1 }))[0]!.age).to.not.equal(age);
      });
    }

    it('the bounds of a 32-bit integer are stored', async () => {
      for (const age of [2147483647, -2147483648]) {
        expectStatus(await t().http.patch('/api/person/1', resource('person', { age }, undefined, '1')), 200);
        expect((await rows(t(), 'person', { id: 1 }))[0]!.age).to.equal(age);
      }
    });

    it('a filter may compare an integer field with any safe integer, out of its range too', async () => {
      const filter = encodeURIComponent(JSON.stringify([{ name: 'age', op: '<', val: 9007199254740991 }]));
      const res = expectStatus(await t().http.get(`/api/person?filter[objects]=${filter}`), 200);
      expect(res.body.data).to.have.length.above(0);
    });
  });

  describe("each dialect's classifyError on the errors its driver really raises", () => {
    const CASES: [string, DatabaseErrorKind, number, (knex: import('knex').Knex) => Promise<unknown>][] = [
      ['a duplicate unique value', 'unique-violation', 409, (k) => k('tag').insert({ name: 'news' })],
      ['a duplicate key', 'unique-violation', 409, (k) => k('tag').insert({ id: 1, name: 'other' })],
      ['a missing not-null value', 'not-null-violation', 400, (k) => k('tag').insert({})],
      [
        'null into a not-null column',
        'not-null-violation',
        400,
        (k) => k('tag').where({ id: 1 }).update({ name: null }),
      ],
      [
        'a foreign key to a missing row (insert)',
        'foreign-key-missing',
        404,
        (k) => k('article').insert({ title: 'x', author_id: 999 }),
      ],
      [
        'a foreign key to a missing row (update)',
        'foreign-key-missing',
        404,
        (k) => k('comment').where({ id: 1 }).update({ article_id: 999 }),
      ],
      ['a delete of a referenced row', 'foreign-key-referenced', 409, (k) => k('person').where({ id: 1 }).del()],
    ];
    for (const [name, kind, status, run] of CASES) {
      it(`${name}: ${kind} → ${status}`, async () => {
        const { knex, dialect } = t().target.database;
        const error = await run(knex).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error, 'the database refused it').to.be.instanceOf(Error);
        expect(dialect.classifyError(error), String(error)).to.equal(kind);
        const mapped = databaseError(kind);
        expect(mapped.status).to.equal(status);
        expect(mapped.detail).to.not.include(String((error as Error).message).slice(0, 20));
      });
    }

    it('errorPlace names the table and column of a duplicate unique value', async () => {
      const { knex, dialect } = t().target.database;
      const error = await knex('tag')
        .insert({ name: 'news' })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(await dialect.errorPlace!(knex, error)).to.deep.equal({ table: 'tag', columns: ['name'] });
    });

    it('errorPlace names the key of a duplicate key where the database tells the table', async () => {
      const { knex, dialect } = t().target.database;
      const error = await knex('tag')
        .insert({ id: 1, name: 'other' })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      const place = await dialect.errorPlace!(knex, error);
      // MariaDB says only "for key 'PRIMARY'", which every table has.
      if (kind === 'mysql' && place === undefined) return;
      expect(place).to.deep.equal({ table: 'tag', columns: ['id'] });
    });

    itWhen(
      kind !== 'sqlite',
      'a value the column type refuses (text into an integer column) is invalid-value → 400, where the database checks it',
      async () => {
        const { knex, dialect } = t().target.database;
        const error = await knex('person')
          .insert({ age: 'old' })
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        expect(dialect.classifyError(error), String(error)).to.equal('invalid-value');
        expect(databaseError('invalid-value').status).to.equal(400);
      },
    );

    it('a check constraint broken is check-violation → 400', async () => {
      const { knex, dialect } = t().target.database;
      await knex.schema.dropTableIfExists('colapi_check_probe');
      await knex.schema.createTable('colapi_check_probe', (table) => {
        table.integer('n').checkPositive();
      });
      try {
        const error = await knex('colapi_check_probe')
          .insert({ n: -1 })
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        expect(dialect.classifyError(error), String(error)).to.equal('check-violation');
        expect(databaseError('check-violation').status).to.equal(400);
      } finally {
        await knex.schema.dropTableIfExists('colapi_check_probe');
      }
    });

    it("an error that is not the client's (a missing table) is not classified: a 500 without details", async () => {
      const { knex, dialect } = t().target.database;
      const error = await knex('no_such_table')
        .select('*')
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(dialect.classifyError(error)).to.equal(undefined);
    });
  });
});
