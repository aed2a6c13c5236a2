import type { ColumnSchema, ColumnType } from '@colapi/schema';
import type { Dialect, ForeignKey } from '../dialect.js';
import { decodeCommon, decodeInteger, decodeJsonText } from './decode-common.js';
import { mysqlErrorPlace } from './mysql-error-place.js';

const DDL: Record<ColumnType, string> = {
  integer: 'integer',
  number: 'double',
  string: 'varchar(255)',
  boolean: 'boolean',
  date: 'date',
  time: 'time(6)',
  datetime: 'datetime(6)',
  interval: 'bigint',
  inet: 'varchar(64)',
  json: 'json',
  uuid: 'char(36)',
  decimal: 'decimal(65,30)',
  binary: 'longblob',
  enum: 'varchar(255)',
  set: 'json',
  datetimetz: 'timestamp(6)',
  array: 'json',
};

const ERRORS: Record<number, ReturnType<Dialect['classifyError']>> = {
  1062: 'unique-violation',
  1048: 'not-null-violation',
  1364: 'not-null-violation',
  1452: 'foreign-key-missing',
  1451: 'foreign-key-referenced',
  3819: 'check-violation',
  4025: 'check-violation',
  1264: 'out-of-range',
  // A table or column privilege the server's user lacks.
  1142: 'permission-denied',
  1143: 'permission-denied',
  1292: 'invalid-value',
  1366: 'invalid-value',
  1406: 'invalid-value',
  1367: 'invalid-value',
  1690: 'invalid-value',
  1969: 'timeout',
  3024: 'timeout',
  1317: 'timeout',
  1213: 'serialization',
  1205: 'serialization',
  1927: 'unavailable',
  2006: 'unavailable',
  2013: 'unavailable',
};

interface MysqlConnection {
  query(sql: string, values: readonly unknown[], cb: (err: unknown, result?: unknown) => void): void;
  query(sql: string, cb: (err: unknown) => void): void;
}

/**
 * Bounds every statement of a connection: MariaDB's max_statement_time (seconds); where the server does not
 * know it (1193, MySQL) MySQL's max_execution_time (milliseconds).
 */
function setStatementTimeout(conn: MysqlConnection, ms: number, done: (err: unknown) => void): void {
  conn.query('set session max_statement_time = ?', [ms / 1000], (err) => {
    if ((err as { errno?: unknown } | null)?.errno === 1193)
      conn.query('set session max_execution_time = ?', [ms], done);
    else done(err);
  });
}

/**
 * Whether a server of this version answers INSERT … RETURNING: MariaDB since 10.5, MySQL never. A MariaDB
 * server may present itself to old clients as `5.5.5-10.11.6-MariaDB`; the real version follows the prefix.
 */
export function returnsInsertedRows(version: string): boolean {
  const mariadb = /^(?:5\.5\.5-)?(\d+)\.(\d+)\.\d+-MariaDB/i.exec(version);
  if (!mariadb) return false;
  const major = Number(mariadb[1]);
  return major > 10 || (major === 10 && Number(mariadb[2]) >= 5);
}

/** A checked value as bound: a timestamp with a space, bytes from base64, a UUID kept as bytes as its 16 bytes. */
function binding(column: ColumnSchema, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (column.type === 'datetime') return value.replace('T', ' ');
  if (column.type === 'binary') return Buffer.from(value, 'base64');
  if (column.uuidBytes) return Buffer.from(value.replace(/-/g, ''), 'hex');
  return value;
}

/** 16 bytes as a UUID's text: lower-case hex with hyphens. */
function uuidText(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Parses mysql://user:password@host:port/database into mysql2 options. */
function connectionOptions(url: string) {
  const u = new URL(url);
  return {
    host: u.hostname || '127.0.0.1',
    port: u.port ? Number(u.port) : 3306,
    user: decodeURIComponent(u.username || 'root'),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.replace(/^\//, '')),
    // Temporal values stay text: no time-zone shift, microseconds kept.
    dateStrings: true,
    // DECIMAL as text, every digit kept (a column of type number reads it as a number); BIGINT past 2^53 as
    // text; JSON as text, parsed by the decoder (MariaDB's JSON is text to the driver, MySQL's is not).
    decimalNumbers: false,
    supportBigNumbers: true,
    jsonStrings: true,
    charset: 'utf8mb4',
  };
}

export const mysql: Dialect = {
  name: 'mysql',
  dbSystem: 'mysql',
  schemes: ['mysql:', 'mariadb:'],
  returning: false,
  async returnsInsertedRows(knex) {
    const [rows] = (await knex.raw('select version() as version')) as [{ version: string }[]];
    return returnsInsertedRows(String(rows[0]?.version ?? ''));
  },
  emptyInsertValues: '() values ()',
  // A scalar subquery that yields two rows unless the condition holds: a cardinality error (1242, SQLSTATE
  // 21000) whatever the sql_mode, where a division by zero may only warn. It reads the new row's columns, so
  // it is evaluated for the row, never folded into a failure of every statement. Used in INSERT … RETURNING,
  // that is on MariaDB 10.5 and later (returnsInsertedRows).
  refuseUnless(condition) {
    return `(select 1 from (select 1 as n union all select 2) as colapi_refusal where (${condition}) is not true)`;
  },
  refused(error) {
    return (error as { errno?: unknown } | null)?.errno === 1242;
  },
  foldsHead: false,
  knexConfig(url, options = {}) {
    const { statementTimeout } = options;
    return {
      client: 'mysql2',
      connection: connectionOptions(url),
      pool: {
        min: 0,
        max: 10,
        // Strict mode everywhere: a bad value is an error, never a silent truncation. Linkage lists are
        // group_concat results (keyList), which MySQL would cut at 1,024 bytes by default.
        afterCreate(conn: MysqlConnection, done: (err: unknown, conn: unknown) => void) {
          conn.query(
            "set session sql_mode = 'STRICT_ALL_TABLES,NO_ZERO_DATE,NO_ZERO_IN_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION', time_zone = '+00:00', group_concat_max_len = 67108864",
            (err) => {
              if (err || statementTimeout === undefined) done(err, conn);
              else setStatementTimeout(conn, statementTimeout, (e) => done(e, conn));
            },
          );
        },
      },
    };
  },
  execute(connection, sql, bindings) {
    return new Promise((resolve, reject) => {
      (connection as MysqlConnection).query(sql, bindings, (err, result) => {
        if (err) reject(err);
        // A statement that returns no rows answers a header (affected rows, insert id), not a list.
        else if (Array.isArray(result)) resolve({ rows: result as Record<string, unknown>[] });
        else {
          const header = result as { insertId?: unknown; affectedRows?: number } | undefined;
          resolve({ rows: [], insertId: header?.insertId, affected: header?.affectedRows });
        }
      });
    });
  },
  lockRows(query) {
    return query.forUpdate();
  },
  writeTransaction() {
    // Under REPEATABLE READ a locking search also locks the gaps it passes: two creates that each replace the
    // (still empty) join rows of their new resource lock the same gap at the end of the join table, then each
    // waits to insert into it, a deadlock (nearly every one that 32 concurrent writers met). READ COMMITTED
    // locks only the rows it finds, as PostgreSQL's default level does; MIXED or ROW binary logging is needed.
    return { isolationLevel: 'read committed' };
  },
  misconfiguration(error) {
    // ER_BINLOG_STMT_MODE_AND_ROW_ENGINE: statement-based logging cannot log InnoDB writes under READ COMMITTED.
    if ((error as { errno?: unknown } | null)?.errno !== 1665) return undefined;
    return "the database's binlog_format is STATEMENT, which cannot log writes made under READ COMMITTED, the isolation level of colapi's write transactions: set binlog_format to MIXED (MariaDB's default) or ROW";
  },
  readColumn(knex, ref) {
    return knex.raw('??', [ref]);
  },
  writeValue(_knex, column, value) {
    return binding(column, value);
  },
  plainValue(column, value) {
    return column.uuidBytes ? binding(column, value) : value;
  },
  filterValue(knex, column, value) {
    // Text compared with an integer column is compared as a double: a key past 2^53 is cast to stay exact.
    if (column.type === 'integer' && typeof value === 'string') return knex.raw('cast(? as signed)', [value]);
    return binding(column, value);
  },
  containment(knex, expr, column, op, value) {
    if (column.type === 'set') {
      const values = value === '' ? [] : value.split(',');
      if (values.length === 0) return knex.raw(op === 'contains' ? '1 = 1' : '1 = 0');
      const each = values.map(() => 'find_in_set(?, ?) > 0').join(op === 'contains' ? ' and ' : ' or ');
      return knex.raw(
        `(${each})`,
        values.flatMap((v) => [v, expr]),
      );
    }
    if (op === 'overlaps') return knex.raw('json_overlaps(?, ?)', [expr, value]);
    // json_contains(target, candidate): whether target holds candidate.
    return knex.raw('json_contains(?, ?)', op === 'contains' ? [expr, value] : [value, expr]);
  },
  decodeValue(column, raw) {
    const common = decodeCommon(column, raw);
    if (common !== undefined) return common;
    switch (column.type) {
      case 'interval':
      case 'number':
        return Number(raw);
      case 'integer':
        return decodeInteger(raw);
      case 'boolean':
        // bit(1) comes as one byte.
        return Buffer.isBuffer(raw) ? raw[0] === 1 : Boolean(raw);
      case 'json':
        return decodeJsonText(raw);
      case 'set':
        return raw === '' ? [] : String(raw).split(',');
      case 'enum':
        return Buffer.isBuffer(raw) ? raw.toString('utf8') : raw;
      case 'uuid':
        if (column.uuidBytes && Buffer.isBuffer(raw) && raw.length === 16) return uuidText(raw);
        // MariaDB's uuid answers in lower case; a char(36) holds what was written (the catalogue serves one in lower case).
        return (Buffer.isBuffer(raw) ? raw.toString('utf8') : String(raw)).toLowerCase();
      case 'string':
        // Text read through exactText (a binary cast) arrives as bytes.
        return Buffer.isBuffer(raw) ? raw.toString('utf8') : raw;
      default:
        return raw;
    }
  },
  averageArgument(knex, expr) {
    // avg of an exact number is a DECIMAL with only 4 more decimals (27.6667); a double gives what the others give.
    return knex.raw('? * 1e0', [expr]);
  },
  like(knex, expr, pattern, mode) {
    // The default collations ignore case and accents. utf8mb4_bin compares exactly, character by character
    // (`like binary` would let `_` match one byte of a multi-byte character); lower() makes ilike fold case only.
    if (mode === 'ilike') return knex.raw('lower(?) like (lower(?) collate utf8mb4_bin)', [expr, pattern]);
    return knex.raw(mode === 'like' ? '? like (? collate utf8mb4_bin)' : '? not like (? collate utf8mb4_bin)', [
      expr,
      pattern,
    ]);
  },
  exactText(knex, expr) {
    // A binary string compares byte by byte: exact, and in code point order for UTF-8.
    return knex.raw('cast(? as binary)', [expr]);
  },
  orderTerm(knex, expr, descending) {
    // MySQL already sorts nulls first ascending and last descending.
    return knex.raw(descending ? '? desc' : '? asc', [expr]);
  },
  now(knex, value, type) {
    if (type === 'date') return knex.raw('CURRENT_DATE');
    if (type === 'time') return knex.raw('CURRENT_TIME(6)');
    return knex.raw(value.fn === 'CURRENT_DATE' ? 'CURRENT_DATE' : 'CURRENT_TIMESTAMP(6)');
  },
  keyList(knex, from, key, type) {
    if (type === 'integer')
      return knex.raw('?', [from.select(knex.raw("group_concat(?? order by ?? separator ',')", [key, key]))]);
    // JSON text built by hand: MySQL's json_arrayagg takes no ORDER BY (MariaDB's does), group_concat does on both.
    const list = "concat('[', coalesce(group_concat(json_quote(cast(?? as char)) order by ?? separator ','), ''), ']')";
    return knex.raw('?', [from.select(knex.raw(list, [key, key]))]);
  },
  decodeKeyList: (raw) => JSON.parse(String(raw)) as string[],
  ddlType: (type) => DDL[type],
  classifyError(error) {
    const errno = (error as { errno?: unknown })?.errno;
    if (typeof errno === 'number' && ERRORS[errno]) return ERRORS[errno];
    const code = (error as { code?: unknown })?.code;
    if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'PROTOCOL_CONNECTION_LOST' || code === 'EPIPE')
      return 'unavailable';
    // mysql2 marks every error that leaves the connection unusable (killed, closed under a query) as fatal.
    if ((error as { fatal?: unknown })?.fatal === true) return 'unavailable';
    return undefined;
  },
  errorPlace: mysqlErrorPlace,
  async emptyTables(knex, tables) {
    // One connection for all of it: foreign_key_checks is a session setting.
    await knex.transaction(async (trx) => {
      await trx.raw('set foreign_key_checks = 0');
      for (const t of tables) await trx.raw('truncate table ??', [t]);
      await trx.raw('set foreign_key_checks = 1');
    });
  },
  async createDatabase(admin, name) {
    await admin.raw('create database ??', [name]);
  },
  async dropDatabase(admin, name) {
    await admin.raw('drop database if exists ??', [name]);
  },
  estimateRows(knex, table) {
    // InnoDB's own estimate (its statistics, refreshed by ANALYZE TABLE): read in microseconds, never a scan.
    return knex.raw(
      'select table_rows as n from information_schema.tables where table_schema = database() and table_name = ?',
      [table],
    );
  },
  async enforcedForeignKeys(knex) {
    // InnoDB's (the only engine that keeps foreign keys), of one column, within the connection's database.
    const [rows] = await knex.raw(`select k.table_name as \`table\`, k.column_name as \`column\`,
        k.referenced_table_name as refTable, k.referenced_column_name as refColumn
      from information_schema.key_column_usage k
      where k.table_schema = database() and k.referenced_table_schema = database()
        and k.referenced_table_name is not null
        and (select count(*) from information_schema.key_column_usage o
          where o.constraint_schema = k.constraint_schema and o.table_name = k.table_name
            and o.constraint_name = k.constraint_name) = 1`);
    return rows as ForeignKey[];
  },
  async replicaLag(knex) {
    // SHOW REPLICA STATUS: MariaDB 10.5.1+ and MySQL 8.0.22+. No row: the server replicates from no one.
    const [rows] = await knex.raw('show replica status');
    const status = (rows as Record<string, unknown>[])[0];
    if (!status) return 0;
    const seconds = status.Seconds_Behind_Master ?? status.Seconds_Behind_Source;
    // NULL: the replication threads are stopped, so how far behind it is cannot be told.
    if (seconds === null || seconds === undefined)
      throw new Error('replication is stopped on this replica (Seconds_Behind_Master is NULL)');
    return Number(seconds) * 1000;
  },
};
