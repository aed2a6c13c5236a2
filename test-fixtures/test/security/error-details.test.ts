import type { HookContext } from '@colapi/server-koa';
import { describeEachDatabase, findLeak, type TestTarget } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';

/**
 * Error answers never show SQL text, stack frames or connection strings (the fuzz runs scan every error body
 * of theirs with the same findLeak); only the `debug` option puts an internal message in a 500.
 */
const SECRET =
  'connect to postgres://root:hunter2@db.internal/prod failed: select * from "t0" at Object.<anonymous> (/srv/app/x.js:1:2)';

async function failing(_op: unknown, context: HookContext): Promise<void> {
  const header = context.request.headers['x-test-fail'];
  if (header === 'throw') throw new Error(SECRET);
  if (header === 'sql') await context.db!.raw('select * from colapi_no_such_table');
}

const hooks = { person: { list: { before: failing } } };
const MEDIA = { jsonapi: 'application/vnd.api+json', legacy: 'application/json' };

function detailOf(
  t: TestTarget,
  format: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string; detail: string }> {
  return t.http
    .get('/api/person', { headers: { ...headers, accept: MEDIA[format as keyof typeof MEDIA] } })
    .then((res) => ({
      status: res.status,
      text: res.text,
      detail: format === 'jsonapi' ? res.body.errors[0].detail : res.body.message,
    }));
}

for (const format of ['jsonapi', 'legacy'] as const) {
  describeEachDatabase(
    `errors tell no internals by default (${format})`,
    (t) => {
      it('an unexpected error is a 500 saying only that the server failed', async () => {
        const res = await detailOf(t(), format, { 'x-test-fail': 'throw' });
        expect(res.status).to.equal(500);
        expect(res.detail).to.equal('the server failed to answer this request');
        expect(findLeak(res.text)).to.equal(undefined);
      });

      it('an unexpected database error (a missing table) shows no SQL and no driver text', async () => {
        const res = await detailOf(t(), format, { 'x-test-fail': 'sql' });
        expect(res.status).to.equal(500);
        expect(findLeak(res.text)).to.equal(undefined);
        expect(res.text).to.not.match(/colapi_no_such_table/);
      });
    },
    { format, api: { hooks } },
  );

  describeEachDatabase(
    `the debug option shows the internal message of a 500 (${format})`,
    (t) => {
      it('the detail carries the error message', async () => {
        const res = await detailOf(t(), format, { 'x-test-fail': 'throw' });
        expect(res.status).to.equal(500);
        expect(res.detail).to.include(SECRET);
        expect(findLeak(res.text), 'the scanner sees it').to.be.a('string');
      });

      it('a database error: the driver message', async () => {
        const res = await detailOf(t(), format, { 'x-test-fail': 'sql' });
        expect(res.detail).to.match(/colapi_no_such_table/);
      });
    },
    { format, api: { hooks, debug: true } },
  );
}

describe('findLeak, the scanner of the fuzz runs', () => {
  const LEAKS = [
    'select "t0"."id" from "person" as "t0" where "t0"."name" = $1',
    "insert into `person` (`other`) values (-Infinity) - Unknown column 'Infinity' in 'VALUES'",
    'update "tag" set "name" = ? where "id" in (?)',
    'SQLITE_CONSTRAINT_UNIQUE: UNIQUE constraint failed: tag.name',
    'duplicate key value violates unique constraint "tag_name_unique"',
    'ER_DUP_ENTRY: Duplicate entry',
    'Error: boom\n    at Executor.run (/work/main/packages/server-koa/src/executor/executor.ts:42:11)',
    'at file:///srv/app/dist/index.js:10:5',
    'connect ECONNREFUSED 127.0.0.1:5432',
    'postgres://root:secret@127.0.0.1:5432/test',
    'mysql://root@127.0.0.1:3306/test',
    'sqlite:/tmp/colapi-x/db.sqlite',
    'Knex: Timeout acquiring a connection. The pool is probably full.',
  ];
  for (const text of LEAKS) {
    it(`finds ${text.slice(0, 40)}…`, () => {
      expect(findLeak(JSON.stringify({ errors: [{ detail: text }] }))).to.be.a('string');
    });
  }

  it('does not count what the client sent and the server quotes back', () => {
    const sent = "x' UNION SELECT null, version() FROM person --";
    const body = JSON.stringify({ message: `q.filters[0].name: "${sent}" is not a field of person` });
    expect(findLeak(body, [sent])).to.equal(undefined);
    expect(findLeak(body)).to.be.a('string');
  });
});
