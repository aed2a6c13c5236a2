import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import knexFactory from 'knex';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');

/** The ```ts block of the root README's "Publishing your own models". */
function setupExample(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.split(/^## Publishing your own models\s*$/m)[1] ?? '';
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README.md has no ```ts block under "## Publishing your own models"');
  return block[1]!;
}

/** The models the example imports from './models.js': an author with books, as a reader would have. */
const MODELS = `import { Model } from 'objection';
export class Author extends Model {
  static override tableName = 'author';
  static override jsonSchema = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } };
  static override get relationMappings() {
    return { books: { relation: Model.HasManyRelation, modelClass: Book, join: { from: 'author.id', to: 'book.author_id' } } };
  }
}
export class Book extends Model {
  static override tableName = 'book';
  static override jsonSchema = { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' }, author_id: { type: ['integer', 'null'] } } };
  static override get relationMappings() {
    return { author: { relation: Model.BelongsToOneRelation, modelClass: Author, join: { from: 'book.author_id', to: 'author.id' } } };
  }
}
`;

async function freePort(): Promise<number> {
  const s = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => s.once('listening', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

describe('README: publishing your own models', function () {
  this.timeout(60_000);
  const dir = join(here, '..', `.readme-setup-${process.pid}`);

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('runs as written (given models and a port) and serves the collections', async () => {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'db.sqlite');
    const knex = knexFactory({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true });
    await knex.schema.createTable('author', (t) => {
      t.increments('id');
      t.string('name');
    });
    await knex.schema.createTable('book', (t) => {
      t.increments('id');
      t.string('title');
      t.integer('author_id');
    });
    await knex('author').insert({ name: 'Ada' });
    await knex('book').insert({ title: 'Notes', author_id: 1 });
    await knex.destroy();

    writeFileSync(join(dir, 'models.ts'), MODELS);
    // The one change: the README listens on 3000; the test takes a free port on 127.0.0.1.
    const port = await freePort();
    const code = setupExample().replace('.listen(3000)', `.listen(${port}, '127.0.0.1')`);
    expect(code).to.include(`.listen(${port}`);
    writeFileSync(join(dir, 'app.ts'), code);
    const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', join(dir, 'app.ts')], {
      env: { ...process.env, DATABASE_URL: `sqlite:${file}` },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    try {
      let res: Response | undefined;
      for (let i = 0; i < 100 && !res; i++) {
        res = await fetch(`http://127.0.0.1:${port}/api/books?include=author`, {
          headers: { accept: 'application/vnd.api+json' },
        }).catch(() => undefined);
        if (!res) await new Promise((r) => setTimeout(r, 200));
      }
      expect(res, stderr).to.not.equal(undefined);
      const doc = (await res!.json()) as { data: { attributes: { title: string } }[]; included: object[] };
      expect(res!.status).to.equal(200);
      expect(doc.data[0]!.attributes.title).to.equal('Notes');
      expect(doc.included[0]).to.include({ type: 'authors', id: '1' });
    } finally {
      child.kill('SIGTERM');
    }
  });
});
