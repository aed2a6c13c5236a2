import type { ColumnSchema } from '@colapi/schema';
import { checkDecimal, checkTimestampTz, formatDateTime, formatTime } from '@colapi/query-ast';

/**
 * What every dialect does with a driver value: null stays null, timestamps and times take the wire form,
 * bytes become base64, a decimal its exact text at the column's scale, an instant UTC with `Z`.
 * Answers `undefined` when the dialect must decide (numbers, booleans, documents differ per driver).
 */
export function decodeCommon(column: ColumnSchema, raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  switch (column.type) {
    case 'datetime':
      return formatDateTime(String(raw));
    case 'time':
      return formatTime(String(raw));
    case 'binary':
      return Buffer.isBuffer(raw) ? raw.toString('base64') : Buffer.from(String(raw), 'latin1').toString('base64');
    case 'decimal': {
      // PostgreSQL and MariaDB print every digit at the column's scale; SQLite hands back a number, which
      // takes the column's scale here (1.5 in a NUMERIC(10,2) is 1.50, as the others print it).
      if (typeof raw === 'string') return raw;
      const checked = checkDecimal({ ...column, precision: undefined }, raw);
      return checked.ok ? checked.value : String(raw);
    }
    case 'datetimetz': {
      const checked = checkTimestampTz(String(raw));
      return checked.ok ? checked.value : String(raw);
    }
    default:
      return undefined;
  }
}

/** An integer as JSON holds it exactly: a number, or its text past 2^53 (64-bit keys and counters). */
export function decodeInteger(raw: unknown): number | string {
  if (typeof raw === 'number' || typeof raw === 'bigint') {
    const n = Number(raw);
    return Number.isSafeInteger(n) ? n : String(raw);
  }
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : String(raw);
}

/** A JSON document a driver handed back as text; text that is no JSON (written around colapi) stays text. */
export function decodeJsonText(raw: unknown): unknown {
  if (typeof raw !== 'string') return Buffer.isBuffer(raw) ? decodeJsonText(raw.toString('utf8')) : raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
