import { connect, disconnect } from '@colapi/sql-compiler';
import {
  createLibrary,
  createRestrictedRole,
  filterParam,
  hasPrivileges,
  HttpClient,
  testDatabaseOrSkip,
  testedKinds,
  type RestrictedRole,
  type TestDatabase,
} from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { colapi, freePort, line, type Run, stop } from './colapi-process.js';

/**
 * The library served to a role of the test's own: author without DELETE, book everything, tag and the join
 * table SELECT only, category INSERT only, profile two of its three columns, nothing on edition. On
 * PostgreSQL a serial key also needs its sequence.
 */
const GRANTS: Record<string, string[]> = {
  postgres: [
    'grant select, insert, update on author to {role}',
    'grant select, insert, update, delete on book to {role}',
    'grant usage on sequence author_id_seq, book_id_seq to {role}',
    'grant select on tag, book_tag, book_summary to {role}',
    'grant insert on category to {role}',
    'grant select (id, author_id) on profile to {role}',
  ],
  mysql: [
    'grant select, insert, update on author to {role}',
    'grant select, insert, update, delete on book to {role}',
    'grant select on tag to {role}',
    'grant select on book_tag to {role}',
    'grant select on book_summary to {role}',
    'grant insert on category to {role}',
    'grant select (id, author_id) on profile to {role}',
  ],
};

/** A change of privileges: author no longer readable, category readable (and insertable). */
const REGRANTS: Record<string, string[]> = {
  postgres: [
    'revoke select on author from {role}',
    'grant select on category to {role}',
    'grant usage on sequence category_id_seq to {role}',
  ],
  mysql: ['revoke select on author from {role}', 'grant select on category to {role}'],
};

// SQLite has no roles nor privileges.
for (const kind of testedKinds().filter(hasPrivileges)) {
  describe(`colapi serve as a role with few privileges [${kind}]`, function () {
    this.timeout(60_000);
    let db: TestDatabase | undefined;
    let role: RestrictedRole | undefined;
    let run: Run | undefined;
    let a: HttpClient;
    /** The warnings so far, the role written ROLE (MariaDB/MySQL name a user with its host: name@%). */
    const warnings = () =>
      run!.stderr
        .split('\n')
        .filter((l) => l.startsWith('warning: '))
        .map((l) => l.replace(new RegExp(`role ${role!.name}(@\\S+)? `), 'ROLE '));

    before(async function () {
      db = await testDatabaseOrSkip(this, kind);
      const admin = connect(db!.url, { pool: { min: 0, max: 1 } });
      await createLibrary(admin.knex, kind).finally(() => disconnect(admin));
      role = await createRestrictedRole(db!);
      await role.run(...GRANTS[kind]!);
      run = colapi(['serve', role.url, '--port', String(await freePort()), '--format', 'jsonapi']);
      const [, origin] = await line(run, /^listening on (http:\/\/\S+)$/);
      a = new HttpClient(origin!, 'application/vnd.api+json');
    });
    after(async () => {
      await stop(run);
      await role?.drop();
      await db?.drop();
    });

    it('leaves out, with a warning, a table the role may not read or may read only some columns of', async () => {
      expect(run!.stderr).to.contain('colapi: serving 4 collections (author, book, book_summary, tag)');
      expect(warnings()).to.include('warning: category: ROLE has no SELECT privilege on it; the table is left out');
      expect(warnings().find((w) => w.startsWith('warning: profile: '))).to.match(
        /^warning: profile: ROLE may read only some of its columns.*; the table is left out/,
      );
      expect((await a.get('/api/category')).status).to.equal(404);
      expect((await a.get('/api/profile')).status).to.equal(404);
      expect((await a.get('/api/author/1/profile')).status).to.equal(404);
    });

    it('serves a table the role may only read with GET alone: 405 for a write, never 500', async () => {
      expect(warnings()).to.include(
        'warning: tag: ROLE lacks INSERT, UPDATE, DELETE on it and DELETE on book_tag; POST, PATCH, PUT, DELETE are not served',
      );
      expect((await a.get('/api/tag?sort=id')).body.data).to.have.length(3);
      const post = await a.post('/api/tag', { data: { type: 'tag', attributes: { name: 'poetry' } } });
      expect(post.status).to.equal(405);
      expect(post.headers.get('allow')).to.equal('GET');
      expect(
        (await a.patch('/api/tag/1', { data: { type: 'tag', id: '1', attributes: { name: 'x' } } })).status,
      ).to.equal(405);
      expect((await a.delete('/api/tag/1')).status).to.equal(405);
    });

    it('withholds only the methods the role lacks a privilege for', async () => {
      expect(warnings()).to.include('warning: author: ROLE lacks DELETE on it; DELETE is not served');
      expect((await a.delete('/api/author/3')).status).to.equal(405);
      const created = await a.post('/api/author', { data: { type: 'author', attributes: { name: 'Alan Turing' } } });
      expect(created.status).to.equal(201);
      const patched = await a.patch(`/api/author/${created.body.data.id}`, {
        data: { type: 'author', id: created.body.data.id, attributes: { born: '1912-06-23' } },
      });
      expect(patched.status).to.equal(200);
      const book = await a.post('/api/book', {
        data: {
          type: 'book',
          attributes: { title: 'On Computable Numbers' },
          relationships: { author: { data: { type: 'author', id: created.body.data.id } } },
        },
      });
      expect(book.status).to.equal(201);
      // Deleting a book deletes its book_tag rows first, which the role may only read.
      expect(warnings()).to.include('warning: book: ROLE lacks DELETE on book_tag; DELETE is not served');
      expect((await a.delete(`/api/book/${book.body.data.id}`)).status).to.equal(405);
      const listed = await a.get('/api/book?include=author,tags&sort=id');
      expect(listed.status).to.equal(200);
      expect(listed.body.data[0].relationships.tags.data).to.have.length(2);
      expect(listed.body.data[0].relationships).not.to.have.property('category');
    });

    it('answers 403 where the database refuses a write it was not asked about at start (a join table)', async () => {
      const linked = await a.post('/api/book/2/relationships/tags', { data: [{ type: 'tag', id: '1' }] });
      expect(linked.status).to.equal(403);
      expect(linked.body.errors[0].detail).to.equal(
        'the database does not allow this to the role the server connects as',
      );
      const created = await a.post('/api/book', {
        data: {
          type: 'book',
          attributes: { title: 'Tagged' },
          relationships: { author: { data: { type: 'author', id: '1' } }, tags: { data: [{ type: 'tag', id: '1' }] } },
        },
      });
      expect(created.status).to.equal(403);
      expect(
        (await a.get(`/api/book?${filterParam([{ name: 'title', op: '==', val: 'Tagged' }])}`)).body.data,
      ).to.deep.equal([]);
    });

    it('reads the privileges again on SIGHUP', async () => {
      await role!.run(...REGRANTS[kind]!);
      const before = warnings().length;
      run!.child.kill('SIGHUP');
      await line(run!, /^reloaded: /);
      const after = warnings().slice(before);
      expect(after).to.include('warning: author: ROLE has no SELECT privilege on it; the table is left out');
      expect(after).to.include('warning: category: ROLE lacks UPDATE, DELETE on it; PATCH, PUT, DELETE are not served');
      expect(after.some((w) => w.startsWith('warning: category: ROLE has no SELECT'))).to.equal(false);
      expect((await a.get('/api/author')).status).to.equal(404);
      expect((await a.get('/api/category/2')).body.data.attributes.name).to.equal('Computing');
    });

    it('answered no request with 500', () => {
      // The command prints the cause of every 500 on standard error.
      expect(run!.stderr).not.to.contain('failed with 500');
    });
  });
}
