/** The value kinds the wire formats and dialects treat differently. */
export type ColumnType =
  | 'integer'
  | 'number'
  | 'string'
  | 'boolean'
  | 'date'
  | 'time'
  | 'datetime'
  | 'interval'
  | 'inet'
  | 'json'
  | 'uuid'
  | 'decimal'
  | 'binary'
  | 'enum'
  | 'set'
  | 'datetimetz'
  | 'array';

export const COLUMN_TYPES: Readonly<Record<ColumnType, true>> = Object.freeze({
  integer: true,
  number: true,
  string: true,
  boolean: true,
  date: true,
  time: true,
  datetime: true,
  interval: true,
  inet: true,
  json: true,
  uuid: true,
  decimal: true,
  binary: true,
  enum: true,
  set: true,
  datetimetz: true,
  array: true,
});

export interface ColumnSchema {
  readonly name: string;
  readonly type: ColumnType;
  /** False when the database refuses NULL; the id column is never nullable. */
  readonly nullable: boolean;
  /** True for an auto-increment key: clients never send it unless allowed. */
  readonly generated?: boolean;
  /** Most characters a text column holds; writes beyond it are 400 on every dialect (SQLite would keep them). */
  readonly maxLength?: number;
  /** True when the database fills the column on insert (a default): a create need not send it. */
  readonly hasDefault?: boolean;
  /**
   * The column's name in the database, when the API shows it under another `name`; default `name`. Never set
   * on a key column or a column a relationship joins on: those are used by their database names.
   */
  readonly column?: string;
  /** `enum` and `set`: the values the column takes, in the database's order. */
  readonly values?: readonly string[];
  /**
   * `decimal` (and a `number` the database keeps as numeric/decimal): the digits it holds in all and after the
   * point, where the column declares them. A write of more digits before the point is refused naming the field.
   */
  readonly precision?: number;
  readonly scale?: number;
  /**
   * `integer`: the least and greatest values its declared size holds (smallint, int unsigned…); a write beyond
   * them is refused naming the field, before any SQL (PostgreSQL's own refusal names no column).
   */
  readonly minimum?: number;
  readonly maximum?: number;
  /** `array`: the type of its elements. */
  readonly items?: ColumnType;
  /** Served and filtered on, never written: a generated column, a `tsvector`. */
  readonly readOnly?: boolean;
  /**
   * PostgreSQL: the column's own type as `format_type` names it, where a value travels as text and is cast to
   * it (an enum type, a range, a domain, `macaddr`); from the catalogue, never from a client.
   */
  readonly sqlType?: string;
  /**
   * `datetime` and `time`: the fraction digits of a second the column keeps, where fewer than the wire's six
   * (MariaDB's `datetime`, `timestamp(0)`); a written value is rounded to them, half up, on every dialect.
   */
  readonly fractionDigits?: number;
  /**
   * `uuid`: the column keeps a UUID's 16 bytes, not its text (MariaDB/MySQL `binary(16)`): values are bound
   * as those bytes, read back into text, and compared and sorted by them.
   */
  readonly uuidBytes?: boolean;
  /**
   * SQLite, `date`, `datetime` and `time`: how the column's rows spell the value as text where not as the wire
   * does, e.g. `YYYY-MM-DD HH:MM:SS` or `YYYY-MM-DDTHH:MM:SS.SSS` (one `S` per fraction digit always written);
   * found in its rows by the catalogue. Values are written and compared in it, so that text compares alike.
   */
  readonly textForm?: string;
}

/** The name of a column in SQL. */
export function sqlColumn(column: ColumnSchema): string {
  return column.column ?? column.name;
}
