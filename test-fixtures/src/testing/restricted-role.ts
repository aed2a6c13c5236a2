import { connect, disconnect } from '@colapi/sql-compiler';
import { randomBytes } from 'node:crypto';
import type { DatabaseKind, TestDatabase } from './databases.js';

/** How a database with privileges makes a login of its own, names it in GRANT, and drops it. */
interface RoleSql {
  create(name: string, password: string): string;
  grantee(name: string): string;
  drop(name: string): readonly string[];
}

const ROLES: Readonly<Record<DatabaseKind, RoleSql>> = {
  postgres: {
    create: (name, password) => `create role "${name}" login password '${password}'`,
    grantee: (name) => `"${name}"`,
    // Its privileges are in the test's database; the role itself is the server's.
    drop: (name) => [`drop owned by "${name}"`, `drop role if exists "${name}"`],
  },
  mysql: {
    create: (name, password) => `create user '${name}'@'%' identified by '${password}'`,
    grantee: (name) => `'${name}'@'%'`,
    drop: (name) => [`drop user if exists '${name}'@'%'`],
  },
};

/** Whether a kind of database has roles and privileges (SQLite has none). */
export const hasPrivileges = (kind: DatabaseKind): boolean => kind in ROLES;

export interface RestrictedRole {
  /** Its name on the server. */
  readonly name: string;
  /** As GRANT and REVOKE name it: `"name"` (PostgreSQL), `'name'@'%'` (MariaDB/MySQL). */
  readonly grantee: string;
  /** The test database's URL, connecting as it. */
  readonly url: string;
  /** Runs statements as the test database's owner (grants, revokes), `{role}` standing for the grantee. */
  run(...statements: string[]): Promise<void>;
  /** Drops it; close its connections first. */
  drop(): Promise<void>;
}

/**
 * A login role (PostgreSQL) or user (MariaDB/MySQL) of the test's own, with no privilege on the test
 * database's tables until granted, and the URL to connect as it. Roles are the server's, not a database's:
 * it is named after the test database, which is the process's own.
 */
export async function createRestrictedRole(db: TestDatabase): Promise<RestrictedRole> {
  const sql = ROLES[db.kind];
  if (!sql) throw new Error(`${db.kind} has no roles`);
  const url = new URL(db.url);
  const name = `${url.pathname.slice(1)}_role`;
  const password = randomBytes(12).toString('hex');
  const grantee = sql.grantee(name);
  const run = async (...statements: string[]) => {
    const admin = connect(db.url, { pool: { min: 0, max: 1 } });
    try {
      for (const s of statements) await admin.knex.raw(s.replaceAll('{role}', grantee));
    } finally {
      await disconnect(admin);
    }
  };
  await run(sql.create(name, password));
  url.username = name;
  url.password = password;
  return { name, grantee, url: url.toString(), run, drop: () => run(...sql.drop(name)) };
}
