import type { ColumnType } from '@colapi/schema';

/** A MariaDB/MySQL type as `information_schema.columns.column_type` gives it, e.g. `int(10) unsigned`, `varchar(64)`. */
const TYPES: readonly (readonly [RegExp, ColumnType])[] = [
  // BOOLEAN is an alias of tinyint(1), and tinyint(1) is how a boolean is declared on these databases.
  [/^tinyint\(1\)( unsigned)?$/, 'boolean'],
  [/^(tinyint|smallint|mediumint|int|integer|bigint)(\(\d+\))?( unsigned)?( zerofill)?$/, 'integer'],
  [/^year(\(4\))?$/, 'integer'],
  [/^(float|double|real|decimal|numeric)(\(\d+(,\d+)?\))?( unsigned)?( zerofill)?$/, 'number'],
  [/^(varchar|char)\(\d+\)$/, 'string'],
  [/^(tinytext|text|mediumtext|longtext)$/, 'string'],
  [/^json$/, 'json'],
  [/^date$/, 'date'],
  [/^time(\(\d\))?$/, 'time'],
  // timestamp is kept in UTC and read in the session's zone, which the dialect sets to +00:00.
  [/^(datetime|timestamp)(\(\d\))?$/, 'datetime'],
];

/** The project's type of a MariaDB/MySQL column, with its length limit; undefined for a type the project has none for. */
export function mysqlType(columnType: string): { type: ColumnType | undefined; maxLength?: number } {
  const t = columnType.toLowerCase();
  const type = TYPES.find(([pattern]) => pattern.test(t))?.[1];
  const length = type === 'string' ? /^(?:varchar|char)\((\d+)\)$/.exec(t)?.[1] : undefined;
  return length === undefined ? { type } : { type, maxLength: Number(length) };
}
