import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';

export type Row = Record<string, unknown>;

/** Connections of the PostgreSQL and MariaDB pools (POOL_SIZE, as the bench gives every server the same). */
const POOL_SIZE = Number(process.env.POOL_SIZE || 16);

/** The least a hand-written server needs from its driver: run a statement, get rows; insert, get the key. */
export interface Driver {
  readonly kind: 'postgres' | 'mysql' | 'sqlite';
  all(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

/** `?` placeholders as PostgreSQL's `$1, $2, …`; the SQL of this server has no `?` inside literals. */
const numbered = new Map<string, string>();
function dollarPlaceholders(sql: string): string {
  let out = numbered.get(sql);
  if (out === undefined) {
    let n = 0;
    out = sql.replace(/\?/g, () => `$${++n}`);
    numbered.set(sql, out);
  }
  return out;
}

function postgres(url: string): Driver {
  // Temporal values as the database prints them (no time-zone shift), bigint and numeric as numbers.
  const text = (s: string) => s;
  for (const oid of [1082, 1083, 1114, 1184, 1186]) pg.types.setTypeParser(oid, text);
  pg.types.setTypeParser(20, Number);
  pg.types.setTypeParser(1700, Number);
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
  return {
    kind: 'postgres',
    all: async (sql, params = []) => (await pool.query(dollarPlaceholders(sql), params as unknown[])).rows,
    close: () => pool.end(),
  };
}

function mariadb(url: string): Driver {
  const u = new URL(url);
  const pool = mysql.createPool({
    host: u.hostname,
    port: Number(u.port || 3306),
    user: decodeURIComponent(u.username || 'root'),
    password: decodeURIComponent(u.password),
    database: u.pathname.slice(1),
    connectionLimit: POOL_SIZE,
    dateStrings: true,
    decimalNumbers: true,
    supportBigNumbers: true,
  });
  return {
    kind: 'mysql',
    async all(sql, params = []) {
      const [rows] = await pool.query(sql, params as unknown[]);
      return Array.isArray(rows) ? (rows as Row[]) : [rows as unknown as Row];
    },
    close: () => pool.end(),
  };
}

function sqlite(url: string): Driver {
  const db = new Database(url.replace(/^sqlite:(\/\/)?/, ''));
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  // A hand-written server prepares each statement once.
  const statements = new Map<string, Database.Statement>();
  const prepared = (sql: string) => {
    let s = statements.get(sql);
    if (!s) statements.set(sql, (s = db.prepare(sql)));
    return s;
  };
  return {
    kind: 'sqlite',
    async all(sql, params = []) {
      const s = prepared(sql);
      return s.reader ? (s.all(...params) as Row[]) : [s.run(...params) as unknown as Row];
    },
    close: async () => void db.close(),
  };
}

export function openDriver(url: string): Driver {
  if (/^postgres(ql)?:/.test(url)) return postgres(url);
  if (/^(mysql|mariadb):/.test(url)) return mariadb(url);
  if (/^sqlite:/.test(url)) return sqlite(url);
  throw new Error(`the baseline serves postgres://, mysql:// and sqlite: URLs, not ${url}`);
}
