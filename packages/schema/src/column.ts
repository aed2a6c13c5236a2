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
  | 'json';

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
}

/** The name of a column in SQL. */
export function sqlColumn(column: ColumnSchema): string {
  return column.column ?? column.name;
}
