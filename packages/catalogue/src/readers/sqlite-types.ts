import type { ColumnType } from '@colapi/schema';

/**
 * A SQLite column by its declared type. SQLite keeps any value in any column, so the declaration is all the
 * catalogue tells: the names other databases use for dates, times and booleans are read as such, and
 * otherwise SQLite's own affinity rules decide (a name holding INT is an integer, CHAR, CLOB or TEXT text,
 * REAL, FLOA or DOUB a float). A column declared `text` holding dates is text to the catalogue.
 */
const TYPES: readonly (readonly [RegExp, ColumnType])[] = [
  [/^bool(ean)?$/, 'boolean'],
  [/^date$/, 'date'],
  [/^(datetime|timestamp)(\(\d\))?$/, 'datetime'],
  [/^time(\(\d\))?$/, 'time'],
  [/^jsonb?$/, 'json'],
  [/int/, 'integer'],
  [/char|clob|text/, 'string'],
  [/real|floa|doub|^numeric|^decimal/, 'number'],
];

/** The project's type of a SQLite column, with its length limit; undefined for BLOB, no declared type or another name. */
export function sqliteType(declared: string): { type: ColumnType | undefined; maxLength?: number } {
  const t = declared.trim().toLowerCase();
  const type = t === '' ? undefined : TYPES.find(([pattern]) => pattern.test(t))?.[1];
  const length = type === 'string' ? /char\s*\(\s*(\d+)\s*\)$/.exec(t)?.[1] : undefined;
  return length === undefined ? { type } : { type, maxLength: Number(length) };
}
