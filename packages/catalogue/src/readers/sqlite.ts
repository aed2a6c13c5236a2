import type { ColumnType } from '@colapi/schema';
import { textFormDigits, textFormOf } from '@colapi/sql-compiler';
import type { Knex } from 'knex';
import type { CatalogueReader, CatalogueTable } from '../catalogue.js';
import { assembleTables, type ColumnRow, type ConstraintRow, type TableRow } from './assemble.js';
import { declaredFraction, withDetail } from './declared-fraction.js';
import { checkedValues, sqliteType } from './sqlite-types.js';

/** better-sqlite3 answers the rows themselves. */
const rows = async <T>(knex: Knex, sql: string, bindings: readonly string[] = []): Promise<T[]> =>
  (await knex.raw(sql, bindings)) as T[];

interface XInfo {
  readonly name: string;
  readonly type: string;
  readonly notnull: number;
  readonly dflt_value: string | null;
  readonly pk: number;
  /** 0 a column, 1 a hidden column of a virtual table, 2 and 3 generated (virtual, stored). */
  readonly hidden: number;
}

interface ForeignKeyRow {
  readonly id: number;
  readonly table: string;
  readonly from: string;
  /** Null when the key refers to the primary key of `table`. */
  readonly to: string | null;
}

interface IndexRow {
  readonly name: string;
  readonly unique: number;
  readonly origin: string;
  readonly partial: number;
}

/** A catalogue's name as a SQLite identifier (knex's `??` would read a dot in it as a qualifier). */
const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The first rows a column's text form is looked for in, and the values of them it is found from. */
const SCANNED_ROWS = 1000;
const SAMPLED_VALUES = 20;

/**
 * A date or time column's text form (`textFormOf`), from its first non-null values among its first rows: a
 * bounded read however large the table. Its fraction digits are the fewer of the declared ones
 * (`datetime(3)`) and those its rows always write.
 */
async function storedForm(
  knex: Knex,
  table: string,
  column: string,
  declared: string,
  type: ColumnType | undefined,
): Promise<{ textForm?: string; fractionDigits?: number }> {
  if (type !== 'date' && type !== 'datetime' && type !== 'time') return {};
  let values: { v: unknown }[];
  try {
    values = await rows<{ v: unknown }>(
      knex,
      `select v from (select ${quoted(column)} as v from ${quoted(table)} limit ${SCANNED_ROWS}) where v is not null limit ${SAMPLED_VALUES}`,
    );
  } catch {
    // A view over a table dropped since cannot be read: it is described all the same, as before.
    values = [];
  }
  const textForm = textFormOf(
    type,
    values.map((r) => r.v),
  );
  const digits = [
    declaredFraction(declared, undefined),
    textForm === undefined ? undefined : textFormDigits(textForm),
  ].filter((d) => d !== undefined);
  return {
    ...(textForm === undefined ? {} : { textForm }),
    ...(digits.length ? { fractionDigits: Math.min(...digits) } : {}),
  };
}

/** SQLite: the pragmas table_xinfo (table_info with generated columns), foreign_key_list, index_list and index_info. */
export const sqliteCatalogue: CatalogueReader = {
  async read(knex: Knex) {
    // sqlite_ names are SQLite's own (sqlite_sequence, sqlite_stat1).
    const found = await rows<{ name: string; type: 'table' | 'view'; sql: string | null }>(
      knex,
      "select name, type, sql from sqlite_schema where type in ('table', 'view') and name not like 'sqlite\\_%' escape '\\' order by name",
    );
    const tables: TableRow[] = found.map((t) => ({ name: t.name, kind: t.type }));
    const columns: ColumnRow[] = [];
    const constraints: ConstraintRow[] = [];
    const primaryKeys = new Map<string, string[]>();
    const foreign: { table: string; keys: ForeignKeyRow[] }[] = [];
    for (const t of found) {
      const info = (await rows<XInfo>(knex, 'select * from pragma_table_xinfo(?)', [t.name])).filter(
        (c) => c.hidden !== 1,
      );
      const pk = info
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name);
      // INTEGER PRIMARY KEY is the rowid, numbered on insert, except in a WITHOUT ROWID table.
      const rowid = pk.length === 1 && t.type === 'table' && !/without\s+rowid/i.test(t.sql ?? '') ? pk[0] : undefined;
      const checks = checkedValues(t.sql ?? '');
      for (const c of info) {
        const mapped = sqliteType(c.type, checks.get(c.name));
        columns.push({
          table: t.name,
          name: c.name,
          sqlType: c.type,
          ...withDetail(mapped, await storedForm(knex, t.name, c.name, c.type, mapped.type)),
          nullable: c.notnull === 0 && c.name !== rowid,
          has_default: c.dflt_value !== null,
          auto_increment: c.name === rowid && c.type.toLowerCase() === 'integer',
          computed: c.hidden === 2 || c.hidden === 3,
        });
      }
      if (pk.length) {
        primaryKeys.set(t.name, pk);
        constraints.push({ table: t.name, kind: 'primary', columns: pk });
      }
      if (t.type === 'view') continue;
      for (const index of await rows<IndexRow>(knex, 'select * from pragma_index_list(?)', [t.name])) {
        if (!index.unique || index.origin === 'pk' || index.partial) continue;
        const parts = await rows<{ name: string | null }>(
          knex,
          'select name from pragma_index_info(?) order by seqno',
          [index.name],
        );
        // An index over an expression names no column.
        if (parts.every((p) => p.name !== null))
          constraints.push({ table: t.name, kind: 'unique', columns: parts.map((p) => p.name!) });
      }
      foreign.push({
        table: t.name,
        keys: await rows<ForeignKeyRow>(knex, 'select * from pragma_foreign_key_list(?) order by id, seq', [t.name]),
      });
    }
    for (const { table, keys } of foreign) {
      const byId = new Map<number, ForeignKeyRow[]>();
      for (const k of keys) byId.set(k.id, [...(byId.get(k.id) ?? []), k]);
      // SQLite lists its foreign keys last to first; the declaration order is the one to keep.
      for (const parts of [...byId.entries()].sort((a, b) => b[0] - a[0]).map(([, p]) => p)) {
        const target = parts[0]!.table;
        const references = parts.every((p) => p.to !== null)
          ? parts.map((p) => p.to!)
          : (primaryKeys.get(target) ?? []);
        constraints.push({ table, kind: 'foreign', columns: parts.map((p) => p.from), target, references });
      }
    }
    return { dialect: 'sqlite', tables: assembleTables(tables, columns, constraints).map(sixtyFourBitIntegers) };
  },
};

/**
 * SQLite keeps every integer in up to eight bytes, and `INTEGER` (or `INT`) is its own name for that type:
 * the rowid of an `INTEGER PRIMARY KEY` is 64-bit, as are Chinook's `INTEGER` columns. Those two names take
 * SQLite's whole range, not the 32 bits they mean on PostgreSQL and MariaDB. A name that states a size
 * (`SMALLINT`, `TINYINT`, `BIGINT`…) is still held to it, as the other databases hold it.
 */
function sixtyFourBitIntegers(table: CatalogueTable): CatalogueTable {
  if (!table.columns.some(sqliteInteger)) return table;
  return {
    ...table,
    columns: table.columns.map((c) => (sqliteInteger(c) ? { ...c, minimum: -(2 ** 63), maximum: 2 ** 63 - 1 } : c)),
  };
}

const sqliteInteger = (c: CatalogueTable['columns'][number]) =>
  c.type === 'integer' && c.minimum !== undefined && /^\s*(integer|int)\s*(\(\s*\d+\s*\))?\s*$/i.test(c.sqlType);
