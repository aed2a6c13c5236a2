import type { ColumnSchema, ColumnType } from '@colapi/schema';
import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import type { Dialect } from '../dialect.js';
import { arrayLiteral, parseArrayLiteral } from './postgres-arrays.js';
import { decodeCommon, decodeInteger } from './decode-common.js';
import { type PgClient, queryExtended } from './postgres-extended-query.js';
import { postgresErrorPlace } from './postgres-error-place.js';
import { scopeStatementTimeout } from './postgres-scoped-timeout.js';

const OID = {
  int8: 20,
  numeric: 1700,
  date: 1082,
  time: 1083,
  timestamp: 1114,
  timestamptz: 1184,
  interval: 1186,
  dateArray: 1182,
};
const asText = (s: string) => s;
/** An int8 as a number while it is exact, past 2^53 as its text. */
const asInteger = (s: string) => {
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : s;
};

/**
 * Temporal values stay text (no time-zone shift, microseconds kept), as do numeric values (every digit; a
 * column of type `number` reads them as numbers) and arrays of dates (parsed by the decoder, not into Dates);
 * int8 becomes a number while exact.
 */
function typeParsers() {
  // pg is an optional peer: loaded only when a PostgreSQL database is opened.
  const pg = createRequire(import.meta.url)('pg') as {
    types: { getTypeParser(oid: number, format?: string): unknown };
  };
  return {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (
        oid === OID.date ||
        oid === OID.time ||
        oid === OID.timestamp ||
        oid === OID.timestamptz ||
        oid === OID.interval ||
        oid === OID.numeric ||
        oid === OID.dateArray
      )
        return asText;
      if (oid === OID.int8) return asInteger;
      return pg.types.getTypeParser(oid, format);
    },
  };
}

const NETWORK: Record<string, string> = {
  inet_contained: '<<',
  inet_contained_or_equal: '<<=',
  inet_contains: '>>',
  inet_contains_or_equal: '>>=',
  inet_not_equal: '<>',
  inet_overlaps: '&&',
};

const DDL: Record<ColumnType, string> = {
  integer: 'integer',
  number: 'double precision',
  string: 'varchar(255)',
  boolean: 'boolean',
  date: 'date',
  time: 'time',
  datetime: 'timestamp without time zone',
  interval: 'interval',
  inet: 'inet',
  json: 'jsonb',
  uuid: 'uuid',
  decimal: 'numeric',
  binary: 'bytea',
  enum: 'text',
  set: 'text[]',
  datetimetz: 'timestamp with time zone',
  array: 'text[]',
};

const ERRORS: Record<string, ReturnType<Dialect['classifyError']>> = {
  '23505': 'unique-violation',
  '23502': 'not-null-violation',
  '23514': 'check-violation',
  '22P02': 'invalid-value',
  '22003': 'out-of-range',
  '22007': 'invalid-value',
  '22008': 'invalid-value',
  '22001': 'invalid-value',
  '22021': 'invalid-value',
  '57014': 'timeout',
  '40001': 'serialization',
  '40P01': 'serialization',
  // insufficient_privilege: the server's role may not do this (a grant missing, or revoked since the start).
  '42501': 'permission-denied',
  '57P01': 'unavailable',
  '57P02': 'unavailable',
  '57P03': 'unavailable',
  '08000': 'unavailable',
  '08003': 'unavailable',
  '08006': 'unavailable',
  '08001': 'unavailable',
  '08004': 'unavailable',
  // A pooler's own failures (PgBouncer: "server conn crashed?", "query_wait_timeout") come as protocol_violation.
  '08P01': 'unavailable',
};

/** Distinct statement texts given a name, per process; past this many, statements run unnamed. */
const NAMED_STATEMENTS = 1000;
/** A text's name, or null for a text that runs unnamed (BEGIN, SET, a statement past the bound). */
const statementNames = new Map<string, string | null>();
/** The connections that name their statements (all, unless prepared statements are off). */
const namingConnections = new WeakSet<object>();

interface PgConnection {
  query(config: unknown, ...rest: unknown[]): unknown;
}

interface PgResult {
  readonly rows?: Record<string, unknown>[];
  readonly rowCount?: number | null;
}

/** The name a statement's text runs under: queries and statements with parameters, up to the bound. */
function statementName(text: string, parameters: number): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined) {
    if (!parameters && !/^\s*select\b/i.test(text)) return undefined;
    if (statementNames.size >= NAMED_STATEMENTS) return undefined;
    statementNames.set(text, (name = `colapi_${statementNames.size + 1}`));
  }
  return name ?? undefined;
}

/**
 * Planning is most of what a small query costs PostgreSQL, and the text of a statement depends only on the
 * shape of a request. A named statement is parsed and planned once per connection and then only bound and
 * run, so each connection names the statements it sends: queries, and statements with parameters (not
 * BEGIN, COMMIT or SET, which take the simple protocol). node-postgres remembers every name a connection
 * prepared and has no way to forget one, hence the bound on distinct texts rather than an eviction.
 * `execute` names the compiler's statements itself; this wrapper names those knex sends (its transactions').
 */
function nameStatements(conn: PgConnection): void {
  namingConnections.add(conn);
  const query = conn.query.bind(conn);
  conn.query = (config, ...rest) => {
    const c = config as { text?: unknown; values?: unknown[]; name?: unknown } | null;
    if (c && typeof c === 'object' && typeof c.text === 'string' && c.name === undefined) {
      const name = statementName(c.text, c.values?.length ?? 0);
      if (name !== undefined) config = { ...c, name };
    }
    return query(config, ...rest);
  };
}

/** Seconds become an interval, text an inet; any other value is stored as it is bound. */
function writeExpression(column: ColumnSchema, value: unknown): string | undefined {
  if (column.type === 'interval' && typeof value === 'number') return 'make_interval(secs => ?)';
  if (column.type === 'inet' && typeof value === 'string') return '?::inet';
  return undefined;
}

/**
 * A checked value as bound: bytes from base64, an array's JSON text as PostgreSQL's array text (the column's
 * type reads it, as it reads the text of an enum, a range or a decimal).
 */
function binding(column: ColumnSchema, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (column.type === 'binary') return Buffer.from(value, 'base64');
  if (column.type === 'array') return arrayLiteral(JSON.parse(value) as unknown[]);
  return value;
}

/** Elements of an array as their JSON values: node-postgres parses some array types, the rest come as text. */
function decodeArray(column: ColumnSchema, raw: unknown): unknown[] {
  const items = Array.isArray(raw) ? (raw as unknown[]) : parseArrayLiteral(String(raw));
  return items.map((v) => {
    if (v === null || typeof v !== 'string') return v;
    if (column.items === 'integer') return decodeInteger(v);
    if (column.items === 'number') return Number(v);
    if (column.items === 'boolean') return v === 't' || v === 'true';
    return v;
  });
}

/** Types read as their text: PostgreSQL's output form (a range, a tsvector, money as its number). */
const readsAsText = (column: ColumnSchema): boolean => column.type === 'string' && column.sqlType !== undefined;

const CONTAINMENT: Record<string, string> = { contains: '@>', contained_by: '<@', overlaps: '&&' };

/** The messages node-postgres gives a query on a connection that died under it or before it. */
const LOST_CONNECTION =
  /Connection terminated|Client has encountered a connection error and is not queryable|Client was closed and is not queryable/;

export const postgres: Dialect = {
  name: 'postgres',
  dbSystem: 'postgresql',
  // `set_config(…, true)` is SET LOCAL: it ends with the transaction, so a pooled connection (PgBouncer in
  // transaction mode too) never carries one request's role or claims into the next.
  localSettings: (knex, settings) =>
    knex.raw(`select ${settings.map(() => 'set_config(?, ?, true)').join(', ')}`, settings.flat()),
  schemes: ['postgres:', 'postgresql:'],
  returning: true,
  foldsHead: true,
  knexConfig(url, options = {}) {
    // The server cancels a statement past statement_timeout itself (57014), and the connection stays usable.
    // Directly it is a startup parameter of every connection; behind a pooler (prepared statements off) it is
    // set per transaction instead, see postgres-scoped-timeout.ts.
    const ms = options.statementTimeout;
    const scoped = ms !== undefined && options.preparedStatements === false;
    const timeout = ms === undefined ? {} : scoped ? { pipeline: true } : { statement_timeout: ms };
    return {
      client: 'pg',
      connection: { connectionString: url, types: typeParsers(), ...timeout } as never,
      pool: {
        min: 0,
        max: 10,
        afterCreate(conn: PgConnection, done: (err: unknown, conn: unknown) => void) {
          if (options.preparedStatements !== false) nameStatements(conn);
          if (scoped) scopeStatementTimeout(conn, ms);
          done(null, conn);
        },
      },
    };
  },
  execute(connection, sql, bindings, planEach) {
    // Named by nameStatements, like every statement of the connection. The callback form, as knex uses it:
    // node-postgres's promise form kept results alive longer (measured in docs/performance.md).
    return new Promise((resolve, reject) => {
      // The empty name is the unnamed statement, planned for the values it is bound with (a generic plan of a
      // scoped count estimates `id >= $1` at a third of the table and walks an index over all of it).
      const naming = namingConnections.has(connection as object);
      const name = planEach ? '' : naming ? statementName(sql, bindings.length) : undefined;
      const answer = (err: unknown, result?: PgResult) => {
        if (err) reject(err);
        else resolve({ rows: result!.rows ?? [], affected: result!.rowCount ?? undefined });
      };
      // Behind a pooler (a connection that does not name), node-postgres's own Query, as its pipelining expects.
      if (naming && name !== undefined) queryExtended(connection as PgClient, name, sql, bindings, answer);
      else (connection as PgConnection).query({ name, text: sql, values: bindings }, answer);
    });
  },
  readColumn(knex, ref, column) {
    if (column.type === 'interval') return knex.raw('extract(epoch from ??)', [ref]);
    if (readsAsText(column)) return knex.raw('??::text', [ref]);
    if (column.sqlType === 'money') return knex.raw('??::numeric', [ref]);
    return knex.raw('??', [ref]);
  },
  writeValue(knex, column, value) {
    const expression = writeExpression(column, value);
    const bound = binding(column, value);
    return expression === undefined ? bound : knex.raw(expression, [bound as Knex.Value]);
  },
  writeExpression,
  filterValue(knex, column, value) {
    // A parameter takes the type of the column it meets: a whole number beyond 32 bits would not fit an integer
    // column and fail, where the other databases simply compare. As bigint it compares with any integer column.
    if (column.type === 'integer' && (typeof value === 'number' || typeof value === 'string'))
      return knex.raw('cast(? as bigint)', [value]);
    return binding(column, value);
  },
  containment(knex, expr, column, op, value) {
    const operator = CONTAINMENT[op]!;
    if (column.type === 'array')
      return knex.raw(`? ${operator} ?::${column.sqlType}`, [expr, arrayLiteral(JSON.parse(value) as unknown[])]);
    // json has no containment of its own: compared as jsonb.
    return knex.raw(`?${column.sqlType === 'json' ? '::jsonb' : ''} ${operator} ?::jsonb`, [expr, value]);
  },
  decodeValue(column, raw) {
    const common = decodeCommon(column, raw);
    if (common !== undefined) return common;
    switch (column.type) {
      case 'interval':
        return Math.round(Number(raw));
      case 'integer':
        return typeof raw === 'number' ? raw : decodeInteger(raw);
      case 'number':
        return typeof raw === 'number' ? raw : Number(raw);
      case 'array':
        return decodeArray(column, raw);
      default:
        return raw;
    }
  },
  like(knex, expr, pattern, mode) {
    const op = mode === 'like' ? 'like' : mode === 'ilike' ? 'ilike' : 'not like';
    return knex.raw(`? ${op} ?`, [expr, pattern]);
  },
  exactText(knex, expr) {
    // The database's collation may be linguistic (en_US…); "C" orders by code point on every deployment.
    return knex.raw('? collate "C"', [expr]);
  },
  orderTerm(knex, expr, descending, nullable = true) {
    if (!nullable) return knex.raw(descending ? '? desc' : '? asc', [expr]);
    return knex.raw(descending ? '? desc nulls last' : '? asc nulls first', [expr]);
  },
  networkCompare(knex, expr, op, value) {
    return knex.raw(`? ${NETWORK[op]} ?::inet`, [expr, value]);
  },
  now(knex, value, type) {
    if (type === 'date') return knex.raw('CURRENT_DATE');
    if (type === 'time') return knex.raw('LOCALTIME');
    return knex.raw(value.fn === 'CURRENT_DATE' ? 'CURRENT_DATE' : 'LOCALTIMESTAMP');
  },
  keyList(knex, from, key, type) {
    // array() keeps the subquery's order. Integers joined into one text: parsing a text[] costs the driver
    // more than splitting a string (docs/performance.md); text keys stay a text[] the driver parses.
    if (type === 'integer') return knex.raw("array_to_string(array(?), ',')", [from.select(key).orderBy(key)]);
    return knex.raw('array(?)', [from.select(knex.raw('cast(?? as text)', [key])).orderBy(key)]);
  },
  decodeKeyList: (raw) => raw as string[],
  // OFFSET 0 is PostgreSQL's fence: a subquery with an offset is neither pulled up nor turned into a join.
  // knex omits a number 0, and takes a raw one (typed as a number only).
  probeEachRow: (knex, subquery) => subquery.offset(knex.raw('0') as unknown as number),
  ddlType: (type) => DDL[type],
  misconfiguration(error) {
    // 42P05: the name exists on this server connection already; 26000: it was prepared on another one.
    const e = error as { code?: unknown; message?: unknown } | null;
    if ((e?.code === '42P05' || e?.code === '26000') && /prepared statement "colapi_\d+"/.test(String(e.message))) {
      return 'a transaction-mode connection pooler (PgBouncer, RDS Proxy, Supavisor) sits in front of PostgreSQL and cannot keep named statements: add prepared_statements=false to the database URL (or preparedStatements: false to connect())';
    }
    return undefined;
  },
  classifyError(error) {
    const code = (error as { code?: unknown })?.code;
    // node-postgres's own errors for a connection the server dropped (terminated, restarted) carry no SQLSTATE.
    if (typeof code !== 'string')
      return LOST_CONNECTION.test(String((error as { message?: unknown })?.message)) ? 'unavailable' : undefined;
    if (code === '23503') {
      const detail = String((error as { detail?: unknown }).detail ?? '');
      return /is still referenced/.test(detail) ? 'foreign-key-referenced' : 'foreign-key-missing';
    }
    if (ERRORS[code]) return ERRORS[code];
    // object_not_in_prerequisite_state, raised where a scan opens a materialized view made WITH NO DATA.
    if (
      code === '55000' &&
      /ExecOpenScanRelation|has not been populated/.test(
        String((error as { routine?: unknown }).routine) + String((error as { message?: unknown }).message),
      )
    )
      return 'not-populated';
    if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EPIPE' || code === 'ETIMEDOUT')
      return 'unavailable';
    return undefined;
  },
  errorPlace: postgresErrorPlace,
  advanceKey(knex, table, key) {
    // Never backwards: a concurrent transaction may hold a number it drew and has not committed yet.
    return knex.raw(
      `select setval(s, greatest(coalesce(pg_sequence_last_value(s), 0), (select coalesce(max(??), 0) from ??), 1))
       from (select pg_get_serial_sequence(?, ?)::regclass as s) q where s is not null`,
      [key, table, `"${table.replace(/"/g, '""')}"`, key],
    );
  },
  async emptyTables(knex, tables) {
    if (tables.length)
      await knex.raw(`truncate ${tables.map(() => '??').join(', ')} restart identity cascade`, [...tables]);
  },
  async createDatabase(admin, name) {
    await admin.raw('create database ??', [name]);
  },
  async dropDatabase(admin, name) {
    // WITH (FORCE): a test's pool may still hold a connection the server has not seen close yet.
    await admin.raw('drop database if exists ?? with (force)', [name]);
  },
  lockRows(query) {
    return query.forUpdate();
  },
  // A division by zero when the condition is false or unknown: the only error plain SQL can raise on demand.
  // The divisor depends on the row, so the planner cannot fold it into a failure of every statement.
  refuseUnless(condition) {
    return `1 / (case when ${condition} then 1 else 0 end)`;
  },
  refused(error) {
    return (error as { code?: unknown } | null)?.code === '22012';
  },
  estimateRows(knex, table) {
    // -1 for a table never vacuumed or analysed: no estimate.
    return knex.raw('select reltuples::bigint as n from pg_class where oid = to_regclass(?)', [table]);
  },
  async enforcedForeignKeys(knex) {
    // Validated (no rows left unchecked by NOT VALID), with its checking triggers enabled, between tables the
    // search path finds by these names.
    const r = await knex.raw(`select c.relname as "table", a.attname as "column", fc.relname as "refTable",
        fa.attname as "refColumn"
      from pg_catalog.pg_constraint con
      join pg_catalog.pg_class c on c.oid = con.conrelid
      join pg_catalog.pg_class fc on fc.oid = con.confrelid
      join pg_catalog.pg_attribute a on a.attrelid = con.conrelid and a.attnum = con.conkey[1]
      join pg_catalog.pg_attribute fa on fa.attrelid = con.confrelid and fa.attnum = con.confkey[1]
      where con.contype = 'f' and con.convalidated and cardinality(con.conkey) = 1
        and pg_catalog.pg_table_is_visible(c.oid) and pg_catalog.pg_table_is_visible(fc.oid)
        and not exists (select 1 from pg_catalog.pg_trigger t where t.tgconstraint = con.oid and t.tgenabled = 'D')`);
    return r.rows;
  },
  async replicaLag(knex) {
    // A standby that has replayed all it received is current, however long ago the primary last wrote; only
    // while WAL waits to be replayed does the age of the last replayed transaction tell the lag.
    const r = await knex.raw(`select case
        when not pg_is_in_recovery() or pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
        else coalesce(extract(epoch from now() - pg_last_xact_replay_timestamp()) * 1000, 0)
      end as lag`);
    return Math.max(0, Number(r.rows[0].lag));
  },
};
