import type { ColumnSchema, ColumnType } from '@colapi/schema';

/**
 * Checks of the value kinds a catalogue finds in real schemas (uuid, exact decimals, binary, enums, sets,
 * timestamps with a zone, arrays, JSON). Each answers the normal form the SQL compiler binds, or a string
 * saying what was expected, for the caller's error. The normal forms are text, so that every dialect binds
 * them alike and two spellings of one value compare equal.
 */

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const DECIMAL = /^([-+])?(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d{1,4}))?$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const TIMESTAMP_TZ =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)$/;

export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly expected: string };
const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const no = (expected: string): Checked<never> => ({ ok: false, expected });

/** A UUID in any letter case, answered in lower case (the form every database prints). */
export function checkUuid(value: unknown): Checked<string> {
  return typeof value === 'string' && UUID.test(value) ? ok(value.toLowerCase()) : no('a UUID');
}

/**
 * An exact decimal, from a string (every digit kept) or a JSON number (as JavaScript prints it), in plain
 * notation without an exponent; with the column's scale, rounded half away from zero to it (as PostgreSQL and
 * MariaDB store it), and refused when its integer digits exceed precision − scale.
 */
export function checkDecimal(column: ColumnSchema, value: unknown): Checked<string> {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  const what = column.precision === undefined ? 'a decimal number' : `a decimal number that fits ${declared(column)}`;
  if (typeof text !== 'string') return no(`${what}, as a string or a number`);
  const m = DECIMAL.exec(text.trim());
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return no(what);
  const negative = m[1] === '-';
  let digits = `${m[2]}${m[3] ?? ''}`;
  let point = m[2]!.length + Number(m[4] ?? 0);
  // Place the point inside the digits, padding with zeros.
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  let whole = digits.slice(0, point).replace(/^0+/, '');
  let fraction = digits.slice(point);
  if (column.scale !== undefined && fraction.length > column.scale) {
    const kept = fraction.slice(0, column.scale);
    const up = fraction.charCodeAt(column.scale) >= 53; /* '5' */
    fraction = kept;
    if (up) [whole, fraction] = increment(whole, fraction);
  }
  if (column.scale !== undefined) fraction = fraction.padEnd(column.scale, '0');
  else fraction = fraction.replace(/0+$/, '');
  if (column.precision !== undefined && whole.length > column.precision - (column.scale ?? 0)) return no(what);
  const zero = /^0*$/.test(whole + fraction);
  const body = `${whole || '0'}${fraction ? `.${fraction}` : ''}`;
  return ok(negative && !zero ? `-${body}` : body);
}

/** Adds one unit of the last fraction digit (or of the units, without a fraction). */
function increment(whole: string, fraction: string): [string, string] {
  const all = `${whole}${fraction}`.split('');
  let i = all.length - 1;
  while (i >= 0 && all[i] === '9') all[i--] = '0';
  if (i < 0) all.unshift('1');
  else all[i] = String(Number(all[i]) + 1);
  const cut = all.length - fraction.length;
  return [all.slice(0, cut).join('').replace(/^0+/, ''), all.slice(cut).join('')];
}

/** `numeric(10,2)` as the error names it. */
export const declared = (column: ColumnSchema): string =>
  `numeric(${column.precision}${column.scale === undefined ? '' : `,${column.scale}`})`;

/** Bytes as standard base64 with its padding (RFC 4648 §4), answered as sent. */
export function checkBase64(value: unknown): Checked<string> {
  return typeof value === 'string' && BASE64.test(value) ? ok(value) : no('binary data in base64 (RFC 4648)');
}

/** One of the column's values, exactly (enum labels are case-sensitive on PostgreSQL). */
export function checkEnum(column: ColumnSchema, value: unknown): Checked<string> {
  const values = column.values ?? [];
  return typeof value === 'string' && values.includes(value) ? ok(value) : no(`one of ${allowed(values)}`);
}

/** A list of the column's values, without repeats, answered in the column's order as text (`a,b`). */
export function checkSet(column: ColumnSchema, value: unknown): Checked<string> {
  const values = column.values ?? [];
  const expected = `a list of distinct values among ${allowed(values)}`;
  if (!Array.isArray(value) || new Set(value).size !== value.length) return no(expected);
  if (!value.every((v) => typeof v === 'string' && values.includes(v))) return no(expected);
  return ok(values.filter((v) => value.includes(v)).join(','));
}

const allowed = (values: readonly string[]): string => values.map((v) => JSON.stringify(v)).join(', ');

/**
 * A timestamp with an offset (`Z`, `+02`, `+0200`, `+02:00`), answered in UTC with `Z` and the fraction
 * to the microsecond, the form colapi answers, so that every spelling of an instant compares equal.
 */
export function checkTimestampTz(value: unknown): Checked<string> {
  const expected = 'a timestamp with a time zone offset (YYYY-MM-DDTHH:MM:SS+HH:MM or Z)';
  const m = typeof value === 'string' ? TIMESTAMP_TZ.exec(value) : null;
  if (!m) return no(expected);
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return no(expected);
  const probe = new Date(0);
  probe.setUTCFullYear(y, mo - 1, d);
  if (probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d) return no(expected);
  const zone = m[8]!.toUpperCase();
  const sign = zone.startsWith('-') ? -1 : 1;
  const [zh, zm] = zone === 'Z' ? [0, 0] : [Number(zone.slice(1, 3)), Number(zone.slice(3).replace(':', '') || 0)];
  if (zh > 15 || zm > 59) return no(expected);
  probe.setUTCHours(h, mi - sign * (zh * 60 + zm), s, 0);
  const fraction = (m[7] ?? '').slice(0, 6).replace(/0+$/, '');
  const iso = probe.toISOString().slice(0, 19);
  if (probe.getUTCFullYear() < 1 || probe.getUTCFullYear() > 9999) return no(expected);
  return ok(`${iso}${fraction ? `.${fraction}` : ''}Z`);
}

/** Any JSON value (objects and lists too), answered as its JSON text. */
export function checkJson(value: unknown): Checked<string> {
  if (value === undefined) return no('a JSON value');
  const text = JSON.stringify(value);
  // PostgreSQL's jsonb refuses \u0000 in strings; refused everywhere so every dialect answers alike.
  return text.includes('\\u0000') ? no('JSON without NUL characters') : ok(text);
}

/** A list whose elements each pass `item`; answered as the JSON text of the normal forms. */
export function checkArray(
  items: ColumnType | undefined,
  value: unknown,
  item: (v: unknown) => Checked<unknown>,
): Checked<string> {
  const expected = `a list of ${items ?? 'value'}s`;
  if (!Array.isArray(value)) return no(expected);
  const out: unknown[] = [];
  for (const v of value) {
    if (v === null) {
      out.push(null);
      continue;
    }
    const c = item(v);
    if (!c.ok) return no(`${expected} (${c.expected} each)`);
    out.push(c.value);
  }
  return ok(JSON.stringify(out));
}

/** Whether canonical integer text fits a signed 64-bit integer (bigint). */
export function inInt64(text: string): boolean {
  const n = BigInt(text);
  return n >= -(2n ** 63n) && n < 2n ** 63n;
}
