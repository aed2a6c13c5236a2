import { connect, dialects, type Dialect } from '@colapi/sql-compiler';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A dialect's name (`dialects` of @colapi/sql-compiler): every dialect the project ships is tested. */
export type DatabaseKind = string;
export const ALL_KINDS: readonly DatabaseKind[] = Object.keys(dialects);

/**
 * The server each dialect's tests make their databases on: `<NAME>_URL` (POSTGRES_URL, MYSQL_URL; PG_URL
 * too), else this machine's servers. A dialect whose databases are files needs none.
 */
const LOCAL_SERVERS: Readonly<Record<string, string>> = {
  postgres: 'postgres://root@127.0.0.1:5432/test',
  mysql: 'mysql://root@127.0.0.1:3306/test',
};

function serverUrl(kind: DatabaseKind): string {
  const url =
    process.env[`${kind.toUpperCase()}_URL`] ||
    (kind === 'postgres' ? process.env.PG_URL : undefined) ||
    LOCAL_SERVERS[kind];
  if (!url) throw new Error(`no server to test ${kind} on: set ${kind.toUpperCase()}_URL`);
  return url;
}

/** Which databases to test: `DATABASES=sqlite,postgres` narrows the run; default all. */
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
 * Creates an empty database of a kind for this test process, the way its dialect makes one, named `prefix`,
 * the process id and a counter (a suite may choose its prefix, to tell its databases on a shared server).
 * Throws when the server cannot be reached; callers decide whether that skips (a developer's machine) or fails (CI).
 */
export async function createTestDatabase(kind: DatabaseKind, prefix = 'colapi_t'): Promise<TestDatabase> {
  const dialect: Dialect | undefined = dialects[kind];
  if (!dialect) throw new Error(`no dialect is named ${kind}`);
  // TEST_DATABASE_PREFIX keeps apart the runs of several checkouts on one database server.
  const name = `${process.env.TEST_DATABASE_PREFIX || prefix}${process.pid}_${counter++}`;
  if (!dialect.createDatabase) {
    const dir = mkdtempSync(join(tmpdir(), 'colapi-'));
    return {
      kind,
      url: `${dialect.schemes[0]}${join(dir, `${name}.${kind}`)}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const server = serverUrl(kind);
  const onServer = async (
    work: (admin: Dialect, db: ReturnType<typeof connect>) => Promise<void>,
    timeout?: number,
  ) => {
    const admin = connect(server, {
      pool: { min: 0, max: 1 },
      ...(timeout ? { acquireConnectionTimeout: timeout } : {}),
    });
    try {
      await work(dialect, admin);
    } finally {
      await admin.knex.destroy();
    }
  };
  // A database of this name can only be left by a process that died before dropping it (no living
  // process shares this one's pid): a killed run's leftovers must not fail the next run that draws its pid.
  await onServer(async (d, admin) => {
    await d.dropDatabase!(admin.knex, name);
    await d.createDatabase!(admin.knex, name);
  }, 5000);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    kind,
    url: url.toString(),
    drop: () => onServer((d, admin) => d.dropDatabase!(admin.knex, name)),
  };
}
