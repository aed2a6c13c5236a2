/**
 * Parsing of the date, time and timestamp strings of requests into one normal form per kind, so that equal
 * values compare equal on every dialect (SQLite keeps them as text). Fractions are kept to the microsecond
 * (digits beyond are cut off, up to nanoseconds on input); trailing zeros of a fraction are dropped.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;
const DATETIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?))?(Z|[+-]00:?00)?$/;

function fraction(digits: string | undefined): string {
  const kept = (digits ?? '').slice(0, 6).replace(/0+$/, '');
  return kept ? `.${kept}` : '';
}

export function parseDate(text: string): string | undefined {
  const m = DATE.exec(text);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1) return undefined;
  // Date.UTC reads years 0–99 as 1900–1999; setUTCFullYear takes them as they are.
  const probe = new Date(0);
  probe.setUTCFullYear(y, mo - 1, d);
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d) return undefined;
  return text;
}

export function parseTime(text: string): string | undefined {
  const m = TIME.exec(text);
  if (!m) return undefined;
  const [h, mi, s] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (h > 23 || mi > 59 || s > 59) return undefined;
  return `${m[1]}:${m[2]}:${m[3] ?? '00'}${fraction(m[4])}`;
}

/** A timestamp without zone; `Z` or a zero offset is accepted and dropped, any other offset is refused. */
export function parseDateTime(text: string): string | undefined {
  const m = DATETIME.exec(text);
  if (!m) return undefined;
  const date = parseDate(m[1]!);
  if (!date) return undefined;
  if (!m[2]) return `${date}T00:00:00`;
  const time = parseTime(m[2]);
  return time ? `${date}T${time}` : undefined;
}

/** Normalises a temporal value read from a database driver to the wire form. */
export function formatDateTime(raw: string): string {
  // Most values are whole seconds as drivers write them (`2019-03-04 05:06:07`): only the separator changes.
  if (raw.length === 19 && raw.charCodeAt(10) === 32 /* ' ' */ && raw.indexOf('T') < 0)
    return `${raw.slice(0, 10)}T${raw.slice(11)}`;
  const [date, time = '00:00:00'] = raw.replace(' ', 'T').split('T');
  return `${date}T${formatTime(time)}`;
}

export function formatTime(raw: string): string {
  if (raw.indexOf('.') < 0) return raw;
  const [hms, frac] = raw.split('.');
  return `${hms}${fraction(frac)}`;
}
