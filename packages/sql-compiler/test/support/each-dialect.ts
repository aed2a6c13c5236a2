import { expect } from 'chai';
import { repin } from './repin.js';
import { runStatement, SqlCompiler, type Database, type Statement } from '../../src/index.js';
import { createTables, registry, seed } from './library.js';
import { scratchDatabaseOrSkip, TESTED_DIALECTS, type ScratchDatabase } from './scratch-database.js';

/** What a statement is expected to be on one dialect: its text and its bindings. */
export interface Sql {
  readonly sql: string;
  readonly bindings: readonly unknown[];
}

/** The expectation of each dialect; `undefined` where the dialect compiles no such statement. */
export type PerDialect = Readonly<Record<'postgres' | 'mysql' | 'sqlite', Sql | undefined>>;

export interface DialectFixture {
  readonly name: string;
  readonly database: Database;
  readonly compiler: SqlCompiler;
  /**
   * Asserts the statement's text and bindings as `expected` gives them for this dialect (as Kysely's
   * testSql does), then runs it on this dialect's database and answers its result.
   */
  sql<T>(statement: Statement<T> | undefined, expected: PerDialect): Promise<T>;
}

/**
 * Runs `body` once per tested dialect, each on a scratch database of its own holding the library's
 * tables and rows (seeded again before each test with `seedEach`, for tests that write).
 */
export function eachDialect(
  title: string,
  body: (t: () => DialectFixture) => void,
  options: { seedEach?: boolean } = {},
): void {
  for (const name of TESTED_DIALECTS) {
    describe(`${title} [${name}]`, () => {
      let scratch: ScratchDatabase | undefined;
      let fixture: DialectFixture | undefined;
      before(async function () {
        this.timeout(30_000);
        scratch = await scratchDatabaseOrSkip(this, name);
        const { database } = scratch;
        await createTables(database.knex);
        await seed(database.knex, database.dialect);
        fixture = {
          name,
          database,
          compiler: new SqlCompiler(database.knex, database.dialect, registry),
          async sql(statement, expected) {
            const wanted = expected[name as keyof PerDialect];
            if (wanted === undefined) {
              expect(statement, `${name} compiles no such statement`).to.equal(undefined);
              return undefined as never;
            }
            expect(statement, `${name} compiles the statement`).to.not.equal(undefined);
            const actual = { sql: statement!.sql, bindings: statement!.bindings };
            if (process.env.PIN_SQL === 'update') repin(wanted, actual);
            else expect(actual).to.deep.equal(wanted);
            return runStatement(database.knex, database.dialect, statement!);
          },
        };
      });
      if (options.seedEach) beforeEach(() => seed(fixture!.database.knex, fixture!.database.dialect));
      after(async () => {
        await scratch?.drop();
      });
      body(() => fixture!);
    });
  }
}
