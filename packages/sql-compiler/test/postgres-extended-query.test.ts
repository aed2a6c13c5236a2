import { expect } from 'chai';
import { postgres } from '../src/index.js';
import { scratchDatabaseOrSkip, TESTED_DIALECTS, type ScratchDatabase } from './support/scratch-database.js';

interface PgClientLike {
  query(
    config: unknown,
    callback: (error: unknown, result?: { rows: unknown[]; rowCount: number | null }) => void,
  ): void;
  getTypeParser(oid: number, format?: string): (raw: string) => unknown;
  /** node-postgres's wire, whose messages the client listens to. */
  readonly connection: {
    readonly parsedStatements: Readonly<Record<string, string>>;
    on(event: string, listener: () => void): void;
    off(event: string, listener: () => void): void;
  };
}

/**
 * The dialect runs its statements through its own Submittable (postgres-extended-query.ts), which builds
 * rows from a shape kept per statement. It must answer exactly what node-postgres's own Query answers for
 * the same text on the same connection: rows (every type, NULLs, odd column names), counts, and errors,
 * after which the connection still serves.
 */
// Registered where PostgreSQL is among the tested databases, as the suites for each dialect are.
for (const planEach of TESTED_DIALECTS.includes('postgres') ? [false, true] : []) {
  const label = planEach ? 'unnamed' : 'named';
  describe(`PostgreSQL ${label} statements`, () => {
    let scratch: ScratchDatabase;
    let connection: PgClientLike;

    before(async function () {
      this.timeout(30_000);
      scratch = await scratchDatabaseOrSkip(this, 'postgres');
      const { knex } = scratch.database;
      await knex.raw(`create table nq_item (
      id serial primary key, big bigint, price numeric(12,4), born date, seen timestamptz, ok boolean,
      doc jsonb, tags text[], bytes bytea, "__proto__" text, "constructor" integer, "toString" text)`);
      await knex.raw(`insert into nq_item (big, price, born, seen, ok, doc, tags, bytes, "__proto__", "constructor", "toString") values
      (9007199254740993, 12.5, '2024-02-29', '2024-02-29 12:00:00+02', true, '{"a":[1,2]}', '{x,"y z"}', '\\x00ff', 'p', 7, 's'),
      (null, null, null, null, null, null, null, null, null, null, null)`);
      connection = (await knex.client.acquireConnection()) as PgClientLike;
    });

    after(async () => {
      if (!scratch) return;
      await scratch.database.knex.client.releaseConnection(connection);
      await scratch.drop();
    });

    /** node-postgres's own Query, unnamed: the reference. */
    const plain = (sql: string, values: unknown[]) =>
      new Promise<{ rows: unknown[]; affected: number | undefined }>((resolve, reject) =>
        connection.query({ text: sql, values }, (error, result) =>
          error ? reject(error) : resolve({ rows: result!.rows, affected: result!.rowCount ?? undefined }),
        ),
      );
    // Each mode its own texts (a comment tells them apart), so that neither meets the other's shapes.
    const named = (sql: string, values: unknown[]) =>
      postgres.execute(connection, `${sql} /* ${label} */`, values, planEach);

    it('answers the rows node-postgres answers, for every type, NULLs and column names of Object.prototype', async () => {
      const sql = 'select * from nq_item where id >= $1 order by id';
      const expected = await plain(sql, [1]);
      for (let run = 0; run < 3; run++) {
        const answer = await named(sql, [1]);
        expect(answer).to.deep.equal(expected);
      }
      const [first, second] = (await named(sql, [1])).rows as Record<string, unknown>[];
      expect(first!.big).to.equal('9007199254740993');
      expect(Object.hasOwn(first!, '__proto__')).to.equal(true);
      expect(Object.getOwnPropertyDescriptor(first, '__proto__')?.value).to.equal('p');
      expect(Object.getPrototypeOf(first)).to.equal(Object.prototype);
      expect(first!.constructor).to.equal(7);
      expect(second!.toString).to.equal(null);
    });

    it('counts the rows of each command as node-postgres does', async () => {
      const inserted = await named('insert into nq_item (big) values ($1), ($2) returning big', [5, 6]);
      expect(inserted).to.deep.equal({ rows: [{ big: 5 }, { big: 6 }], affected: 2 });
      expect(await named('update nq_item set ok = $1 where big in (5, 6)', [true])).to.deep.equal({
        rows: [],
        affected: 2,
      });
      expect((await named('delete from nq_item where big = $1', [5])).affected).to.equal(1);
      expect((await named('update nq_item set ok = $1 where big = $2', [true, -1])).affected).to.equal(0);
      expect(await named('select id from nq_item where id < $1', [0])).to.deep.equal({ rows: [], affected: 0 });
    });

    it('an error of the server, of binding or of a parser fails the statement, and the connection serves the next', async () => {
      const server = await named('select 1 / $1::int as q', [0]).catch((e: unknown) => e);
      expect((server as { code?: string }).code).to.equal('22012');
      expect((await named('select $1::int + 1 as n', [1])).rows).to.deep.equal([{ n: 2 }]);

      const circular: Record<string, unknown> = {};
      circular.self = circular;
      const binding = await named('select $1::jsonb as doc', [circular]).catch((e: unknown) => e);
      expect(binding).to.be.instanceOf(Error);
      expect((await named('select $1::int + 2 as n', [1])).rows).to.deep.equal([{ n: 3 }]);

      const own = connection.getTypeParser;
      connection.getTypeParser = (oid, format) => {
        if (oid === 23)
          return () => {
            throw new Error('no integers today');
          };
        return own.call(connection, oid, format);
      };
      try {
        const parsing = await named('select $1::int * 10 as n from generate_series(1, 3)', [1]).catch(
          (e: unknown) => e,
        );
        expect((parsing as Error).message).to.equal('no integers today');
      } finally {
        connection.getTypeParser = own;
      }
      expect((await named('select $1::int + 3 as n', [1])).rows).to.deep.equal([{ n: 4 }]);
    });

    /** The RowDescriptions the server sends while `run` runs. */
    const rowDescriptions = async (run: () => Promise<unknown>) => {
      let n = 0;
      const count = () => n++;
      connection.connection.on('rowDescription', count);
      try {
        await run();
      } finally {
        connection.connection.off('rowDescription', count);
      }
      return n;
    };

    it(`describes ${planEach ? 'every run' : 'a statement once per connection'}, and answers the same rows each time`, async () => {
      const sql = 'select id, big, tags from nq_item where id <= $1 order by id';
      const expected = await plain(sql, [2]);
      const counts: number[] = [];
      for (let run = 0; run < 3; run++) {
        counts.push(await rowDescriptions(async () => expect(await named(sql, [2])).to.deep.equal(expected)));
      }
      expect(counts).to.deep.equal(planEach ? [1, 1, 1] : [1, 0, 0]);
    });

    it('a value that cannot be bound fails a described statement, and the connection serves the next', async () => {
      // A text of its own: node-postgres closes a statement whose first binding failed, yet keeps it as prepared.
      const sql = 'select $1::jsonb as described_doc';
      expect((await named(sql, [{ a: 1 }])).rows).to.deep.equal([{ described_doc: { a: 1 } }]);
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      expect(await named(sql, [circular]).catch((e: unknown) => e)).to.be.instanceOf(Error);
      expect((await named(sql, [{ b: 2 }])).rows).to.deep.equal([{ described_doc: { b: 2 } }]);
    });

    it('after its table changes, a described statement answers as node-postgres answers the same statement', async () => {
      const { knex } = scratch.database;
      await knex.raw('create table nq_shape (id integer primary key, label text)');
      await knex.raw(`insert into nq_shape values (1, 'one')`);
      const sql = 'select * from nq_shape where id = $1';
      const text = `${sql} /* ${label} */`;
      expect((await named(sql, [1])).rows).to.deep.equal([{ id: 1, label: 'one' }]);
      const nameOf = (text: string) =>
        Object.entries(connection.connection.parsedStatements).find(([, t]) => t === text)![0];
      /** node-postgres's own Query on the statement the dialect prepared under its name: it always describes. */
      const reference = () =>
        new Promise<unknown>((resolve) =>
          connection.query({ name: planEach ? '' : nameOf(text), text, values: [1] }, (error, result) =>
            resolve(error ? (error as { code?: string }).code : result!.rows),
          ),
        );
      const ours = () =>
        named(sql, [1]).then(
          (answer) => answer.rows,
          (error: { code?: string }) => error.code,
        );
      for (const change of [
        'alter table nq_shape rename column label to title',
        'alter table nq_shape alter column id type bigint',
        'alter table nq_shape add column extra text',
      ]) {
        await knex.raw(change);
        const answer = await ours();
        expect(answer, change).to.deep.equal(await reference());
      }
    });
  });
}
