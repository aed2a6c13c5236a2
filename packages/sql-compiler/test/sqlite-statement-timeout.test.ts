import { expect } from 'chai';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type Database } from '../src/index.js';
import { ENTRY_POINT, interruptExtension, TIMEOUT_FUNCTION } from '../src/dialects/sqlite-interrupt.js';

const TIMEOUT = 300;
/** CPU-bound for several seconds on any machine: counts to a hundred million. */
const SLOW = 'with recursive c(x) as (select 1 union all select x+1 from c where x < ?) select count(*) as n from c';

async function failure(promise: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error('expected the statement to fail');
}

/** Runs `fn` with environment variables set, restoring them after. */
function withEnv<T>(vars: Record<string, string>, fn: () => T): T {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('SQLite: statementTimeout interrupts a running statement', () => {
  let dir: string;
  let db: Database;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'colapi-timeout-'));
    db = connect(`sqlite:${join(dir, 'db.sqlite')}`, { statementTimeout: TIMEOUT });
  });
  after(async () => {
    await db.knex.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a statement past the limit fails with SQLITE_INTERRUPT (a timeout) soon after it, and the connection serves the next query', async () => {
    const started = performance.now();
    const error = await failure(db.knex.raw(SLOW, [100_000_000]));
    const ms = performance.now() - started;
    expect(error.code).to.equal('SQLITE_INTERRUPT');
    expect(db.dialect.classifyError(error)).to.equal('timeout');
    expect(ms).to.be.within(TIMEOUT - 5, TIMEOUT + 500);
    expect(await db.knex.raw('select 1 as one')).to.deep.equal([{ one: 1 }]);
  });

  it('a cached statement that was interrupted runs again, interrupted again when slow and complete when fast', async () => {
    // The same SQL text is the same prepared statement of the connection's cache.
    expect((await failure(db.knex.raw(SLOW, [100_000_000]))).code).to.equal('SQLITE_INTERRUPT');
    expect((await failure(db.knex.raw(SLOW, [100_000_000]))).code).to.equal('SQLITE_INTERRUPT');
    expect(await db.knex.raw(SLOW, [1000])).to.deep.equal([{ n: 1000 }]);
  });

  it('a statement within the limit completes, and so do many in a row for several times the limit (no stale interrupt)', async () => {
    expect(await db.knex.raw(SLOW, [50_000])).to.deep.equal([{ n: 50_000 }]);
    const started = performance.now();
    let count = 0;
    while (performance.now() - started < TIMEOUT * 4) {
      await db.knex.raw('select ? as n', [count]);
      count++;
    }
    expect(count).to.be.above(100);
  });

  it('an interrupted write in a transaction reports the timeout, writes nothing and leaves the connection usable', async () => {
    await db.knex.schema.createTable('note', (t) => {
      t.increments('id');
      t.string('title');
    });
    const error = await failure(
      db.knex.transaction(async (trx) => {
        await trx('note').insert({ title: 'first' });
        // A write that is interrupted makes SQLite roll the whole transaction back by itself.
        await trx.raw(`insert into note (title) select 'slow' from (${SLOW})`, [100_000_000]);
      }),
    );
    expect(error.code, error.message).to.equal('SQLITE_INTERRUPT');
    expect(await db.knex('note').count({ n: '*' })).to.deep.equal([{ n: 0 }]);
    await db.knex('note').insert({ title: 'after' });
    expect(await db.knex('note').pluck('title')).to.deep.equal(['after']);
  });

  it('a limit set in SQL must be a whole number of milliseconds', async () => {
    const error = await failure(db.knex.raw(`select ${TIMEOUT_FUNCTION}(?)`, [1.5]));
    expect(error.message).to.match(/whole number of milliseconds/);
  });
});

describe('SQLite: the interrupt extension', () => {
  it('without statementTimeout, nothing is compiled or loaded', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'colapi-extension-'));
    try {
      const db = withEnv({ CC: 'colapi-no-such-compiler', COLAPI_SQLITE_EXTENSION_DIR: cache }, () =>
        connect('sqlite::memory:'),
      );
      expect((await failure(db.knex.raw(`select ${TIMEOUT_FUNCTION}(1)`))).message).to.match(/no such function/);
      await db.knex.destroy();
      expect(readdirSync(cache)).to.deep.equal([]);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('without a C compiler, connect() fails saying what is missing', () => {
    const cache = mkdtempSync(join(tmpdir(), 'colapi-extension-'));
    try {
      expect(() =>
        withEnv({ CC: 'colapi-no-such-compiler', COLAPI_SQLITE_EXTENSION_DIR: cache }, () =>
          connect('sqlite::memory:', { statementTimeout: TIMEOUT }),
        ),
      ).to.throw(
        /statementTimeout on SQLite needs a C compiler .*`colapi-no-such-compiler` was not found.*leave statementTimeout out/,
      );
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  // Each connection that loads the extension has a watchdog thread; closing the connection must end it.
  const linux = process.platform === 'linux';
  (linux ? it : it.skip)('200 connections opened and closed leave no thread behind (Linux: /proc/self/task)', () => {
    const Sqlite = createRequire(import.meta.url)('better-sqlite3') as new (
      file: string,
    ) => {
      loadExtension(path: string, entry: string): void;
      prepare(sql: string): { get(...args: unknown[]): unknown };
      close(): void;
    };
    const path = interruptExtension();
    const threads = () => readdirSync('/proc/self/task').length;
    const before = threads();
    const open = Array.from({ length: 20 }, () => new Sqlite(':memory:'));
    for (const conn of open) {
      conn.loadExtension(path, ENTRY_POINT);
      conn.prepare(`select ${TIMEOUT_FUNCTION}(?)`).get(TIMEOUT);
    }
    expect(threads()).to.equal(before + 20);
    for (const conn of open) conn.close();
    for (let i = 0; i < 200; i++) {
      const conn = new Sqlite(':memory:');
      conn.loadExtension(path, ENTRY_POINT);
      conn.prepare(`select ${TIMEOUT_FUNCTION}(?)`).get(TIMEOUT);
      conn.prepare('select 1').get(); // the watchdog is waiting for this statement's deadline when it closes
      conn.close();
    }
    expect(threads()).to.equal(before);
  });
});
