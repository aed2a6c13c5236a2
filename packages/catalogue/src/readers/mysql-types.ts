import type { ColumnType } from '@colapi/schema';
import type { MappedType } from '../catalogue.js';

/** A MariaDB/MySQL type as `information_schema.columns.column_type` gives it, e.g. `int(10) unsigned`, `varchar(64)`. */
const TYPES: readonly (readonly [RegExp, ColumnType])[] = [
  // BOOLEAN is an alias of tinyint(1), and tinyint(1) is how a boolean is declared on these databases; so is bit(1).
  [/^(tinyint\(1\)( unsigned)?|bit\(1\))$/, 'boolean'],
  [/^(tinyint|smallint|mediumint|int|integer|bigint)(\(\d+\))?( unsigned)?( zerofill)?$/, 'integer'],
  [/^year(\(4\))?$/, 'integer'],
  [/^(float|double|real)(\(\d+(,\d+)?\))?( unsigned)?( zerofill)?$/, 'number'],
  [/^(decimal|numeric)(\(\d+(,\d+)?\))?( unsigned)?( zerofill)?$/, 'decimal'],
  [/^(varchar|char)\(\d+\)$/, 'string'],
  [/^(tinytext|text|mediumtext|longtext)$/, 'string'],
  [/^uuid$/, 'uuid'],
  [/^(tinyblob|blob|mediumblob|longblob|binary\(\d+\)|varbinary\(\d+\))$/, 'binary'],
  [/^json$/, 'json'],
  [/^date$/, 'date'],
  [/^time(\(\d\))?$/, 'time'],
  // timestamp is kept in UTC and read in the session's zone, which the dialect sets to +00:00.
  [/^(datetime|timestamp)(\(\d\))?$/, 'datetime'],
];

/** The quoted values of `enum('a','b')` or `set('a','b')`, a doubled quote standing for one. */
function listed(text: string): string[] {
  return [...text.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!.replace(/''/g, "'").replace(/\\\\/g, '\\'));
}

/** The project's type of a MariaDB/MySQL column, with what it needs; an undefined type for one the project has none for. */
export function mysqlType(columnType: string): MappedType {
  const t = columnType.toLowerCase();
  const list = /^(enum|set)\((.*)\)$/s.exec(columnType);
  if (list) return { type: list[1]!.toLowerCase() as 'enum' | 'set', detail: { values: listed(list[2]!) } };
  const type = TYPES.find(([pattern]) => pattern.test(t))?.[1];
  if (type === 'decimal') {
    const m = /\((\d+)(?:,(\d+))?\)/.exec(t);
    // DECIMAL alone is DECIMAL(10,0).
    return { type, detail: { precision: Number(m?.[1] ?? 10), scale: Number(m?.[2] ?? 0) } };
  }
  const length = type === 'string' ? /^(?:varchar|char)\((\d+)\)$/.exec(t)?.[1] : undefined;
  return length === undefined ? { type } : { type, maxLength: Number(length) };
}
