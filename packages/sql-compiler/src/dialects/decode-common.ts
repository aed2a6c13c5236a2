import type { ColumnSchema } from '@colapi/schema';
import { formatDateTime, formatTime } from '@colapi/query-ast';

/**
 * What every dialect does with a driver value: null stays null, timestamps and times take the wire form.
 * Answers `undefined` when the dialect must decide (numbers, booleans, bytes differ per driver).
 */
export function decodeCommon(column: ColumnSchema, raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  if (column.type === 'datetime') return formatDateTime(String(raw));
  if (column.type === 'time') return formatTime(String(raw));
  return undefined;
}
