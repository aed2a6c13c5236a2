import type { Knex } from 'knex';
import type { CatalogueReader } from '../catalogue.js';
import { assembleTables, flag, type ColumnRow, type ConstraintRow, type TableRow } from './assemble.js';
import { declaredFraction, withDetail } from './declared-fraction.js';
import { withBinaryUuids } from './mysql-binary-uuids.js';
import { holdsUuids, uuidCandidate } from './mysql-char-uuids.js';
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
    column_default is not null and column_default <> 'NULL' as has_default, extra like '%auto_increment%' as auto_increment, extra like '%GENERATED%' as computed,
    -- The user's privileges on the column, whatever grants them (global, database, table, column, role).
    find_in_set('select', privileges) > 0 as may_select, find_in_set('insert', privileges) > 0 as may_insert,
    find_in_set('update', privileges) > 0 as may_update, ordinal_position as position
  from information_schema.columns
  where table_schema = database()
  order by table_name, ordinal_position`;

/**
 * Primary keys, unique constraints (every unique index is one here) and foreign keys, one row per column: the
 * only constraints key_column_usage lists, told apart by their name (the primary key's is PRIMARY) and target.
 * Not from table_constraints, whose rows MariaDB hides from a user holding only SELECT on the database, or only
 * table grants.
 */
const KEY_COLUMNS = `
  select k.table_name as \`table\`, k.constraint_name as name,
    case when k.constraint_name = 'PRIMARY' then 'PRIMARY KEY' when k.referenced_table_name is not null then 'FOREIGN KEY' else 'UNIQUE' end as type,
    k.column_name as \`column\`, k.referenced_table_name as target, k.referenced_column_name as reference,
    k.referenced_table_schema as target_schema
  from information_schema.key_column_usage k
  where k.table_schema = database()
  order by k.table_name, k.constraint_name, k.ordinal_position`;

/** MariaDB's JSON is longtext with a json_valid check; its check constraints say which columns hold JSON. */
const JSON_CHECKS = `
  select table_name as \`table\`, check_clause as clause
  from information_schema.check_constraints
  where constraint_schema = database() and check_clause like 'json\\_valid(%'`;

/** The user as information_schema's grantee columns write it: 'name'@'host'. */
const ME = `concat('''', substring_index(current_user(), '@', 1), '''@''', substring_index(current_user(), '@', -1), '''')`;

/** Whether the user's own grants, at the level of the server, of this database (a pattern) or of the table, hold a privilege. */
const granted = (privilege: string) => `(
    exists (select 1 from information_schema.user_privileges p where p.grantee = ${ME} and p.privilege_type = '${privilege}')
    or exists (select 1 from information_schema.schema_privileges p
      where p.grantee = ${ME} and p.privilege_type = '${privilege}' and database() like p.table_schema)
    or exists (select 1 from information_schema.table_privileges p where p.grantee = ${ME} and p.privilege_type = '${privilege}'
      and p.table_schema = database() and p.table_name = t.table_name))`;

/**
 * DELETE is no column privilege, so it is read from the grants information_schema shows the user: its own,
 * not those of its roles or of PUBLIC. Likewise whether its SELECT rests on a grant of columns only.
 */
const TABLE_GRANTS = `
  select t.table_name as name, ${granted('DELETE')} as may_delete, ${granted('SELECT')} as table_select,
    exists (select 1 from information_schema.column_privileges p where p.grantee = ${ME} and p.privilege_type = 'SELECT'
      and p.table_schema = database() and p.table_name = t.table_name) as column_select
  from information_schema.tables t
  where t.table_schema = database()`;

interface TableGrantRow {
  readonly name: string;
  readonly may_delete: unknown;
  readonly table_select: unknown;
  readonly column_select: unknown;
}

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

/** How many roles the user has enabled, whose grants information_schema does not show it (MariaDB lists a null one when none); 0 where there are no roles. */
async function enabledRoles(knex: Knex): Promise<number> {
  try {
    return Number(
      rowsOf<{ n: unknown }>(await knex.raw('select count(role_name) as n from information_schema.enabled_roles'))[0]
        ?.n,
    );
  } catch {
    return 0;
  }
}

type MysqlColumnRow = Omit<ColumnRow, 'sqlType' | 'type'> & { sql_type: string; position: unknown };

/**
 * The user's privileges on each table. information_schema shows a user only the columns it holds a privilege
 * on: a gap in their positions, or a SELECT granted on columns only, means some columns cannot be read.
 * DELETE granted through a role is not shown: with a role enabled, DELETE is taken to go with UPDATE.
 */
function withPrivileges(
  tables: readonly TableRow[],
  columns: readonly MysqlColumnRow[],
  grants: readonly TableGrantRow[],
  roles: number,
): TableRow[] {
  const byName = new Map(grants.map((g) => [g.name, g]));
  return tables.map((t) => {
    const own = columns.filter((c) => c.table === t.name);
    const g = byName.get(t.name);
    const gap = own.some((c, i) => Number(c.position) !== i + 1);
    const columnsOnly = flag(g?.column_select) && !flag(g?.table_select);
    const mayDelete = flag(g?.may_delete) || (roles > 0 && own.length > 0 && own.every((c) => flag(c.may_update)));
    return { ...t, may_delete: mayDelete, columns_hidden: gap || columnsOnly };
  });
}

/** MariaDB/MySQL: information_schema, for the database the URL names. */
export const mysqlCatalogue: CatalogueReader = {
  async read(knex: Knex) {
    const [[{ db, role }], tables, columns, keys, json, grants, roles] = await Promise.all([
      knex
        .raw('select database() as db, current_user() as role')
        .then((r) => rowsOf<{ db: string; role: string }>(r) as [{ db: string; role: string }]),
      knex.raw(TABLES).then((r) => rowsOf<TableRow>(r)),
      knex.raw(COLUMNS).then((r) => rowsOf<MysqlColumnRow>(r)),
      knex.raw(KEY_COLUMNS).then((r) => rowsOf<KeyColumnRow>(r)),
      jsonColumns(knex),
      knex.raw(TABLE_GRANTS).then((r) => rowsOf<TableGrantRow>(r)),
      enabledRoles(knex),
    ]);
    // MariaDB/MySQL have no uuid type but MariaDB 10.7's: a char(36) named as an id and holding UUIDs is one.
    const uuids = new Set<string>();
    await Promise.all(
      columns
        .filter((c) => uuidCandidate(c.name, c.sql_type))
        .map(async (c) => {
          if (await holdsUuids(knex, c.table, c.name)) uuids.add(`${c.table}\u0000${c.name}`);
        }),
    );
    const typed: ColumnRow[] = columns.map((c) => {
      const id = `${c.table}\u0000${c.name}`;
      const mapped = json.has(id)
        ? { type: 'json' as const }
        : uuids.has(id)
          ? { type: 'uuid' as const }
          : mysqlType(c.sql_type);
      return { ...c, sqlType: c.sql_type, ...withDetail(mapped, { fractionDigits: declaredFraction(c.sql_type, 0) }) };
    });
    const served = withPrivileges(tables, columns, grants, roles);
    return {
      dialect: 'mysql',
      schema: db,
      tables: withBinaryUuids(assembleTables(served, typed, constraints(keys, db))),
      role,
    };
  },
};
