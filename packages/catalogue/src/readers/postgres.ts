import type { Knex } from 'knex';
import type { CatalogueReader, CatalogueTable } from '../catalogue.js';
import { assembleTables, type ColumnRow, type ConstraintRow, type TableRow } from './assemble.js';
import { declaredFraction, withDetail } from './declared-fraction.js';
import { columnNames as names } from './pg-column-names.js';
import { withPartitionsAndViewKeys } from './postgres-extras.js';
import { postgresPartitions } from './postgres-partitions.js';
import { postgresViewKeys } from './postgres-view-keys.js';
import { postgresType } from './postgres-types.js';

/** node-postgres answers `{ rows }`. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * Relations served: ordinary and partitioned tables; views and materialized views, read-only. Partitions are
 * reached through their parent. The privilege functions are of the connecting role (its memberships and PUBLIC
 * included) and take no lock.
 */
const TABLES = `
  select c.relname as name, case when c.relkind in ('r', 'p') then 'table' else 'view' end as kind,
    has_table_privilege(c.oid, 'DELETE') as may_delete
  from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  where n.nspname = ? and c.relkind in ('r', 'p', 'v', 'm') and not c.relispartition
  order by c.relname`;

/**
 * A serial column owns its sequence. (Its default, `nextval(…)`, would say so too, but printing a default with
 * pg_get_expr takes a lock on the table: a reload would wait behind a migration's.)
 */
const OWNED_SEQUENCE = `select 1 from pg_catalog.pg_depend dep join pg_catalog.pg_class s on s.oid = dep.objid
    where dep.classid = 'pg_catalog.pg_class'::regclass and s.relkind = 'S' and dep.refclassid = 'pg_catalog.pg_class'::regclass
      and dep.refobjid = a.attrelid and dep.refobjsubid = a.attnum and dep.deptype = 'a'`;

/** A domain is read as its base type, with the domain's own length. Nothing here locks a table. */
const COLUMNS = `
  select c.relname as "table", a.attname as name,
    format_type(coalesce(nullif(t.typbasetype, 0), a.atttypid), case when t.typtype = 'd' then t.typtypmod else a.atttypmod end) as sql_type,
    not a.attnotnull and not (t.typtype = 'd' and t.typnotnull) as nullable,
    a.atthasdef as has_default,
    a.attidentity <> '' or exists (${OWNED_SEQUENCE}) as auto_increment,
    a.attgenerated <> '' as computed,
    has_column_privilege(c.oid, a.attnum, 'SELECT') as may_select,
    -- A serial column's default is nextval() of its sequence, which needs USAGE (or UPDATE) on it; an identity column's does not.
    has_column_privilege(c.oid, a.attnum, 'INSERT')
      -- (The case keeps the privilege test off the rows of other kinds a plan may meet first.)
      and not exists (${OWNED_SEQUENCE} and case when s.relkind = 'S' then not has_sequence_privilege(s.oid, 'USAGE, UPDATE') end) as may_insert,
    has_column_privilege(c.oid, a.attnum, 'UPDATE') as may_update,
    bt.typtype as type_kind, et.typtype as element_kind,
    (select json_agg(e.enumlabel order by e.enumsortorder) from pg_catalog.pg_enum e
      where e.enumtypid = case when bt.typtype = 'e' then bt.oid else et.oid end) as enum_values
  from pg_catalog.pg_attribute a
  join pg_catalog.pg_class c on c.oid = a.attrelid
  join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  join pg_catalog.pg_type t on t.oid = a.atttypid
  join pg_catalog.pg_type bt on bt.oid = coalesce(nullif(t.typbasetype, 0), t.oid)
  left join pg_catalog.pg_type et on et.oid = bt.typelem and bt.typcategory = 'A'
  where n.nspname = ? and c.relkind in ('r', 'p', 'v', 'm') and not c.relispartition and a.attnum > 0 and not a.attisdropped
  order by c.relname, a.attnum`;

/**
 * Primary keys and unique indexes (a unique constraint makes one; a unique index may stand alone) over plain
 * columns and without a predicate, by their key columns only (`indnkeyatts`: an `INCLUDE` column is carried
 * by the index, not part of what is unique, as in Pagila's `actor`); then foreign keys, with the table they refer to (in the same schema only:
 * a table of another schema is not served).
 */
const CONSTRAINTS = `
  select c.relname as "table", case when i.indisprimary then 'primary' else 'unique' end as kind,
    ${names('i.indrelid', 'i.indkey::int2[]', 'i.indnkeyatts')} as columns, null as target, null as "references", ic.relname as constraint_name
  from pg_catalog.pg_index i
  join pg_catalog.pg_class c on c.oid = i.indrelid
  join pg_catalog.pg_class ic on ic.oid = i.indexrelid
  join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  where n.nspname = ? and i.indisunique and i.indexprs is null and i.indpred is null
  union all
  select c.relname, 'foreign', ${names('con.conrelid', 'con.conkey')}, fc.relname, ${names('con.confrelid', 'con.confkey')}, con.conname
  from pg_catalog.pg_constraint con
  join pg_catalog.pg_class c on c.oid = con.conrelid
  join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  join pg_catalog.pg_class fc on fc.oid = con.confrelid
  -- A foreign key to a partitioned table is copied for each partition (conparentid names the original).
  where n.nspname = ? and con.contype = 'f' and fc.relnamespace = n.oid and con.conparentid = 0
  order by 1, 2, 6`;

interface PgColumnRow extends Omit<ColumnRow, 'type' | 'maxLength'> {
  readonly sql_type: string;
  readonly type_kind: string;
  readonly element_kind: string | null;
  readonly enum_values: string[] | null;
}

/** PostgreSQL: pg_catalog, for one schema (`public` unless chosen). */
export const postgresCatalogue: CatalogueReader = {
  defaultSchema: 'public',
  async read(knex: Knex, schema = 'public') {
    const [[{ role }], tables, columns, constraints, partitions, viewKeys] = await Promise.all([
      knex.raw('select current_user as role').then((r) => rowsOf<{ role: string }>(r) as [{ role: string }]),
      knex.raw(TABLES, [schema]).then((r) => rowsOf<TableRow>(r)),
      knex.raw(COLUMNS, [schema]).then((r) => rowsOf<PgColumnRow>(r)),
      knex.raw(CONSTRAINTS, [schema, schema]).then((r) => rowsOf<ConstraintRow>(r)),
      postgresPartitions(knex, schema),
      postgresViewKeys(knex, schema),
    ]);
    const typed: ColumnRow[] = columns.map(({ type_kind, element_kind, enum_values, ...c }) => ({
      ...c,
      sqlType: c.sql_type,
      ...withDetail(postgresType(c.sql_type, { kind: type_kind, elementKind: element_kind, enumValues: enum_values }), {
        fractionDigits: declaredFraction(c.sql_type, 6),
      }),
    }));
    const out: CatalogueTable[] = withPartitionsAndViewKeys(
      assembleTables(tables, typed, constraints),
      partitions,
      viewKeys,
    );
    return { dialect: 'postgres', schema, tables: out, role };
  },
};
