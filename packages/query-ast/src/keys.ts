import type { ColumnSchema, JoinPath, ModelSchema } from '@colapi/schema';
import { formatCompositeId, splitCompositeId } from './composite-id.js';
import { inInt64 } from './typed-values.js';
import { coerceValue } from './values.js';

/**
 * A key value as bound to SQL: a number for an integer key (text past 2^53), else text. A composite key
 * travels as its id's canonical text (compositeId) and is split into its parts where SQL binds it (keyParts).
 */
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
 *
 * A composite key's id is a string of as many parts as the key has columns (compositeId), each read by its
 * column's rules; a text part may be empty there (the separator still shows it).
 */
export function parseKey(model: ModelSchema, raw: unknown): ParsedKey {
  if (model.keyColumns.length === 1) return parsePart(model.columns.get(model.key)!, raw, false);
  if (typeof raw !== 'string') return invalid('not a string');
  const texts = splitCompositeId(raw);
  if (texts === undefined) return invalid('a \\ escapes neither , nor \\');
  if (texts.length !== model.keyColumns.length)
    return invalid(`not ${model.keyColumns.length} parts (${model.keyColumns.join(', ')}) separated by ,`);
  const parts: KeyValue[] = [];
  for (let i = 0; i < texts.length; i++) {
    const column = model.keyColumns[i]!;
    const part = parsePart(model.columns.get(column)!, texts[i], true);
    if (!part.ok) return invalid(`its ${column} part is ${part.reason}`);
    parts.push(part.key);
  }
  return { ok: true, key: formatCompositeId(parts) };
}

/** The values of a key's columns, in key order: `[key]` for a one-column key; for a composite one, its id's parts. */
export function keyParts(model: ModelSchema, key: unknown): KeyValue[] {
  if (model.keyColumns.length === 1) return [key as KeyValue];
  const parsed = parseKey(model, key);
  if (!parsed.ok) throw new Error(`${model.name}: ${String(key)} is no id (${parsed.reason})`);
  const texts = splitCompositeId(String(parsed.key))!;
  return texts.map((t, i) => {
    const part = parsePart(model.columns.get(model.keyColumns[i]!)!, t, true);
    return (part as { key: KeyValue }).key;
  });
}

/** The id of a row whose key columns hold these values: the column's value, or a composite key's id. */
export function rowId(model: ModelSchema, values: Readonly<Record<string, unknown>>): string {
  if (model.keyColumns.length === 1) return String(values[model.key]);
  return formatCompositeId(model.keyColumns.map((c) => values[c]));
}

/**
 * The value a row joins on through `join`: its one own column's, or for a composite foreign key its columns'
 * values as one id (formatCompositeId), null when any of them is null (such a row is related to nothing).
 */
export function joinValue(join: JoinPath, values: Readonly<Record<string, unknown>>): unknown {
  if (join.kind !== 'composite') return values[join.ownColumn];
  const parts = join.ownColumns.map((c) => values[c]);
  return parts.some((p) => p === null || p === undefined) ? null : formatCompositeId(parts);
}

function parsePart(column: ColumnSchema, raw: unknown, emptyText: boolean): ParsedKey {
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
  if (!emptyText) {
    if (raw === '' || raw.includes('\u0000')) return invalid('empty or holding a NUL character');
  } else if (raw.includes('\u0000')) return invalid('holding a NUL character');
  else if (raw === '' && column.type !== 'string') return invalid('empty');
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
