import { createTestDatabase, type DatabaseKind, type TestDatabase } from '@colapi/test-fixtures/testing';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import knexFactory from 'knex';
import { ROOT } from './colapi-process.js';

/**
 * The sample databases (Chinook, Pagila, Sakila) as their authors publish them: data under their own licences,
 * read where they lie (`../shared/datasets` beside the repository, or DATASETS_DIR), never copied into it.
 */
export const DATASETS_DIR = process.env.DATASETS_DIR || join(ROOT, '..', 'shared', 'datasets');

/** Databases of this suite, told apart from other suites' on a shared server. */
const PREFIX = 'colapi_i29d_';

/** A sample database loaded into a database of its own. */
export interface LoadedDataset {
  readonly db: TestDatabase;
  /** Milliseconds the load took. */
  readonly loadMs: number;
}

type Loader = (db: TestDatabase) => Promise<unknown>;

/** Each dataset by the kinds of database it is published for. */
export const LOADERS: Readonly<Record<string, Readonly<Record<DatabaseKind, Loader>>>> = {
  chinook: {
    postgres: (db) =>
      psql(db.url, withoutLines(read('chinook/Chinook_PostgreSql.sql'), /^(DROP DATABASE|CREATE DATABASE|\\c)\b.*$/gm)),
    mysql: (db) =>
      // One transaction: fifteen thousand INSERTs committed one by one take InnoDB several seconds.
      mysqlCli(
        db.url,
        `SET autocommit = 0;\n${withoutLines(read('chinook/Chinook_MySql.sql'), /^(DROP DATABASE|CREATE DATABASE|USE)\b.*$/gm)}\nCOMMIT;\n`,
      ),
    sqlite: async (db) => {
      // The whole script at once: better-sqlite3's exec, on the connection knex opened.
      const knex = knexFactory({
        client: 'better-sqlite3',
        connection: { filename: db.url.replace(/^sqlite:(\/\/)?/, '') },
        useNullAsDefault: true,
      });
      try {
        const connection = await knex.client.acquireConnection();
        connection.exec(read('chinook/Chinook_Sqlite.sql'));
        await knex.client.releaseConnection(connection);
      } finally {
        await knex.destroy();
      }
    },
  },
  pagila: {
    // A pg_dump: COPY … FROM stdin needs psql.
    postgres: async (db) =>
      psql(
        db.url,
        forServer(read('pagila/pagila-schema.sql'), await serverVersion(db.url)) + read('pagila/pagila-data.sql'),
      ),
  },
  sakila: {
    // The scripts create, enter and name the database `sakila` (its view actor_info says `sakila.film`).
    mysql: (db) => {
      const name = new URL(db.url).pathname.slice(1);
      const script = read('sakila/sakila-mv-schema.sql') + read('sakila/sakila-mv-data.sql');
      return mysqlCli(db.url, withoutLines(script, /^(DROP|CREATE) SCHEMA\b.*$/gm).replace(/\bsakila\b/g, name));
    },
  },
};

/** Creates a database of the kind and loads the dataset into it; throws, naming the dataset, when it cannot. */
export async function loadDataset(dataset: string, kind: DatabaseKind): Promise<LoadedDataset> {
  const load = LOADERS[dataset]?.[kind];
  if (!load) throw new Error(`${dataset} is not published for ${kind}`);
  if (!existsSync(join(DATASETS_DIR, dataset)))
    throw new Error(`${dataset}: no ${join(DATASETS_DIR, dataset)} (set DATASETS_DIR to the folder of the datasets)`);
  const db = await createTestDatabase(kind, PREFIX);
  const started = Date.now();
  try {
    await load(db);
  } catch (error) {
    await db.drop();
    throw new Error(`${dataset} on ${kind} did not load: ${(error as Error).message}`);
  }
  return { db, loadMs: Date.now() - started };
}

function read(file: string): string {
  return readFileSync(join(DATASETS_DIR, file), 'utf8');
}

function withoutLines(script: string, lines: RegExp): string {
  return script.replace(lines, '');
}

/**
 * Pagila is a pg_dump of PostgreSQL 17; before 17 two of its entries cannot run: `SET transaction_timeout`
 * and the view films_per_customer_rental (JSON_TABLE). They are left out there, every other entry kept.
 */
export function forServer(dump: string, versionNum: number): string {
  if (versionNum >= 170000) return dump;
  return dump
    .replace(/^SET transaction_timeout = 0;$/m, '')
    .split(/(?=^--\n-- Name: )/m)
    .filter((entry) => !entry.startsWith('--\n-- Name: films_per_customer_rental; Type: VIEW;'))
    .join('');
}

async function serverVersion(url: string): Promise<number> {
  const out = await run('psql', ['-X', '-A', '-t', '-c', 'show server_version_num', url], '');
  return Number(out.trim());
}

/** Runs a script with psql, stopping at its first error, in one transaction. */
function psql(url: string, script: string): Promise<string> {
  return run('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '--single-transaction', '-d', url], script);
}

/** Runs a script with MariaDB's client (or MySQL's), in the URL's database; it stops at the first error. */
async function mysqlCli(url: string, script: string): Promise<string> {
  const u = new URL(url);
  const args = [
    `--host=${u.hostname}`,
    `--port=${u.port || '3306'}`,
    `--user=${decodeURIComponent(u.username)}`,
    '--default-character-set=utf8mb4',
    u.pathname.slice(1),
  ];
  const env = { MYSQL_PWD: decodeURIComponent(u.password) };
  try {
    return await run('mariadb', args, script, env);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return run('mysql', args, script, env);
  }
}

/** A command with a script on its standard input: its output, or an error with what it wrote on stderr. */
function run(command: string, args: string[], input: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`${command} exited with ${code}: ${stderr.trim()}`)),
    );
    child.stdin.on('error', () => {}); // an early exit is reported by 'close'
    child.stdin.end(input);
  });
}
