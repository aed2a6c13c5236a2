import type { DatabaseKind } from '@colapi/test-fixtures/testing';
import knexFactory, { type Knex } from 'knex';

/**
 * What the database itself says of a schema and its rows, read apart from colapi (catalogue queries and a
 * connection of its own, every value selected as the database's text), for the datasets suite to hold
 * colapi's answers against.
 */

export interface SqlColumn {
  readonly name: string;
  /** The SQL type, lower case, as the database names it; a PostgreSQL domain by its base type, an enum `enum`. */
  readonly type: string;
  readonly notNull: boolean;
  /** Numbered by the database on insert (serial, identity, auto_increment, SQLite's INTEGER PRIMARY KEY). */
  readonly autoIncrement: boolean;
}

export interface SqlForeignKey {
  readonly columns: readonly string[];
  readonly table: string;
  readonly references: readonly string[];
}

export interface SqlTable {
  readonly name: string;
  /** A materialized view is a view. */
  readonly kind: 'table' | 'view';
  /** The partitioned table it is a partition of. */
  readonly partitionOf?: string;
  readonly columns: readonly SqlColumn[];
  readonly primaryKey: readonly string[];
  /** Unique indexes and constraints over plain columns, the primary key's excluded. */
  readonly uniques: readonly (readonly string[])[];
  /** Declared on the table itself (a partition's copies of its parent's are not listed). */
  readonly foreignKeys: readonly SqlForeignKey[];
}

/** How a value is selected so that its text says it exactly: binary as hex, a PostgreSQL array as JSON. */
export type Selection = 'text' | 'hex' | 'json';

/** One database, as the suite reads it. */
export interface SqlSide {
  tables(): Promise<SqlTable[]>;
  /** Rows of a query (`?` placeholders), every value the database's text for it, or null. */
  rows(sql: string, params?: readonly Knex.Value[]): Promise<Record<string, string | null>[]>;
  /** A name, quoted. */
  id(name: string): string;
  /** The expression selecting a column's value as the text a Selection asks for. */
  select(column: string, how: Selection): string;
  close(): Promise<void>;
}

/** Opens a connection of the suite's own to a database. */
export async function openSql(kind: DatabaseKind, url: string): Promise<SqlSide> {
  const open = SIDES[kind];
  if (!open) throw new Error(`no SQL side for ${kind}`);
  return open(url);
}

const SIDES: Readonly<Record<DatabaseKind, (url: string) => Promise<SqlSide>>> = {
  postgres: async (url) => openPostgres(url),
  mysql: async (url) => openMysql(url),
  sqlite: async (url) => openSqlite(url),
};

type Row = Record<string, string | null>;

/** Every value as text: numbers, booleans and the like of catalogue queries too. */
const asText = (rows: readonly Record<string, unknown>[]): Row[] =>
  rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? null : String(v)])));

/** A query's rows through knex, whichever way its driver answers them. */
function rowsOf(knex: Knex, answer: (result: any) => Record<string, unknown>[]) {
  return async (sql: string, params: readonly Knex.Value[] = []) => asText(answer(await knex.raw(sql, [...params])));
}

/** A connection of one session, set up by `setUp` (a time zone) each time the pool opens it. */
function oneSession(config: Knex.Config, setUp?: string): Knex {
  return knexFactory({
    ...config,
    pool: {
      min: 0,
      max: 1,
      ...(setUp
        ? {
            afterCreate: (
              conn: { query: (sql: string, done: (err: unknown) => void) => void },
              done: (err: unknown, conn: unknown) => void,
            ) => conn.query(setUp, (err) => done(err, conn)),
          }
        : {}),
    },
  });
}

const group = <T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> => {
  const out = new Map<string, T[]>();
  for (const r of rows) out.set(key(r), [...(out.get(key(r)) ?? []), r]);
  return out;
};

function openPostgres(url: string): SqlSide {
  // Every value as PostgreSQL writes it (a char(n) padded, a boolean t or f): no type parser in between.
  const connection = { connectionString: url, types: { getTypeParser: () => (text: string) => text } };
  const knex = oneSession({ client: 'pg', connection }, "set timezone = 'UTC'");
  const rows = rowsOf(knex, (r) => r.rows);
  return {
    rows,
    id: (name) => `"${name.replace(/"/g, '""')}"`,
    select: (column, how) =>
      how === 'hex' ? `encode(${column}, 'hex')` : how === 'json' ? `to_json(${column})` : column,
    close: () => knex.destroy(),
    async tables() {
      const [relations, columns, indexes, keys] = await Promise.all([
        rows(`select c.relname as name, c.relkind as kind, p.relname as parent
          from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
          left join pg_catalog.pg_inherits i on i.inhrelid = c.oid and c.relispartition
          left join pg_catalog.pg_class p on p.oid = i.inhparent
          where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v', 'm') order by c.relname`),
        rows(`select c.relname as table_name, a.attnum, a.attname as name, a.attnotnull as not_null,
            case when bt.typtype = 'e' then 'enum'
              else format_type(bt.oid, case when t.typtype = 'd' then t.typtypmod else a.atttypmod end) end as type,
            a.attidentity <> '' or exists (select 1 from pg_catalog.pg_attrdef d where d.adrelid = a.attrelid
              and d.adnum = a.attnum and pg_get_expr(d.adbin, d.adrelid) like 'nextval(%') as auto_increment
          from pg_catalog.pg_attribute a join pg_catalog.pg_class c on c.oid = a.attrelid
          join pg_catalog.pg_namespace n on n.oid = c.relnamespace
          join pg_catalog.pg_type t on t.oid = a.atttypid
          join pg_catalog.pg_type bt on bt.oid = coalesce(nullif(t.typbasetype, 0), t.oid)
          where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v', 'm') and a.attnum > 0
            and not a.attisdropped
          order by c.relname, a.attnum`),
        // Key columns only: a primary key may INCLUDE others (Pagila's actor).
        rows(`select c.relname as table_name, i.indisprimary as is_primary, i.indkey::text as attnums,
            i.indnkeyatts as key_count
          from pg_catalog.pg_index i join pg_catalog.pg_class c on c.oid = i.indrelid
          join pg_catalog.pg_namespace n on n.oid = c.relnamespace
          where n.nspname = current_schema() and i.indisunique and i.indpred is null and i.indexprs is null`),
        rows(`select c.relname as table_name, f.relname as target, con.conkey::text as attnums,
            con.confkey::text as target_attnums
          from pg_catalog.pg_constraint con join pg_catalog.pg_class c on c.oid = con.conrelid
          join pg_catalog.pg_class f on f.oid = con.confrelid
          join pg_catalog.pg_namespace n on n.oid = c.relnamespace
          where con.contype = 'f' and con.conparentid = 0 and n.nspname = current_schema()
          order by c.relname, con.conname`),
      ]);
      const byTable = group(columns, (c) => c.table_name!);
      const names = (table: string, attnums: readonly number[]) =>
        attnums.map((n) => byTable.get(table)?.find((c) => Number(c.attnum) === n)?.name ?? `#${n}`);
      const numbers = (text: string) => text.replace(/[{}]/g, '').split(/[ ,]/).filter(Boolean).map(Number);
      return relations.map((r): SqlTable => {
        const name = r.name!;
        const own = indexes.filter((i) => i.table_name === name);
        const keyColumns = (i: Row) => names(name, numbers(i.attnums!).slice(0, Number(i.key_count)));
        return {
          name,
          kind: r.kind === 'v' || r.kind === 'm' ? 'view' : 'table',
          ...(r.parent ? { partitionOf: r.parent } : {}),
          columns: (byTable.get(name) ?? []).map((c) => ({
            name: c.name!,
            type: c.type!.toLowerCase(),
            notNull: c.not_null === 't',
            autoIncrement: c.auto_increment === 't',
          })),
          primaryKey: own.filter((i) => i.is_primary === 't').flatMap(keyColumns),
          uniques: own.filter((i) => i.is_primary !== 't').map(keyColumns),
          foreignKeys: keys
            .filter((k) => k.table_name === name)
            .map((k) => ({
              columns: names(name, numbers(k.attnums!)),
              table: k.target!,
              references: names(k.target!, numbers(k.target_attnums!)),
            })),
        };
      });
    },
  };
}

function openMysql(url: string): SqlSide {
  const u = new URL(url);
  const knex = oneSession(
    {
      client: 'mysql2',
      connection: {
        host: u.hostname,
        port: Number(u.port || 3306),
        user: decodeURIComponent(u.username),
        password: decodeURIComponent(u.password),
        database: u.pathname.slice(1),
        charset: 'utf8mb4',
      },
    },
    // TIMESTAMP is kept in UTC; colapi reads it in UTC.
    "set time_zone = '+00:00'",
  );
  const rows = rowsOf(knex, (r) => r[0]);
  return {
    rows,
    id: (name) => `\`${name.replace(/`/g, '``')}\``,
    select: (column, how) => (how === 'hex' ? `hex(${column})` : `cast(${column} as char)`),
    close: () => knex.destroy(),
    async tables() {
      const [relations, columns, indexes, keys] = await Promise.all([
        rows(`select table_name as name, table_type as kind from information_schema.tables
          where table_schema = database() order by table_name`),
        rows(`select table_name as table_name, column_name as name, column_type as type, is_nullable as is_nullable,
            extra as extra
          from information_schema.columns where table_schema = database() order by table_name, ordinal_position`),
        rows(`select table_name as table_name, index_name as index_name, column_name as column_name
          from information_schema.statistics
          where table_schema = database() and non_unique = 0 and sub_part is null
          order by table_name, index_name, seq_in_index`),
        rows(`select table_name as table_name, constraint_name as constraint_name, column_name as column_name,
            referenced_table_name as target, referenced_column_name as reference
          from information_schema.key_column_usage
          where table_schema = database() and referenced_table_name is not null
          order by table_name, constraint_name, ordinal_position`),
      ]);
      return relations.map((r): SqlTable => {
        const name = r.name!;
        const own = group(
          indexes.filter((i) => i.table_name === name),
          (i) => i.index_name!,
        );
        const fks = group(
          keys.filter((k) => k.table_name === name),
          (k) => k.constraint_name!,
        );
        return {
          name,
          kind: r.kind === 'VIEW' ? 'view' : 'table',
          columns: columns
            .filter((c) => c.table_name === name)
            .map((c) => ({
              name: c.name!,
              type: c.type!.toLowerCase(),
              notNull: c.is_nullable === 'NO',
              autoIncrement: /auto_increment/i.test(c.extra ?? ''),
            })),
          primaryKey: (own.get('PRIMARY') ?? []).map((i) => i.column_name!),
          uniques: [...own].filter(([index]) => index !== 'PRIMARY').map(([, cs]) => cs.map((c) => c.column_name!)),
          foreignKeys: [...fks.values()].map((cs) => ({
            columns: cs.map((c) => c.column_name!),
            table: cs[0]!.target!,
            references: cs.map((c) => c.reference!),
          })),
        };
      });
    },
  };
}

function openSqlite(url: string): SqlSide {
  const knex = oneSession({
    client: 'better-sqlite3',
    connection: { filename: url.replace(/^sqlite:(\/\/)?/, '') },
    useNullAsDefault: true,
  });
  const rows = rowsOf(knex, (r) => r);
  const pragma = (name: string, arg: string) => rows(`select * from pragma_${name}(?)`, [arg]);
  return {
    rows,
    id: (name) => `"${name.replace(/"/g, '""')}"`,
    select: (column, how) => (how === 'hex' ? `hex(${column})` : `cast(${column} as text)`),
    close: () => knex.destroy(),
    async tables() {
      const relations = await rows(
        `select name, type from sqlite_master where type in ('table', 'view') and name not like 'sqlite\\_%' escape '\\' order by name`,
      );
      return Promise.all(
        relations.map(async ({ name, type }): Promise<SqlTable> => {
          const table = name!;
          // hidden 0: a column; 2, 3: a generated one; 1: a virtual table's hidden column.
          const columns = (await pragma('table_xinfo', table)).filter((c) => c.hidden !== '1');
          const primaryKey = columns
            .filter((c) => Number(c.pk) > 0)
            .sort((a, b) => Number(a.pk) - Number(b.pk))
            .map((c) => c.name!);
          const uniques: string[][] = [];
          for (const i of await pragma('index_list', table)) {
            if (i.unique !== '1' || i.origin === 'pk' || i.partial !== '0') continue;
            const cs = (await pragma('index_info', i.name!)).map((c) => c.name);
            if (cs.every((c) => c !== null)) uniques.push(cs as string[]);
          }
          const fks = group(await pragma('foreign_key_list', table), (k) => k.id!);
          const targetKeys = new Map<string, string[]>();
          for (const [, cs] of fks) {
            const target = cs[0]!.table!;
            if (!targetKeys.has(target))
              targetKeys.set(
                target,
                (await pragma('table_info', target))
                  .filter((c) => Number(c.pk) > 0)
                  .sort((a, b) => Number(a.pk) - Number(b.pk))
                  .map((c) => c.name!),
              );
          }
          return {
            name: table,
            kind: type === 'view' ? 'view' : 'table',
            columns: columns.map((c) => ({
              name: c.name!,
              type: c.type!.toLowerCase(),
              notNull: c.notnull === '1',
              // INTEGER PRIMARY KEY is the rowid: numbered on insert.
              autoIncrement:
                type === 'table' && primaryKey.length === 1 && c.pk === '1' && c.type!.toLowerCase() === 'integer',
            })),
            primaryKey,
            uniques,
            foreignKeys: [...fks.values()].map((cs) => ({
              columns: cs.map((c) => c.from!),
              table: cs[0]!.table!,
              // A key that names no columns refers to the target's primary key.
              references: cs.map((c, i) => c.to ?? targetKeys.get(cs[0]!.table!)![i]!),
            })),
          };
        }),
      );
    },
  };
}
