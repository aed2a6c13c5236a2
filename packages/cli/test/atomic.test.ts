import { connect, disconnect, type Database } from '@colapi/sql-compiler';
import { createLibrary, type DatabaseKind, testDatabaseOrSkip, type TestDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseArguments } from '../src/arguments.js';
import { serveCatalogue, type CatalogueServer } from '../src/index.js';
import { ConfigError, validateConfig } from '../src/validate-config.js';

const run = promisify(execFile);
const README = join(dirname(fileURLToPath(import.meta.url)), '..', 'README.md');

/** The sh block of the README's "Atomic operations" section. */
function readmeCurl(): string {
  const section = readFileSync(README, 'utf8').split(/^## Atomic operations\s*$/m)[1]!;
  return /```sh\n([\s\S]*?)```/.exec(section)![1]!;
}

describe('colapi serve: atomic operations', () => {
  it('--atomic is read by colapi serve only', () => {
    const args = parseArguments(['serve', 'sqlite:x.sqlite', '--atomic'], {}, '/tmp');
    expect(args).to.include({ command: 'serve', atomic: true });
    expect(parseArguments(['serve', 'sqlite:x.sqlite'], {}, '/tmp')).to.not.have.property('atomic');
    expect(() => parseArguments(['token', '--role', 'r', '--atomic'], {}, '/tmp')).to.throw(
      /--atomic is an option of colapi serve/,
    );
  });
  it('the configuration takes "atomic": true or false, nothing else', () => {
    expect(validateConfig({ atomic: true }, 'c.json')).to.deep.equal({ atomic: true });
    expect(() => validateConfig({ atomic: 'yes' }, 'c.json')).to.throw(
      ConfigError,
      /c\.json: atomic: must be true or false/,
    );
  });

  for (const kind of ['sqlite', 'postgres', 'mysql'] as DatabaseKind[]) {
    describe(`on ${kind}`, () => {
      let db: TestDatabase | undefined;
      let sql: Database;
      let on: CatalogueServer;
      let off: CatalogueServer;
      before(async function () {
        this.timeout(120_000);
        db = await testDatabaseOrSkip(this, kind);
        sql = connect(db!.url, { pool: { min: 0, max: 1 } });
        await createLibrary(sql.knex, kind);
        const small = { pool: { min: 0, max: 2 } };
        on = await serveCatalogue({
          databaseUrl: db!.url,
          format: 'jsonapi',
          config: { atomic: true },
          connect: small,
        });
        off = await serveCatalogue({ databaseUrl: db!.url, format: 'jsonapi', connect: small });
      });
      after(async () => {
        await on?.close(500);
        await off?.close(500);
        if (sql) await disconnect(sql);
        await db?.drop();
      });

      it("the README's curl runs: an author and a book by lid, the generated column reported", async function () {
        this.timeout(30_000);
        const script = readmeCurl().replaceAll('http://127.0.0.1:8080', on.origin);
        const { stdout } = await run('bash', ['-c', `curl() { command curl --silent --show-error "$@"; }\n${script}`]);
        const document = JSON.parse(stdout);
        expect(document.jsonapi).to.deep.equal({ version: '1.1', ext: ['https://jsonapi.org/ext/atomic'] });
        const [author, book, updated] = document['atomic:results'];
        expect(author.data.attributes).to.include({ name: 'Octavia Butler', name_length: 14 });
        expect(book.data.relationships.author.data).to.deep.equal({ type: 'author', id: author.data.id });
        expect(updated.data.attributes).to.include({ name: 'Octavia E. Butler', name_length: 17 });
        const rows = await sql.knex('book').where({ title: 'Kindred' }).select('author_id');
        expect(rows.map((r: { author_id: unknown }) => String(r.author_id))).to.deep.equal([author.data.id]);
      });
      it('the OpenAPI document describes POST /api/operations when atomic is on, not otherwise', async () => {
        const paths = async (s: CatalogueServer) =>
          Object.keys(((await (await fetch(`${s.origin}/api/openapi.json`)).json()) as { paths: object }).paths);
        const described = ((await (await fetch(`${on.origin}/api/openapi.json`)).json()) as any).paths[
          '/api/operations'
        ];
        expect(Object.keys(described)).to.deep.equal(['post']);
        expect(Object.keys(described.post.requestBody.content)).to.deep.equal([
          'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"',
        ]);
        expect(await paths(off)).to.not.include('/api/operations');
      });
      it('without the option the path answers 404', async () => {
        const r = await fetch(`${off.origin}/api/operations`, {
          method: 'POST',
          headers: { 'content-type': 'application/vnd.api+json', accept: 'application/vnd.api+json' },
          body: JSON.stringify({ 'atomic:operations': [] }),
        });
        expect(r.status).to.equal(404);
      });
      it('a legacy server with atomic on: a configuration error naming it', async () => {
        let error: unknown;
        try {
          await serveCatalogue({ databaseUrl: db!.url, format: 'legacy', config: { atomic: true } });
        } catch (e) {
          error = e;
        }
        expect(error).to.be.instanceOf(ConfigError);
        expect((error as Error).message).to.match(/atomic: the legacy format has no atomic operations/);
      });
    });
  }
});
