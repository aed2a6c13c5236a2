import { connect } from '@colapi/sql-compiler';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DbKind } from './options.js';

/** The database servers of the project's machines (conformance/SCHEMA.md); PG_URL and MYSQL_URL override. */
const SERVERS: Record<Exclude<DbKind, 'sqlite'>, string> = {
  postgres: process.env.PG_URL || 'postgres://root@127.0.0.1:5432/test',
  mysql: process.env.MYSQL_URL || 'mysql://root@127.0.0.1:3306/test',
};

/**
 * The URL of a dedicated bench database (`colapi_bench`, `colapi_bench_x10`, …), created when missing. It is
 * never the tests' database, so a seeded dataset survives between runs.
 */
export async function benchDatabase(kind: DbKind, name: string): Promise<string> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`bad database name ${name}`);
  if (kind === 'sqlite') return `sqlite:${join(process.env.BENCH_SQLITE_DIR || tmpdir(), `${name}.sqlite`)}`;
  const server = SERVERS[kind];
  const admin = connect(server, { pool: { min: 0, max: 1 }, acquireConnectionTimeout: 5000 });
  try {
    if (kind === 'postgres') {
      const found = await admin.knex.raw('select 1 from pg_database where datname = ?', [name]);
      if (found.rows.length === 0) await admin.knex.raw(`create database ${name}`);
    } else {
      await admin.knex.raw(`create database if not exists ${name}`);
    }
  } finally {
    await admin.knex.destroy();
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}
