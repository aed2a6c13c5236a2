import type { ColumnType } from '@colapi/schema';
import type { MappedType } from '../catalogue.js';

/**
 * A SQLite column by its declared type. SQLite keeps any value in any column, so the declaration is all the
 * catalogue tells: the names other databases use for dates, times, booleans, UUIDs and exact decimals are read
 * as such, and otherwise SQLite's own affinity rules decide (a name holding INT is an integer, CHAR, CLOB or
 * TEXT text, REAL, FLOA or DOUB a float, BLOB or no type bytes). A column declared `text` holding dates is text
 * to the catalogue.
 */
const TYPES: readonly (readonly [RegExp, ColumnType])[] = [
  [/^bool(ean)?$/, 'boolean'],
  [/^date$/, 'date'],
  [/^(datetime|timestamp)(\(\d\))?$/, 'datetime'],
  [/^time(\(\d\))?$/, 'time'],
  [/^jsonb?$/, 'json'],
  [/^uuid$/, 'uuid'],
  [/^(numeric|decimal)\s*\(\s*\d+\s*(,\s*\d+\s*)?\)$/, 'decimal'],
  [/int/, 'integer'],
  [/char|clob|text/, 'string'],
  [/blob/, 'binary'],
  [/real|floa|doub|^numeric|^decimal/, 'number'],
];

/**
 * The project's type of a SQLite column; undefined for no declared type or another name. `values` are those of
 * a `CHECK (column IN (…))` the table declares for it, which makes it an enum.
 */
export function sqliteType(declared: string, values?: readonly string[]): MappedType {
  const t = declared.trim().toLowerCase();
  const type = t === '' ? undefined : TYPES.find(([pattern]) => pattern.test(t))?.[1];
  if (type === 'string' && values !== undefined) return { type: 'enum', detail: { values: [...values] } };
  if (type === 'decimal') {
    const m = /\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)$/.exec(t)!;
    return { type, detail: { precision: Number(m[1]), scale: Number(m[2] ?? 0) } };
  }
  const length = type === 'string' ? /char\s*\(\s*(\d+)\s*\)$/.exec(t)?.[1] : undefined;
  return length === undefined ? { type } : { type, maxLength: Number(length) };
}

/**
 * The text values of each `CHECK (<column> IN ('a', 'b'))` in a table's SQL, by column name (bare, or quoted
 * with "", ``, []), as SQLite schemas declare an enum. Only a check of exactly that form counts.
 */
export function checkedValues(sql: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const pattern =
    /check\s*\(\s*(?:"((?:[^"]|"")+)"|`([^`]+)`|\[([^\]]+)\]|([A-Za-z_][A-Za-z0-9_]*))\s+in\s*\(((?:\s*'(?:[^']|'')*'\s*,?)+)\)\s*\)/gi;
  for (const m of sql.matchAll(pattern)) {
    const name = (m[1]?.replace(/""/g, '"') ?? m[2] ?? m[3] ?? m[4])!;
    const values = [...m[5]!.matchAll(/'((?:[^']|'')*)'/g)].map((v) => v[1]!.replace(/''/g, "'"));
    out.set(name, values);
  }
  return out;
}
