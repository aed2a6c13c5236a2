import { expect } from 'chai';
import type { Knex } from 'knex';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, dialects, disconnect, runStatement, type Database } from '../src/index.js';
import { rowsOf, statementOf } from '../src/statement.js';
import { mustReachDatabases, SERVERS, TESTED_DIALECTS } from './support/scratch-database.js';

/** knex's pool as these tests watch it (tarn's public API). */
interface Pool {
  numUsed(): number;
  numFree(): number;
  on(event: 'acquireRequest', listener: () => void): void;
  removeListener(event: 'acquireRequest', listener: () => void): void;
}
const poolOf = (knex: Knex) => (knex.client as { pool: Pool }).pool;

/** The id the server gives the session of the connection a statement ran on (a constant on SQLite). */
const SESSION: Record<string, string> = {
  postgres: 'select pg_backend_pid() as id',
  mysql: 'select connection_id() as id',
  sqlite: 'select 1 as id',
};
/** Ends another session of the server, as an administrator or a crash would. */
const END_SESSION: Record<string, string | undefined> = {
  postgres: 'select pg_terminate_backend(?)',
  mysql: 'kill ?',
  sqlite: undefined,
};

const session = async (db: Database) =>
  String((await runStatement(db.knex, db.dialect, statementOf(db.knex.raw(SESSION[db.dialect.name]!), rowsOf)))[0]!.id);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const name of TESTED_DIALECTS) {
  describe(`statements hold their connection between them [${name}]`, () => {
    let dir: string | undefined;
    let db: Database | undefined;
    let admin: Database | undefined;
    const url = () => {
      if (SERVERS[name]) return SERVERS[name]!;
      dir ??= mkdtempSync(join(tmpdir(), 'colapi-held-'));
      return `${dialects[name]!.schemes[0]}${join(dir, 'held.db')}`;
    };

    before(async function () {
      try {
        admin = connect(url(), { pool: { min: 0, max: 1 } });
        await admin.knex.raw('select 1');
      } catch (error) {
        if (mustReachDatabases()) throw error;
        console.warn(`  ! ${name} is not reachable (${(error as Error).message}); skipping`);
        this.skip();
      }
    });
    // A pool of one connection, so that whoever holds it without need would starve everybody else.
    beforeEach(() => {
      // knex warns of the ended session when its pool destroys the connection: expected here.
      const quiet = {
        warn: () => undefined,
        error: () => undefined,
        deprecate: () => undefined,
        debug: () => undefined,
      };
      db = connect(url(), { pool: { min: 0, max: 1 }, acquireConnectionTimeout: 1500, log: quiet });
    });
    afterEach(async () => {
      if (db) await disconnect(db);
    });
    after(async () => {
      if (admin) await disconnect(admin);
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('one acquire from the pool serves many statements in a row, on one session', async () => {
      let acquires = 0;
      const count = () => acquires++;
      poolOf(db!.knex).on('acquireRequest', count);
      try {
        const sessions = new Set<string>();
        for (let i = 0; i < 20; i++) sessions.add(await session(db!));
        expect(acquires).to.equal(1);
        expect(sessions.size).to.equal(1);
      } finally {
        poolOf(db!.knex).removeListener('acquireRequest', count);
      }
    });

    it('a transaction asking the pool gets the held connection at once, and statements go on after it', async () => {
      const before = await session(db!);
      const started = Date.now();
      const inside = await db!.knex.transaction(async (trx) => trx.raw(SESSION[name]!));
      expect(Date.now() - started, 'no wait for the acquire timeout').to.be.below(1000);
      expect(inside).to.not.equal(undefined);
      expect(await session(db!)).to.equal(before);
    });

    it('statements running at once each get a connection, through the pool when none is held', async () => {
      const ids = await Promise.all(Array.from({ length: 5 }, () => session(db!)));
      expect(ids).to.have.lengthOf(5);
      expect(poolOf(db!.knex).numUsed()).to.equal(1);
    });

    it('a held connection unused for a second goes back to the pool', async function () {
      this.timeout(5000);
      await session(db!);
      expect(poolOf(db!.knex).numUsed(), 'held').to.equal(1);
      await sleep(2200);
      expect(poolOf(db!.knex).numUsed(), 'returned').to.equal(0);
      expect(poolOf(db!.knex).numFree()).to.equal(1);
    });

    it('closing the pool does not wait for a held connection', async () => {
      await session(db!);
      const started = Date.now();
      await disconnect(db!);
      db = undefined;
      expect(Date.now() - started).to.be.below(1000);
    });

    it('a connection whose session ended is not used again: the next statement runs on a new one', async () => {
      const end = END_SESSION[name];
      if (end === undefined) {
        // SQLite has no server to end a session: its connection is a file handle in this process.
        expect(name).to.equal('sqlite');
        return;
      }
      const first = await session(db!);
      await admin!.knex.raw(end, [Number(first)]);
      // The driver hears of the end on its socket; knex then marks the connection as disposed.
      await sleep(300);
      const second = await session(db!);
      expect(second).to.not.equal(first);
    });
  });
}
