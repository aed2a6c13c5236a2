import { connect, disconnect, type Database } from '@colapi/sql-compiler';
import {
  createLibrary,
  createRestrictedRole,
  hasPrivileges,
  testDatabaseOrSkip,
  testedKinds,
  type RestrictedRole,
  type TestDatabase,
} from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { readCatalogue, registryFromCatalogue, type Catalogue, type CatalogueTable } from '../src/index.js';

/**
 * The library's tables, granted to a role of the test's own: author without DELETE, book everything (but, on
 * PostgreSQL, not its serial key's sequence), tag SELECT only, category INSERT only, profile two of its three
 * columns, edition nothing.
 */
const GRANTS: Record<string, string[]> = {
  postgres: [
    'grant select, insert, update on author to {role}',
    'grant usage on sequence author_id_seq to {role}',
    'grant select, insert, update, delete on book to {role}',
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

// SQLite has no roles nor privileges.
for (const kind of testedKinds().filter(hasPrivileges)) {
  describe(`readCatalogue as a role with few privileges [${kind}]`, function () {
    this.timeout(60_000);
    let db: TestDatabase | undefined;
    let role: RestrictedRole | undefined;
    let database: Database | undefined;
    let catalogue: Catalogue;
    const table = (name: string): CatalogueTable | undefined => catalogue.tables.find((x) => x.name === name);
    const privileges = (name: string) => table(name)?.privileges;
    const column = (t: string, c: string) => table(t)?.columns.find((x) => x.name === c)?.privileges;

    before(async function () {
      db = await testDatabaseOrSkip(this, kind);
      const admin = connect(db!.url, { pool: { min: 0, max: 1 } });
      await createLibrary(admin.knex, kind).finally(() => disconnect(admin));
      role = await createRestrictedRole(db!);
      await role.run(...GRANTS[kind]!);
      database = connect(role.url, { pool: { min: 0, max: 2 } });
      catalogue = await readCatalogue(database);
    });
    after(async () => {
      if (database) await disconnect(database);
      await role?.drop();
      await db?.drop();
    });

    it('names the role it read the privileges of', () => {
      expect(catalogue.role?.split('@')[0]).to.equal(role!.name);
    });

    it('tells which columns a table lets the role read', () => {
      expect(privileges('author')?.select).to.equal('all');
      expect(privileges('tag')?.select).to.equal('all');
      expect(privileges('category')?.select).to.equal('none');
      expect(privileges('profile')?.select).to.equal('some');
      expect(column('profile', 'id')).to.deep.include({ select: true });
      // PostgreSQL lists the column the role may not read; MariaDB/MySQL hide it from the role.
      expect(column('profile', 'bio')?.select ?? false).to.equal(false);
      // A table the role holds nothing on is unreadable, or not shown to it at all.
      expect(privileges('edition')?.select ?? 'none').to.equal('none');
    });

    it('tells what the role may write: INSERT and UPDATE per column, DELETE per table', () => {
      expect(privileges('author')?.delete).to.equal(false);
      expect(privileges('book')?.delete).to.equal(true);
      expect(privileges('tag')?.delete).to.equal(false);
      expect(column('author', 'name')).to.deep.equal({ select: true, insert: true, update: true });
      expect(column('tag', 'name')).to.deep.equal({ select: true, insert: false, update: false });
      expect(column('book', 'title')).to.deep.equal({ select: true, insert: true, update: true });
    });

    if (kind === 'postgres') {
      it('counts a serial column insertable only with its sequence', () => {
        expect(column('author', 'id')?.insert).to.equal(true);
        expect(column('book', 'id')?.insert).to.equal(false);
      });
    }

    it('serves what the role may read, with the methods it may use, and says why', () => {
      const { registry, warnings } = registryFromCatalogue(catalogue);
      expect([...registry.collections.keys()]).to.deep.equal(['author', 'book', 'book_summary', 'tag']);
      expect([...registry.collection('tag')!.methods]).to.deep.equal(['GET']);
      expect([...registry.collection('author')!.methods]).to.deep.equal(['GET', 'POST', 'PATCH', 'PUT']);
      expect([...registry.collection('book')!.relationships.keys()]).to.include('tags');
      const who = `role ${catalogue.role}`;
      expect(warnings).to.include(`category: ${who} has no SELECT privilege on it; the table is left out`);
      expect(warnings.find((w) => w.startsWith(`profile: ${who} may read only some of its columns`))).to.match(
        /the table is left out/,
      );
      expect(warnings).to.include(
        `tag: ${who} lacks INSERT, UPDATE, DELETE on it and DELETE on book_tag; POST, PATCH, PUT, DELETE are not served`,
      );
      expect(warnings).to.include(`author: ${who} lacks DELETE on it; DELETE is not served`);
    });
  });
}
