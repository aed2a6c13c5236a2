import type { ColumnSchema } from '@colapi/schema';
import { ApiError, type ErrorSource } from './api-error.js';
import { canonicalInet } from './inet-address.js';
import type { NowValue, ScalarValue } from './filter.js';
import { parseDate, parseDateTime, parseTime } from './temporal.js';
import {
  checkArray,
  checkBase64,
  checkDecimal,
  checkEnum,
  checkJson,
  checkSet,
  checkTimestampTz,
  checkUuid,
  inInt64,
  type Checked,
} from './typed-values.js';

const NOW_NAMES = new Set(['CURRENT_TIMESTAMP', 'CURRENT_DATE', 'LOCALTIMESTAMP']);
const BIG_INTEGER = /^-?[1-9]\d{15,18}$/;
const NUMERIC = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

export interface ValueContext {
  /** Where the value came from, for the error object. */
  readonly source: ErrorSource;
  /** A human path to the value, e.g. `filter[objects][0].val`. */
  readonly path: string;
}

/**
 * Any value a client sent, as an error detail may quote it: JSON, cut at 60 characters. Never String(): an
 * object such as {"toString": ""} cannot be converted to a string and would turn a 400 into a 500.
 */
export function shownValue(value: unknown): string {
  // JSON.stringify writes Infinity (a JSON number too large, 1e999) as null, which would mislead.
  const shown = typeof value === 'number' && !Number.isFinite(value) ? `${value}` : JSON.stringify(value);
  const text = shown ?? typeof value;
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function fail(column: ColumnSchema, value: unknown, expected: string, ctx: ValueContext): never {
  throw ApiError.badRequest(
    `${ctx.path}: ${shownValue(value)} is not ${expected} (field "${column.name}")`,
    ctx.source,
  );
}

function toNumber(value: unknown): number | undefined {
  // "1e999" is numeric text whose number is Infinity, which no column stores alike (MySQL refuses the SQL).
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && NUMERIC.test(value.trim())
        ? Number(value)
        : undefined;
  return n !== undefined && Number.isFinite(n) ? n : undefined;
}

/**
 * Checks one client value against its column's type and returns it in the form the SQL compiler binds.
 * Null is not handled here: callers decide what null means where they accept it.
 */
export function coerceValue(column: ColumnSchema, value: unknown, ctx: ValueContext): ScalarValue {
  switch (column.type) {
    case 'integer':
    case 'interval': {
      // An integer past 2^53 keeps every digit as text (64-bit keys and counters).
      if (column.type === 'integer' && typeof value === 'string' && BIG_INTEGER.test(value) && inInt64(value))
        return value;
      const n = toNumber(value);
      if (n === undefined || !Number.isSafeInteger(n)) {
        fail(column, value, column.type === 'interval' ? 'a whole number of seconds' : 'an integer', ctx);
      }
      return n;
    }
    case 'number': {
      const n = toNumber(value);
      if (n === undefined) fail(column, value, 'a number', ctx);
      return n;
    }
    case 'boolean': {
      if (value === true || value === 1 || value === 'true' || value === '1') return true;
      if (value === false || value === 0 || value === 'false' || value === '0') return false;
      return fail(column, value, 'a boolean', ctx);
    }
    case 'date':
    case 'time':
    case 'datetime': {
      if (typeof value !== 'string') return fail(column, value, `a ${column.type} string`, ctx);
      if (NOW_NAMES.has(value)) return { kind: 'now', fn: value } as NowValue;
      const parsed =
        column.type === 'date' ? parseDate(value) : column.type === 'time' ? parseTime(value) : parseDateTime(value);
      if (parsed === undefined) {
        const form = { date: 'YYYY-MM-DD', time: 'HH:MM:SS', datetime: 'YYYY-MM-DDTHH:MM:SS' }[column.type];
        return fail(column, value, `a valid ${column.type} (${form})`, ctx);
      }
      return parsed;
    }
    case 'inet': {
      // PostgreSQL's own inet input rules on every dialect (`192.168.1/24` included), in its output form, so
      // that SQLite and MariaDB store and compare what PostgreSQL would.
      const canonical = typeof value === 'string' ? canonicalInet(value) : undefined;
      return canonical ?? fail(column, value, 'a network address', ctx);
    }
    case 'uuid':
      return checked(column, value, checkUuid(value), ctx);
    case 'decimal':
      return checked(column, value, checkDecimal(column, value), ctx);
    case 'binary':
      return checked(column, value, checkBase64(value), ctx);
    case 'enum':
      return checked(column, value, checkEnum(column, value), ctx);
    case 'set':
      return checked(column, value, checkSet(column, value), ctx);
    case 'datetimetz':
      return checked(column, value, checkTimestampTz(value), ctx);
    case 'array': {
      const item = { ...column, type: column.items ?? 'string', nullable: true };
      const each = (v: unknown): Checked<unknown> => {
        try {
          const c = coerceValue(item, v, ctx);
          return typeof c === 'object' ? { ok: false, expected: 'a value' } : { ok: true, value: c };
        } catch {
          return { ok: false, expected: `a ${item.type}` };
        }
      };
      return checked(column, value, checkArray(column.items, value, each), ctx);
    }
    case 'json':
      return checked(column, value, checkJson(value), ctx);
    case 'string': {
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      if (typeof value !== 'string') return fail(column, value, 'a string', ctx);
      // PostgreSQL cannot store NUL in text; refuse it everywhere so every dialect answers alike.
      if (value.includes('\u0000')) return fail(column, value, 'a string without NUL characters', ctx);
      return value;
    }
  }
}

function checked(column: ColumnSchema, value: unknown, result: Checked<string>, ctx: ValueContext): string {
  return result.ok ? result.value : fail(column, value, result.expected, ctx);
}

/** A LIKE pattern: any string, NUL excepted, whose last backslash (the escape character) escapes something. */
export function coercePattern(value: unknown, ctx: ValueContext, field?: string): string {
  const of = field === undefined ? '' : ` (field "${field}")`;
  if (typeof value !== 'string' || value.includes('\u0000')) {
    throw ApiError.badRequest(`${ctx.path}: a like pattern must be a string without NUL characters${of}`, ctx.source);
  }
  if (/\\*$/.exec(value)![0].length % 2 === 1) {
    throw ApiError.badRequest(
      `${ctx.path}: a like pattern must not end with a lone backslash; write \\\\ for a backslash${of}`,
      ctx.source,
    );
  }
  return value;
}
