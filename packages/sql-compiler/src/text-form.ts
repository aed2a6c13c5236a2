import type { ColumnSchema, ColumnType } from '@colapi/schema';

/**
 * The text forms of dates and times in a SQLite column (ColumnSchema.textForm). A form is a pattern:
 * `YYYY-MM-DD`, then for a time `T` or a space and `HH:MM:SS` (a `time` column: `HH:MM:SS` alone), then `.`
 * and one `S` per fraction digit where every value writes the same number of them. Without `.S…`, a fraction
 * is written only when not zero, without trailing zeros, as on the wire: such text sorts as its values do.
 */

/** The wire's own forms, which need no `textForm`. */
const WIRE_FORMS: Partial<Record<ColumnType, string>> = {
  date: 'YYYY-MM-DD',
  datetime: 'YYYY-MM-DDTHH:MM:SS',
  time: 'HH:MM:SS',
};

const STORED = /^(?:(\d{4}-\d{2}-\d{2})(?:([T ])(\d{2}:\d{2}:\d{2}))?|(\d{2}:\d{2}:\d{2}))(?:\.(\d{1,9}))?$/;

/** The form of one stored value, with its fraction digits apart; undefined for anything else (a number, a blob). */
function formOfValue(stored: unknown): { base: string; digits: number } | undefined {
  const m = typeof stored === 'string' ? STORED.exec(stored) : null;
  if (!m) return undefined;
  const base = m[4] !== undefined ? 'HH:MM:SS' : m[2] !== undefined ? `YYYY-MM-DD${m[2]}HH:MM:SS` : 'YYYY-MM-DD';
  // A fraction needs a time (`2024-01-02.5` is no date).
  if (m[5] !== undefined && base === 'YYYY-MM-DD') return undefined;
  return { base, digits: m[5]?.length ?? 0 };
}

/** Which stored forms a column of a type may hold: its own parts; a date may be written with a midnight time. */
function fits(type: ColumnType, base: string): boolean {
  if (type === 'datetime') return base.length > 10 && base.startsWith('YYYY');
  if (type === 'date') return base.startsWith('YYYY');
  return type === 'time' && base === 'HH:MM:SS';
}

/**
 * The form some stored values of a column share, when it is not the wire's: undefined when they are in the
 * wire's form, in no form of the type, in more than one form, or when there are none. Every value must have
 * the same fraction digits for a fixed count; otherwise fractions are variable, as on the wire.
 */
export function textFormOf(type: ColumnType, stored: readonly unknown[]): string | undefined {
  const forms = stored.map(formOfValue);
  const first = forms[0];
  if (first === undefined || !fits(type, first.base)) return undefined;
  if (forms.some((f) => f === undefined || f.base !== first.base)) return undefined;
  const fixed = first.digits > 0 && forms.every((f) => f!.digits === first.digits);
  const form = fixed ? `${first.base}.${'S'.repeat(first.digits)}` : first.base;
  return form === WIRE_FORMS[type] ? undefined : form;
}

/** The fraction digits a fixed form always writes; undefined where it writes them as the wire does. */
export function textFormDigits(form: string): number | undefined {
  const dot = form.indexOf('.');
  return dot < 0 ? undefined : form.length - dot - 1;
}

/** A checked wire value (`YYYY-MM-DD`, `YYYY-MM-DDTHH:MM:SS[.f]`, `HH:MM:SS[.f]`) spelt in a column's form. */
export function toTextForm(form: string, type: ColumnType, wire: string): string {
  const date = type === 'time' ? '' : wire.slice(0, 10);
  const time = type === 'datetime' ? wire.slice(11, 19) : type === 'time' ? wire.slice(0, 8) : '00:00:00';
  const dot = wire.indexOf('.');
  const fraction = dot < 0 ? '' : wire.slice(dot + 1);
  const digits = textFormDigits(form);
  // Never cut: a write is rounded to the column's digits before, and a filter value with more digits must
  // compare as the longer text it is (`.1234` is above `.123` and below `.124`).
  const kept = digits === undefined ? (fraction ? `.${fraction}` : '') : `.${fraction.padEnd(digits, '0')}`;
  if (!form.startsWith('YYYY')) return `${time}${kept}`;
  if (!form.includes('HH')) return date;
  return `${date}${form.charAt(10)}${time}${kept}`;
}

/** A checked value as a column with a `textForm` stores and compares it; any other value as it is. */
export function inTextForm(column: ColumnSchema, value: unknown): unknown {
  if (column.textForm === undefined || typeof value !== 'string' || WIRE_FORMS[column.type] === undefined) return value;
  return toTextForm(column.textForm, column.type, value);
}
