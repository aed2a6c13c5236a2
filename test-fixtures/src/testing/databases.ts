import { connect } from '@colapi/sql-compiler';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type DatabaseKind = 'sqlite' | 'postgres' | 'mysql';
export const ALL_KINDS: readonly DatabaseKind[] = ['sqlite', 'postgres', 'mysql'];

/** The server URLs tests use; a fresh database is made on each for every test process. */
const SERVERS: Record<Exclude<DatabaseKind, 'sqlite'>, string> = {
  postgres: process.env.PG_URL || 'postgres://root@127.0.0.1:5432/test',
  mysql: process.env.MYSQL_URL || 'mysql://root@127.0.0.1:3306/test',
};

/** Which databases to test: `DATABASES=sqlite,postgres` narrows the run; default all three. */
export function testedKinds(): DatabaseKind[] {
  const wanted = (process.env.DATABASES || ALL_KINDS.join(',')).split(',').map((s) => s.trim());
  return ALL_KINDS.filter((k) => wanted.includes(k));
}

export interface TestDatabase {
  readonly kind: DatabaseKind;
  readonly url: string;
  drop(): Promise<void>;
}

let counter = 0;

/**
 * Creates an empty database of a kind for this test process. Throws when the server cannot be reached;
 * callers decide whether that skips (a developer's machine) or fails (CI).
 */
export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const name = `colapi_t${process.pid}_${counter++}`;
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'colapi-'));
    return { kind, url: `sqlite:${join(dir, `${name}.sqlite`)}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const server = SERVERS[kind];
  const admin = connect(server, { pool: { min: 0, max: 1 }, acquireConnectionTimeout: 5000 });
  try {
    await admin.knex.raw(`create database ${name}`);
  } finally {
    await admin.knex.destroy();
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    kind,
    url: url.toString(),
    async drop() {
      const a = connect(server, { pool: { min: 0, max: 1 } });
      try {
        await a.knex.raw(kind === 'postgres' ? `drop database if exists ${name} with (force)` : `drop database if exists ${name}`);
      } finally {
        await a.knex.destroy();
      }
    },
  };
}
