import { connect, disconnect, type Database } from '@colapi/sql-compiler';
import { createLibrary, testDatabaseOrSkip, testedKinds, type TestDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { colapi, freePort, line, ROOT, type Run } from './colapi-process.js';

const MEDIA: Record<string, string> = { jsonapi: 'application/vnd.api+json', legacy: 'application/json' };

describe('colapi (the command)', function () {
  this.timeout(60_000);

  it('pnpm colapi --help describes the command and exits 0', async () => {
    const child = spawn('pnpm', ['--silent', 'colapi', '--help'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).to.equal(0);
    for (const word of [
      'colapi serve <database-url>',
      '--format',
      '--port',
      '--schema',
      '--config',
      'SIGHUP',
      'colapi token --role NAME',
      '--claim NAME=VALUE',
      '--expires',
    ])
      expect(out).to.contain(word);
  });

  it('tells a usage mistake in one line, with exit code 2', async () => {
    const r = colapi(['serve', 'sqlite::memory:', '--format', 'xml']);
    expect(await r.exited).to.equal(2);
    expect(r.stderr).to.equal('colapi: --format must be jsonapi or legacy; got "xml"\n');
  });

  it('tells an unreachable database in one line, with exit code 1', async () => {
    const r = colapi(['serve', 'postgres://root:secret@127.0.0.1:1/nowhere']);
    expect(await r.exited).to.equal(1);
    expect(r.stderr).to.match(
      /^colapi: cannot reach the database at postgres:\/\/root:\*+@127\.0\.0\.1:1\/nowhere: .*ECONNREFUSED.*\n$/,
    );
  });

  it('names the file and the place of a configuration mistake, with exit code 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'colapi-cli-'));
    try {
      const file = join(dir, 'bad.json');
      writeFileSync(file, JSON.stringify({ tables: { person: { collections: [{ allow_function: true }] } } }));
      const r = colapi(['serve', `sqlite:${join(dir, 'x.sqlite')}`, '--config', file]);
      expect(await r.exited).to.equal(2);
      expect(r.stderr).to.equal(
        `colapi: ${file}: tables.person.collections[0].allow_function: unknown setting (did you mean allow_functions?); known: name, methods, allow_functions, allow_client_generated_ids, only, exclude, allow_to_many_replacement, allow_to_many_removal, total, paging\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const kind of testedKinds()) {
    // Format B on SQLite and MariaDB, Format A on PostgreSQL: the command serves either.
    const format = kind === 'postgres' ? 'jsonapi' : 'legacy';
    describe(`colapi serve on ${kind} (--format ${format})`, () => {
      let db: TestDatabase | undefined;
      let sql: Database;
      let run: Run | undefined;
      let dir: string;
      let origin: string;
      const get = (path: string) => fetch(`${origin}${path}`, { headers: { accept: MEDIA[format]! } });

      before(async function () {
        db = await testDatabaseOrSkip(this, kind);
        sql = connect(db!.url, { pool: { min: 0, max: 3 } });
        await createLibrary(sql.knex, kind);
        dir = mkdtempSync(join(tmpdir(), 'colapi-cli-'));
        writeFileSync(join(dir, 'colapi.config.json'), '{}');
      });
      after(async () => {
        if (run && run.child.exitCode === null) run.child.kill('SIGKILL');
        if (sql) await disconnect(sql);
        await db?.drop();
        if (dir) rmSync(dir, { recursive: true, force: true });
      });

      it('prints the listening line once it serves, on the port asked, with warnings on standard error', async () => {
        const port = await freePort();
        run = colapi([
          'serve',
          db!.url,
          '--port',
          String(port),
          '--format',
          format,
          '--config',
          join(dir, 'colapi.config.json'),
        ]);
        const [, url] = await line(run, /^listening on (http:\/\/127\.0\.0\.1:\d+)$/);
        expect(url).to.equal(`http://127.0.0.1:${port}`);
        origin = url!;
        expect(run.stdout).to.equal(`listening on ${origin}\n`);
        expect(run.stderr).to.contain(
          'colapi: serving 7 collections (author, book, book_summary, category, edition, profile, tag)',
        );
        expect(run.stderr).to.contain(
          "\ncolapi: no auth in the configuration: every client has the database role's full access (add auth and roles to restrict it)\n",
        );
        expect(run.stderr).not.to.match(/warning: edition/);
        const books = await get('/api/book');
        expect(books.status).to.equal(200);
        expect(books.headers.get('content-type')).to.contain(MEDIA[format]);
      });

      it('reads the catalogue again on SIGHUP, after CREATE TABLE and ALTER TABLE', async () => {
        await sql.knex.raw('create table shelf (id integer primary key, label varchar(20))');
        await sql.knex.raw("insert into shelf (id, label) values (1, 'top')");
        await sql.knex.raw('alter table book add column isbn varchar(20)');
        // Nothing changes before the signal: the catalogue is read at start and on reload only.
        expect((await get('/api/shelf')).status).to.equal(404);
        run!.child.kill('SIGHUP');
        await line(run!, /^reloaded: 8 collections/);
        const shelf = await get('/api/shelf/1');
        expect(shelf.status).to.equal(200);
        const body = (await shelf.json()) as { data?: { attributes: unknown }; label?: string };
        expect(format === 'jsonapi' ? body.data!.attributes : body.label).to.deep.equal(
          format === 'jsonapi' ? { label: 'top' } : 'top',
        );
        const book = (await (await get('/api/book/1')).json()) as {
          data?: { attributes: Record<string, unknown> };
        } & Record<string, unknown>;
        expect(format === 'jsonapi' ? book.data!.attributes : book).to.have.property('isbn', null);
      });

      if (kind !== 'sqlite') {
        // SQLite in WAL mode never makes a reader wait, so no request can be held in flight there.
        it('lets a request in flight finish on the schema it began with, while new requests see the new one', async () => {
          const holder = await sql.knex.transaction();
          try {
            if (kind === 'postgres') await holder.raw('lock table book in access exclusive mode');
            else await holder.raw('lock tables book write');
            const inFlight = get('/api/book/1').then(async (r) => ({
              status: r.status,
              body: (await r.json()) as Record<string, unknown>,
            }));
            let settled = false;
            void inFlight.finally(() => (settled = true));
            await new Promise((resolve) => setTimeout(resolve, 300));
            expect(settled, 'the request waits for the lock').to.equal(false);
            // The reload hides book and adds a table.
            writeFileSync(join(dir, 'colapi.config.json'), JSON.stringify({ tables: { book: { hidden: true } } }));
            await sql.knex.raw('create table stack (id integer primary key)');
            run!.child.kill('SIGHUP');
            await line(run!, /^reloaded: /, 2);
            expect((await get('/api/stack')).status).to.equal(200);
            expect((await get('/api/tag')).status).to.equal(200);
            expect(settled, 'still waiting').to.equal(false);
            if (kind === 'mysql') await holder.raw('unlock tables');
            await holder.commit();
            const answer = await inFlight;
            expect(answer.status).to.equal(200);
            expect(JSON.stringify(answer.body)).to.contain('Notes on the Engine');
            expect((await get('/api/book/1')).status).to.equal(404);
          } finally {
            if (!holder.isCompleted()) await holder.rollback().catch(() => undefined);
          }
        });
      }

      it('keeps serving when a reload fails, and says why', async () => {
        writeFileSync(join(dir, 'colapi.config.json'), '{ "tables": { "nope": {} } }');
        const reloads = run!.stdout.split('\n').filter((l) => l.startsWith('reloaded:')).length;
        run!.child.kill('SIGHUP');
        const deadline = Date.now() + 20_000;
        while (!run!.stderr.includes('reload failed') && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(run!.stderr).to.contain(
          `colapi: reload failed, still serving the previous schema: ${join(dir, 'colapi.config.json')}: tables.nope: no table or view "nope"`,
        );
        expect(run!.stdout.split('\n').filter((l) => l.startsWith('reloaded:')).length).to.equal(reloads);
        expect((await get('/api/shelf')).status).to.equal(200);
      });

      it('stops on SIGTERM with exit code 0', async () => {
        run!.child.kill('SIGTERM');
        expect(await run!.exited).to.equal(0);
      });
    });
  }
});
