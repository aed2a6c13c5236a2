import type { CollectionSchema, ColumnSchema } from '@colapi/schema';
import { ApiError, type ErrorSource } from './api-error.js';
import { roundFraction } from './round-fraction.js';
import { checkDecimal } from './typed-values.js';
import { coerceValue, shownValue } from './values.js';

export interface WriteValuesOptions {
  /** The names a client may write; default every exposed column but the key. */
  readonly writable?: ReadonlySet<string>;
  /** Builds the error source of a member, e.g. name → `{pointer: '/data/attributes/name'}`. */
  readonly sourceOf: (name: string) => ErrorSource;
  /** A sentence telling what to use instead of a name that is not writable (e.g. the relationship). */
  readonly hint?: (name: string) => string | undefined;
}

/**
 * Checks the field values of a write against a collection: every name must be a writable column, every
 * value fit its type, and null only where the column takes it. Answers the coerced values.
 */
export function decodeWriteValues(
  collection: CollectionSchema,
  input: Readonly<Record<string, unknown>>,
  options: WriteValuesOptions,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    const source = options.sourceOf(name);
    const column = collection.columns.get(name);
    const writable = column && name !== collection.model.key && (!options.writable || options.writable.has(name));
    if (!writable) {
      const why = collection.virtualAttributes.has(name)
        ? `"${name}" is computed and cannot be written`
        : (options.hint?.(name) ?? `"${name}" is not a field of ${collection.name}`);
      throw ApiError.badRequest(why, source);
    }
    if (column.readOnly)
      throw ApiError.badRequest(`"${name}" is computed by the database and cannot be written`, source);
    if (value === null) {
      if (!column.nullable) throw ApiError.badRequest(`"${name}" cannot be null`, source);
      out[name] = null;
      continue;
    }
    let coerced = coerceValue(column, value, { source, path: name });
    // The digits a column keeps, rounded alike on every database (docs/decisions.md).
    const timed = column.type === 'datetime' || column.type === 'time';
    if (timed && column.fractionDigits !== undefined && typeof coerced === 'string')
      coerced = roundFraction(coerced, column.fractionDigits);
    // Counted in code points, as the databases count characters; a text of no more UTF-16 units than that
    // has no more code points either, and is not counted.
    const max = column.maxLength;
    if (max !== undefined && typeof coerced === 'string' && coerced.length > max && [...coerced].length > max) {
      throw ApiError.badRequest(`"${name}" holds at most ${column.maxLength} characters`, source);
    }
    const beyond = beyondSize(column, coerced);
    if (beyond !== undefined) throw ApiError.badRequest(`"${name}": ${shownValue(value)} ${beyond}`, source);
    out[name] = coerced;
  }
  return out;
}

/**
 * Why a number does not fit its column's declared size, or undefined when it fits: an integer beyond the
 * range of its type, a number with more digits before the point than numeric(p,s) holds once rounded to s
 * places, as the database rounds it (checked as the exact decimal it is written as). A `decimal` is held to
 * its precision by coerceValue already.
 */
function beyondSize(column: ColumnSchema, value: unknown): string | undefined {
  if (typeof value !== 'number') return undefined;
  const { minimum, maximum, precision, scale = 0 } = column;
  if (column.type === 'integer' && minimum !== undefined && maximum !== undefined) {
    return value < minimum || value > maximum
      ? `is out of the range the field holds (${minimum} to ${maximum})`
      : undefined;
  }
  if (column.type === 'number' && precision !== undefined && !checkDecimal(column, value).ok) {
    const digits = precision - scale;
    return `has more than ${digits} digit${digits === 1 ? '' : 's'} before the point (numeric(${precision},${scale}))`;
  }
  return undefined;
}
