import type { ModelSchema } from '@colapi/schema';
import { inInt64 } from './typed-values.js';
import { coerceValue } from './values.js';

/** A key value as bound to SQL: a number for an integer key (text past 2^53), else text. */
export type KeyValue = string | number;

/** A client's id read as a key of a model, or why it is none. */
export type ParsedKey = { readonly ok: true; readonly key: KeyValue } | { readonly ok: false; readonly reason: string };

/** The only spelling of an integer id: no sign but `-`, no leading zero, no point, no exponent, no space. */
const CANONICAL_INTEGER = /^(?:0|-?[1-9]\d{0,18})$/;

/**
 * Reads an id a client sent (a URL segment, or a JSON value of a body) as a key of `model`, strictly: one
 * spelling per key, so that the resource answered is always the one named. `1x`, ` 1`, `+1`, `1.0`, `01`,
 * `1e0`, overlong digits, an empty id or one holding NUL name no key. A JSON number is accepted for an
 * integer key only, and only when it is a whole number.
 */
export function parseKey(model: ModelSchema, raw: unknown): ParsedKey {
  const column = model.columns.get(model.key)!;
  if (column.type === 'integer') {
    if (typeof raw === 'number') {
      return Number.isSafeInteger(raw) ? { ok: true, key: raw } : invalid('not a whole number in range');
    }
    if (typeof raw !== 'string' || !CANONICAL_INTEGER.test(raw))
      return invalid('not an integer written in its canonical form');
    const n = Number(raw);
    if (Number.isSafeInteger(n)) return { ok: true, key: n };
    // Past 2^53 a key stays the text it is, every digit kept, within the 64 bits a key column holds.
    return inInt64(raw) ? { ok: true, key: raw } : invalid('out of range');
  }
  if (typeof raw !== 'string') return invalid('not a string');
  if (raw === '' || raw.includes('\u0000')) return invalid('empty or holding a NUL character');
  if (column.type === 'string') {
    return column.maxLength !== undefined && [...raw].length > column.maxLength
      ? invalid('longer than the key column holds')
      : { ok: true, key: raw };
  }
  // Any other key type (a date, say): its value's own rules, and only its canonical spelling.
  try {
    const value = coerceValue(column, raw, { source: {}, path: 'id' });
    return String(value) === raw ? { ok: true, key: raw } : invalid(`not a ${column.type} in its canonical form`);
  } catch {
    return invalid(`not a valid ${column.type}`);
  }
}

const invalid = (reason: string): ParsedKey => ({ ok: false, reason });
