import { expect } from 'chai';
import { connect, disconnect, runStatement, type Database, type Statement } from '../src/index.js';
import { mustReachDatabases, SERVERS, TESTED_DIALECTS } from './support/scratch-database.js';

/** The prepared statements of the pool's one connection, with how often each ran on a generic or a custom plan. */
async function prepared(db: Database): Promise<{ statement: string; generic: number; custom: number }[]> {
  const { rows } = await db.knex.raw(
    'select statement, generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements',
  );
  return rows;
}

const statement = (sql: string, bindings: unknown[], byValues?: boolean): Statement<unknown> => ({
  sql,
  bindings,
  method: 'select',
  decode: ({ rows }) => rows,
  ...(byValues ? { byValues } : {}),
});

(TESTED_DIALECTS.includes('postgres') ? describe : describe.skip)('PostgreSQL: how statements are planned', () => {
  let db: Database | undefined;
  before(async function () {
    // One connection, so that pg_prepared_statements shows the statements the tests ran.
    db = connect(SERVERS.postgres!, { pool: { min: 0, max: 1 } });
    try {
      await db.knex.raw('select 1');
    } catch (error) {
      if (mustReachDatabases()) throw error;
      this.skip();
    }
  });
  after(async () => {
    if (db) await disconnect(db);
  });

  it('plans the statements it names generically: their plans do not change with keys and page numbers', async () => {
    const { rows } = await db!.knex.raw('show plan_cache_mode');
    expect(rows[0].plan_cache_mode).to.equal('force_generic_plan');
    const shape = 'select c.relname from pg_class c where c.oid = $1 and c.relpages >= $2 limit $3';
    for (let i = 0; i < 8; i++) await runStatement(db!.knex, db!.dialect, statement(shape, [1259 + i, 0, 10]));
    const mine = (await prepared(db!)).find((p) => p.statement === shape);
    expect(mine, 'the statement is prepared').to.not.equal(undefined);
    expect(mine!.custom).to.equal(0);
    expect(mine!.generic).to.equal(8);
  });

  it('runs a statement planned by its values (a filter) unnamed, planned with them each time', async () => {
    const filter = "select c.relname from pg_class c where c.relname like $1 and c.relkind = 'r'";
    const rows = await runStatement(db!.knex, db!.dialect, statement(filter, ['pg_cl%'], true));
    expect(rows).to.deep.equal([{ relname: 'pg_class' }]);
    expect((await prepared(db!)).map((p) => p.statement)).to.not.include(filter);
  });

  it('leaves a query knex sends with values unnamed (a hook planning its own), and names one without', async () => {
    await db!.knex.raw('select relname from pg_class where oid = ?', [1259]);
    await db!.knex.raw('select 40 + 2 as answer');
    const texts = (await prepared(db!)).map((p) => p.statement);
    expect(texts).to.not.include('select relname from pg_class where oid = $1');
    expect(texts).to.include('select 40 + 2 as answer');
  });
});
