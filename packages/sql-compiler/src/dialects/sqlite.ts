import { sqlColumn, type ColumnType } from '@colapi/schema';
import { checkDecimal } from '@colapi/query-ast';
import type { Dialect } from '../dialect.js';
import { decodeCommon, decodeJsonText } from './decode-common.js';
import { ValueOutOfRange } from '../value-out-of-range.js';
import { likeToGlob } from '../like-pattern.js';
import { sqliteErrorPlace } from './sqlite-error-place.js';
import { ENTRY_POINT, interruptExtension, TIMEOUT_FUNCTION } from './sqlite-interrupt.js';
import { inTextForm, textFormDigits } from '../text-form.js';

const DDL: Record<ColumnType, string> = {
  integer: 'integer',
  number: 'real',
  string: 'varchar(255)',
  boolean: 'boolean',
  date: 'text',
  time: 'text',
  datetime: 'text',
  interval: 'integer',
  inet: 'text',
  json: 'text',
  uuid: 'text',
  decimal: 'numeric',
  binary: 'blob',
  enum: 'text',
  set: 'text',
  datetimetz: 'text',
  array: 'text',
};

/** What `integer` holds on PostgreSQL and MariaDB. */
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** `sqlite:/path/to/file`, `sqlite:relative/file` or `sqlite::memory:`. */
function filename(url: string): string {
  const rest = url.replace(/^sqlite:(\/\/)?/, '');
  return rest === '' ? ':memory:' : rest;
}

interface SqliteConnection {
  readonly inTransaction: boolean;
  pragma(source: string): unknown;
  function(name: string, options: { deterministic: boolean }, fn: (value?: unknown) => unknown): unknown;
  prepare(source: string): unknown;
  loadExtension(path: string, entryPoint?: string): unknown;
}

interface SqliteStatement {
  readonly reader: boolean;
  /** False for a statement that writes, RETURNING rows or not. */
  readonly readonly: boolean;
  safeIntegers(on: boolean): SqliteStatement;
  all(values: readonly unknown[]): Record<string, unknown>[];
  run(values: readonly unknown[]): { lastInsertRowid: number | bigint; changes: number };
}

/** What `colapi_refuse()` throws: the failure of a `refuseUnless` guard. better-sqlite3 rethrows it as it is. */
class RefusedByRules extends Error {}

/**
 * SQLite has no expression that fails a statement on demand (a division by zero is NULL, RAISE only works in
 * triggers), so the dialect registers one on each connection, as it registers colapi_lower.
 */
function refuse(): never {
  throw new RefusedByRules('the rules refuse this write');
}

/**
 * An integer better-sqlite3 read as a BigInt (safeIntegers), as JSON holds it exactly: a number within 2^53,
 * its digits past it, as the other dialects' drivers answer a bigint.
 */
function exactInteger(value: unknown): unknown {
  if (typeof value !== 'bigint') return value;
  return value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : String(value);
}

/** The text of an integer past 2^53, as the value checks let it through. */
const DIGITS = /^-?\d{1,19}$/;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;

/** Rows read with safeIntegers, each BigInt replaced by exactInteger's value. */
function exactRows(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  for (const row of rows) for (const k in row) if (typeof row[k] === 'bigint') row[k] = exactInteger(row[k]);
  return rows;
}

/** Whether a row read as doubles holds a number past 2^53, which may be an integer the double rounded. */
function holdsUnsafe(rows: readonly Record<string, unknown>[]): boolean {
  for (const row of rows) {
    for (const k in row) {
      const v = row[k];
      if (typeof v === 'number' && (v > Number.MAX_SAFE_INTEGER || v < -Number.MAX_SAFE_INTEGER)) return true;
    }
  }
  return false;
}

/** better-sqlite3 binds numbers, strings, bigints, buffers and null; booleans and dates as knex binds them. */
function sqliteValue(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.valueOf();
  return value;
}

/** What knex's better-sqlite3 client uses of a statement. */
const NOTHING_TO_ROLL_BACK = {
  reader: false,
  readonly: false,
  safeIntegers() {
    return this;
  },
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
};

/**
 * SQLite rolls a transaction back by itself when a write in it is interrupted (the statement timeout) or
 * fails for want of disk or memory. knex's ROLLBACK then fails with "no transaction is active", and that
 * error replaces the one that caused it (a timeout would answer 500 instead of 503). With no transaction
 * open, a ROLLBACK has nothing left to do, so it does nothing.
 */
function rollbackOnlyWhatIsOpen(conn: SqliteConnection): void {
  const prepare = conn.prepare.bind(conn);
  conn.prepare = (source) =>
    !conn.inTransaction && /^\s*rollback\b/i.test(source) ? NOTHING_TO_ROLL_BACK : prepare(source);
}

/** Statements kept per connection; the SQL of a statement depends only on the shape of a request. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * knex prepares every statement anew, and compiling SQL is most of what a small SQLite query costs. A
 * better-sqlite3 statement can be run again with other bindings, so each connection keeps the recent ones.
 */
function cacheStatements(conn: SqliteConnection): void {
  const prepare = conn.prepare.bind(conn);
  const statements = new Map<string, unknown>();
  conn.prepare = (source) => {
    let statement = statements.get(source);
    if (statement === undefined) {
      statement = prepare(source);
      statements.set(source, statement);
      // The oldest goes first: in-lists of every length would otherwise grow the cache without bound.
      if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
    }
    return statement;
  };
}

export const sqlite: Dialect = {
  name: 'sqlite',
  dbSystem: 'sqlite',
  schemes: ['sqlite:', 'file:'],
  returning: true,
  // The RETURNING list is computed as the row is written; an error there aborts the statement and its row.
  refuseUnless(condition) {
    return `(case when ${condition} then 1 else colapi_refuse() end)`;
  },
  refused(error) {
    return error instanceof RefusedByRules;
  },
  foldsHead: false,
  knexConfig(url, options = {}) {
    // The statement timeout bounds both the wait for a lock another connection holds (busy_timeout: then
    // SQLITE_BUSY, retried within the server's retry budget, then 503) and the running statement itself: better-sqlite3 cannot interrupt
    // one, so an extension of ours does (SQLITE_INTERRUPT, 503). It is built now, so that a missing C
    // compiler fails connect() rather than every query.
    const { statementTimeout } = options;
    const busyTimeout = statementTimeout ?? 5000;
    const extension = statementTimeout === undefined ? undefined : interruptExtension();
    return {
      client: 'better-sqlite3',
      connection: { filename: filename(url) },
      useNullAsDefault: true,
      pool: {
        min: 1,
        max: 1,
        afterCreate(conn: SqliteConnection, done: (err: unknown, conn: unknown) => void) {
          try {
            conn.pragma('foreign_keys = ON');
            conn.pragma(`busy_timeout = ${busyTimeout}`);
            conn.pragma('journal_mode = WAL');
            if (extension !== undefined) {
              conn.loadExtension(extension, ENTRY_POINT);
              (conn.prepare(`select ${TIMEOUT_FUNCTION}(?)`) as { get(ms: number): unknown }).get(statementTimeout!);
            }
            // SQLite's lower() folds ASCII only; this folds all of Unicode, as the other dialects do.
            conn.function('colapi_lower', { deterministic: true }, (v) =>
              typeof v === 'string' ? v.toLowerCase() : v,
            );
            // Not deterministic, so that SQLite never evaluates it ahead of the row it guards.
            conn.function('colapi_refuse', { deterministic: false }, refuse);
            cacheStatements(conn);
            rollbackOnlyWhatIsOpen(conn);
            done(null, conn);
          } catch (err) {
            done(err, conn);
          }
        },
      },
    };
  },
  async execute(connection, sql, bindings) {
    // The connection's statement cache (cacheStatements) makes this a lookup after the first time.
    const statement = (connection as SqliteConnection).prepare(sql) as SqliteStatement;
    const values = bindings.map(sqliteValue);
    // SQLite integers are 64 bits; better-sqlite3 reads them as doubles unless asked for BigInts, which cost
    // a third more per row read (docs/decisions.md). A read is run as doubles, and again with BigInts only
    // when a value came past 2^53 (a read is repeatable: the connection runs nothing in between). A write
    // is never run twice: its RETURNING rows and new rowid are read with BigInts. The statement is shared
    // with knex's own queries (the connection's cache), so it is left as it was found, reading doubles.
    if (statement.reader && statement.readonly) {
      const rows = statement.all(values);
      if (!holdsUnsafe(rows)) return { rows };
    }
    statement.safeIntegers(true);
    try {
      if (statement.reader) return { rows: exactRows(statement.all(values)) };
      const { lastInsertRowid, changes } = statement.run(values);
      return { rows: [], insertId: exactInteger(lastInsertRowid), affected: changes };
    } finally {
      statement.safeIntegers(false);
    }
  },
  readColumn(knex, ref) {
    return knex.raw('??', [ref]);
  },
  writeValue(_knex, column, value) {
    if (column.type === 'boolean' && typeof value === 'boolean') return value ? 1 : 0;
    if (column.textForm !== undefined) return inTextForm(column, value);
    // SQLite stores 64 bits in any integer column; the other databases declare these columns `integer`,
    // 32 bits, and refuse more. Refused here alike, rather than kept on one database only.
    // A declared size (`bigint`) is checked before any SQL, against its own range.
    if (
      column.type === 'integer' &&
      column.maximum === undefined &&
      typeof value === 'number' &&
      (value < INT32_MIN || value > INT32_MAX)
    )
      throw new ValueOutOfRange(sqlColumn(column));
    if (column.type === 'integer' && typeof value === 'string' && DIGITS.test(value)) return BigInt(value);
    if (column.type === 'binary' && typeof value === 'string') return Buffer.from(value, 'base64');
    return value;
  },
  plainValue(column, value) {
    // A date key or join value in the form the column's rows are written in, as filters compare it.
    return column.textForm === undefined ? value : inTextForm(column, value);
  },
  filterValue(_knex, column, value) {
    if (column.type === 'binary' && typeof value === 'string') return Buffer.from(value, 'base64');
    // An integer past 2^53 comes as its digits: bound as a 64-bit integer, compared exactly.
    if (column.type === 'integer' && typeof value === 'string' && DIGITS.test(value)) return BigInt(value);
    // Dates and times are text: compared in the form the column's rows are written in.
    return inTextForm(column, value);
  },
  decodeValue(column, raw) {
    // A whole number past 2^53 in a decimal column comes as its digits (execute): at the column's scale.
    if (column.type === 'decimal' && typeof raw === 'string') {
      const checked = checkDecimal({ ...column, precision: undefined }, raw);
      if (checked.ok) return checked.value;
    }
    const common = decodeCommon(column, raw);
    if (common !== undefined) return common;
    switch (column.type) {
      case 'boolean':
        return Boolean(raw);
      case 'date':
        // A date column whose rows carry a midnight time (`textForm`).
        return column.textForm === undefined ? raw : String(raw).slice(0, 10);
      case 'json':
        return decodeJsonText(raw);
      default:
        return raw;
    }
  },
  like(knex, expr, pattern, mode) {
    // SQLite's LIKE ignores ASCII case; GLOB is exact, so like and not_like go through it.
    if (mode === 'ilike') return knex.raw("colapi_lower(?) like colapi_lower(?) escape '\\'", [expr, pattern]);
    return knex.raw(mode === 'like' ? '? glob ?' : 'not (? glob ?)', [expr, likeToGlob(pattern)]);
  },
  exactText(knex, expr) {
    // A column declared with another collation (nocase) still compares exactly.
    return knex.raw('? collate binary', [expr]);
  },
  orderTerm(knex, expr, descending) {
    // SQLite already sorts nulls first ascending and last descending.
    return knex.raw(descending ? '? desc' : '? asc', [expr]);
  },
  now(knex, value, type, column) {
    // Whole seconds, in the column's text form; today's date alone is midnight, as the other databases read a date.
    const form = column?.textForm ?? { date: 'YYYY-MM-DD', time: 'HH:MM:SS' }[type as string] ?? 'YYYY-MM-DDTHH:MM:SS';
    const time = type === 'date' || value.fn === 'CURRENT_DATE' ? '00:00:00' : '%H:%M:%S';
    const digits = textFormDigits(form);
    const fraction = digits === undefined ? '' : `.${'0'.repeat(digits)}`;
    const pattern = !form.startsWith('YYYY')
      ? `${time}${fraction}`
      : form.includes('HH')
        ? `%Y-%m-%d${form.charAt(10)}${time}${fraction}`
        : '%Y-%m-%d';
    return knex.raw("strftime(?, 'now')", [pattern]);
  },
  keyList(knex, from, key, type) {
    // ORDER BY inside an aggregate needs SQLite 3.44 (better-sqlite3 11 and later bundle newer).
    if (type === 'integer')
      return knex.raw('?', [from.select(knex.raw("group_concat(??, ',' order by ??)", [key, key]))]);
    // Text keys as JSON text.
    return knex.raw('?', [from.select(knex.raw('json_group_array(cast(?? as text) order by ??)', [key, key]))]);
  },
  decodeKeyList: (raw) => JSON.parse(String(raw)) as string[],
  ddlType: (type) => DDL[type],
  classifyError(error, statement) {
    if (error instanceof ValueOutOfRange) return 'out-of-range';
    const code = String((error as { code?: unknown })?.code ?? '');
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return 'unique-violation';
    if (code === 'SQLITE_CONSTRAINT_NOTNULL') return 'not-null-violation';
    if (code === 'SQLITE_CONSTRAINT_CHECK') return 'check-violation';
    if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
      // SQLite says only "FOREIGN KEY constraint failed", and a DELETE can break a foreign key in one way
      // only: rows still refer to the deleted one. The runner gives the statement; a statement knex ran
      // itself (a hook's own) is at the head of the message, where knex puts it.
      const sql = statement?.sql ?? String((error as { message?: unknown }).message ?? '');
      return /^\s*delete\b/i.test(sql) ? 'foreign-key-referenced' : 'foreign-key-missing';
    }
    // Extended codes too: SQLITE_BUSY_SNAPSHOT is a read-then-write transaction that lost to another process.
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'serialization';
    if (code === 'SQLITE_INTERRUPT') return 'timeout';
    return undefined;
  },
  errorPlace: sqliteErrorPlace,
  async emptyTables(knex, tables) {
    await knex.transaction(async (trx) => {
      // Foreign keys are checked at commit, when every table is empty, whatever order the tables come in.
      await trx.raw('pragma defer_foreign_keys = on');
      for (const t of tables) await trx(t).del();
      // Restarts AUTOINCREMENT keys; tables without it reuse the largest key plus one anyway.
      if (await trx.schema.hasTable('sqlite_sequence'))
        await trx('sqlite_sequence')
          .whereIn('name', [...tables])
          .del();
    });
  },
};
