import type { Knex } from 'knex';
import type { CatalogueReader } from '../catalogue.js';
import { assembleTables, type ColumnRow, type ConstraintRow, type TableRow } from './assemble.js';
import { mysqlType } from './mysql-types.js';

/** mysql2 answers `[rows, fields]`. */
const rowsOf = <T>(result: unknown): T[] => (result as [T[], unknown])[0];

// Every name is aliased: MySQL 8 answers information_schema columns in capitals, MariaDB as written.
const TABLES = `
  select table_name as name, case when table_type = 'VIEW' then 'view' else 'table' end as kind
  from information_schema.tables
  where table_schema = database() and table_type in ('BASE TABLE', 'VIEW', 'SYSTEM VERSIONED')`;

const COLUMNS = `
  select table_name as \`table\`, column_name as name, column_type as sql_type, is_nullable = 'YES' as nullable,
    -- MariaDB writes the absent default of a nullable column as NULL, and quotes a text default.
    column_default is not null and column_default <> 'NULL' as has_default, extra like '%auto_increment%' as auto_increment, extra like '%GENERATED%' as computed
  from information_schema.columns
  where table_schema = database()
  order by table_name, ordinal_position`;

/** Primary keys, unique constraints (every unique index is one here) and foreign keys, one row per column. */
const KEY_COLUMNS = `
  select k.table_name as \`table\`, k.constraint_name as name, t.constraint_type as type, k.column_name as \`column\`,
    k.referenced_table_name as target, k.referenced_column_name as reference, k.referenced_table_schema as target_schema
  from information_schema.key_column_usage k
  join information_schema.table_constraints t
    on t.constraint_schema = k.constraint_schema and t.table_name = k.table_name and t.constraint_name = k.constraint_name
  where k.table_schema = database() and t.constraint_type in ('PRIMARY KEY', 'UNIQUE', 'FOREIGN KEY')
  order by k.table_name, k.constraint_name, k.ordinal_position`;

/** MariaDB's JSON is longtext with a json_valid check; its check constraints say which columns hold JSON. */
const JSON_CHECKS = `
  select table_name as \`table\`, check_clause as clause
  from information_schema.check_constraints
  where constraint_schema = database() and check_clause like 'json\\_valid(%'`;

interface KeyColumnRow {
  readonly table: string;
  readonly name: string;
  readonly type: 'PRIMARY KEY' | 'UNIQUE' | 'FOREIGN KEY';
  readonly column: string;
  readonly target: string | null;
  readonly reference: string | null;
  readonly target_schema: string | null;
}

const KINDS = { 'PRIMARY KEY': 'primary', UNIQUE: 'unique', 'FOREIGN KEY': 'foreign' } as const;

/** Folds the per-column rows of each constraint into one row; foreign keys to another database are dropped. */
function constraints(rows: readonly KeyColumnRow[], database: string): ConstraintRow[] {
  const byName = new Map<
    string,
    { table: string; kind: ConstraintRow['kind']; columns: string[]; target: string | null; references: string[] }
  >();
  for (const r of rows) {
    if (r.type === 'FOREIGN KEY' && r.target_schema !== database) continue;
    const id = `${r.table}\u0000${r.name}`;
    let c = byName.get(id);
    if (!c)
      byName.set(id, (c = { table: r.table, kind: KINDS[r.type], columns: [], target: r.target, references: [] }));
    c.columns.push(r.column);
    if (r.reference !== null) c.references.push(r.reference);
  }
  return [...byName.values()];
}

/** The JSON columns of each table, from `json_valid(`column`)` checks. */
async function jsonColumns(knex: Knex): Promise<Set<string>> {
  try {
    const rows = rowsOf<{ table: string; clause: string }>(await knex.raw(JSON_CHECKS));
    return new Set(rows.map((r) => `${r.table}\u0000${/^json_valid\(`(.+)`\)$/.exec(r.clause)?.[1] ?? ''}`));
  } catch {
    // MySQL's check_constraints has no table_name; its JSON is a type of its own and needs none of this.
    return new Set();
  }
}

/** MariaDB/MySQL: information_schema, for the database the URL names. */
export const mysqlCatalogue: CatalogueReader = {
  async read(knex: Knex) {
    const [[{ db }], tables, columns, keys, json] = await Promise.all([
      knex.raw('select database() as db').then((r) => rowsOf<{ db: string }>(r) as [{ db: string }]),
      knex.raw(TABLES).then((r) => rowsOf<TableRow>(r)),
      knex.raw(COLUMNS).then((r) => rowsOf<Omit<ColumnRow, 'sqlType' | 'type'> & { sql_type: string }>(r)),
      knex.raw(KEY_COLUMNS).then((r) => rowsOf<KeyColumnRow>(r)),
      jsonColumns(knex),
    ]);
    const typed: ColumnRow[] = columns.map((c) => {
      const mapped = json.has(`${c.table}\u0000${c.name}`) ? { type: 'json' as const } : mysqlType(c.sql_type);
      return { ...c, sqlType: c.sql_type, ...mapped };
    });
    return { dialect: 'mysql', schema: db, tables: assembleTables(tables, typed, constraints(keys, db)) };
  },
};
