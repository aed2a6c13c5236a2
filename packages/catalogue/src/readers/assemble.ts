import type { ColumnType } from '@colapi/schema';
import type {
  CatalogueColumn,
  CatalogueForeignKey,
  CatalogueTable,
  TablePrivileges,
  TypeDetail,
} from '../catalogue.js';
import { declaredSize } from './declared-size.js';

/** The rows every reader brings, in its own words already mapped to these names. */
export interface TableRow {
  readonly name: string;
  readonly kind: 'table' | 'view';
  /** Where the database has privileges: whether the connecting role may delete its rows. */
  readonly may_delete?: unknown;
  /** MariaDB/MySQL: its SELECT may not cover every column (a grant on columns only, or columns hidden from the role). */
  readonly columns_hidden?: unknown;
}

export interface ColumnRow {
  readonly table: string;
  readonly name: string;
  readonly sqlType: string;
  readonly type: ColumnType | undefined;
  readonly maxLength?: number | undefined;
  readonly detail?: TypeDetail | undefined;
  /** Booleans, or 0/1 from MariaDB/MySQL and SQLite. */
  readonly nullable: unknown;
  readonly has_default: unknown;
  readonly auto_increment: unknown;
  readonly computed: unknown;
  /** The connecting role's privileges on it, where the database has privileges. */
  readonly may_select?: unknown;
  readonly may_insert?: unknown;
  readonly may_update?: unknown;
}

export interface ConstraintRow {
  readonly table: string;
  readonly kind: 'primary' | 'unique' | 'foreign';
  readonly columns: readonly string[];
  /** For a foreign key: the table and the columns it refers to. */
  readonly target?: string | null;
  readonly references?: readonly string[] | null;
}

/** Groups the rows of the three catalogue reads by table, into the neutral description. */
export function assembleTables(
  tables: readonly TableRow[],
  columns: readonly ColumnRow[],
  constraints: readonly ConstraintRow[],
): CatalogueTable[] {
  return [...tables]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((t) => {
      const own = constraints.filter((c) => c.table === t.name);
      const columnsOf = columns.filter((c) => c.table === t.name);
      const primaryKey = own.find((c) => c.kind === 'primary')?.columns ?? [];
      const position = (c: ConstraintRow) => columnsOf.findIndex((x) => x.name === c.columns[0]);
      // In the order of their first columns: catalogues list them by name, which the relationship order should not follow.
      const foreignKeys: CatalogueForeignKey[] = own
        .filter((c) => c.kind === 'foreign' && c.target)
        .map((c, i) => ({ c, i }))
        .sort((a, b) => position(a.c) - position(b.c) || a.i - b.i)
        .map(({ c }) => ({ columns: [...c.columns], table: c.target!, references: [...(c.references ?? [])] }));
      const uniques = own.filter((c) => c.kind === 'unique').map((c) => [...c.columns]);
      return {
        name: t.name,
        kind: t.kind,
        columns: columnsOf.map(column),
        primaryKey: [...primaryKey],
        uniques: dedupe(uniques),
        foreignKeys,
        ...(t.may_delete === undefined ? {} : { privileges: tablePrivileges(t, columnsOf) }),
      };
    });
}

function column(c: ColumnRow): CatalogueColumn {
  return {
    name: c.name,
    sqlType: c.sqlType,
    type: c.type,
    nullable: flag(c.nullable),
    hasDefault: flag(c.has_default),
    autoIncrement: flag(c.auto_increment),
    computed: flag(c.computed),
    ...(c.maxLength === undefined || c.maxLength === null ? {} : { maxLength: Number(c.maxLength) }),
    ...(c.detail === undefined ? {} : { detail: c.detail }),
    ...declaredSize(c.sqlType),
    ...(c.may_select === undefined
      ? {}
      : { privileges: { select: flag(c.may_select), insert: flag(c.may_insert), update: flag(c.may_update) } }),
  };
}

/** Which columns the role may read, from each column's privilege and whether some are hidden from it. */
function tablePrivileges(t: TableRow, columns: readonly ColumnRow[]): TablePrivileges {
  const readable = columns.filter((c) => flag(c.may_select)).length;
  const select =
    readable === 0 ? 'none' : readable === columns.length && !flag(t.columns_hidden ?? false) ? 'all' : 'some';
  return { select, delete: flag(t.may_delete) };
}

/** A boolean of the catalogue: true or false, or 1 and 0 (MariaDB/MySQL, SQLite). */
export const flag = (v: unknown): boolean => v === true || Number(v) === 1;

/** A unique constraint and the index behind it may both be listed. */
function dedupe(lists: string[][]): string[][] {
  const seen = new Set<string>();
  return lists.filter((l) => {
    const key = JSON.stringify(l);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
