import type { ColumnSchema, ColumnType } from '@colapi/schema';
import type { JsonSchema } from '@colapi/wire-format';

// Timestamps and times travel without a zone, so JSON Schema's `date-time` and `time` formats (which demand
// one) would lie; a pattern says exactly what the server reads and writes.
const TIME = '\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,6})?';

const BY_TYPE: Readonly<Record<ColumnType, JsonSchema>> = Object.freeze({
  integer: { type: 'integer' },
  number: { type: 'number' },
  string: { type: 'string' },
  boolean: { type: 'boolean' },
  date: { type: 'string', format: 'date', examples: ['2024-05-31'] },
  time: { type: 'string', pattern: `^${TIME}$`, examples: ['21:30:00'] },
  datetime: {
    type: 'string',
    pattern: `^\\d{4}-\\d{2}-\\d{2}T${TIME}$`,
    description: 'A timestamp without time zone.',
    examples: ['2024-05-31T21:30:00'],
  },
  interval: { type: 'integer', description: 'A duration in whole seconds.' },
  inet: { type: 'string', description: 'A network address, optionally with a prefix length (10.0.0.0/8).' },
  json: { description: 'Any JSON value.' },
  uuid: { type: 'string', format: 'uuid', examples: ['0b6f2d8e-5a3c-4d1e-9f7a-2c4b6e8d0a1f'] },
  decimal: {
    type: 'string',
    pattern: '^-?\\d+(\\.\\d+)?$',
    description: 'An exact decimal number, written as a string so that no digit is lost to a double.',
    examples: ['12.50'],
  },
  binary: { type: 'string', contentEncoding: 'base64', description: 'Bytes in base64 (RFC 4648).' },
  enum: { type: 'string' },
  set: { type: 'array', items: { type: 'string' }, uniqueItems: true },
  datetimetz: {
    type: 'string',
    format: 'date-time',
    description: 'A timestamp with a time zone offset; answered in UTC (`Z`).',
    examples: ['2024-05-31T21:30:00Z'],
  },
  array: { type: 'array' },
});

/** What a column's own description adds to its type's: the values of an enum or a set, an array's items, a decimal's size. */
function refined(column: ColumnSchema, base: JsonSchema): JsonSchema {
  switch (column.type) {
    case 'enum':
      return { ...base, enum: [...(column.values ?? [])] };
    case 'set':
      return { ...base, items: { type: 'string', enum: [...(column.values ?? [])] } };
    case 'array':
      return { ...base, items: { ...BY_TYPE[column.items ?? 'string'] } };
    case 'decimal':
      return column.precision === undefined
        ? base
        : { ...base, description: `${base.description as string} numeric(${column.precision},${column.scale ?? 0}).` };
    default:
      return base;
  }
}

/** A column whose declared size holds integers past 2^53 (a bigint). */
const bigInteger = (column: ColumnSchema): boolean =>
  column.type === 'integer' && column.maximum !== undefined && column.maximum > Number.MAX_SAFE_INTEGER;

/** The schema of a column's value as it appears in responses; null is allowed where the column takes it. */
export function columnSchema(column: ColumnSchema): JsonSchema {
  const base = refined(column, { ...BY_TYPE[column.type], ...(column.readOnly ? { readOnly: true } : {}) });
  if (bigInteger(column)) {
    // A 64-bit integer past 2^53 travels as its digits: a number while exact, else a string.
    const big = {
      anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^-?[0-9]+$' }],
      description: 'A 64-bit integer: a number up to 2^53, its digits as a string beyond.',
    };
    return column.nullable ? { anyOf: [...big.anyOf, { type: 'null' }], description: big.description } : big;
  }
  if (!column.nullable || base.type === undefined) return base;
  if (base.enum !== undefined)
    return { ...base, type: [base.type as string, 'null'], enum: [...(base.enum as unknown[]), null] };
  return { ...base, type: [base.type as string, 'null'] };
}

/** The names a date or time column also accepts on input: the database's current value. */
export const NOW_VALUES = ['CURRENT_TIMESTAMP', 'CURRENT_DATE', 'LOCALTIMESTAMP'] as const;

/**
 * The schema of a value a client may send for a column (writes and filter arguments): a string column
 * carries the length the server enforces on writes (counted in code points, as JSON Schema counts).
 */
export function inputSchema(column: ColumnSchema): JsonSchema {
  const base = columnSchema(column);
  const out =
    column.type === 'string' && column.maxLength !== undefined
      ? { ...base, maxLength: column.maxLength }
      : column.type === 'integer' && column.minimum !== undefined && column.maximum !== undefined && !bigInteger(column)
        ? { ...base, minimum: column.minimum, maximum: column.maximum }
        : base;
  if (column.type === 'date' || column.type === 'time' || column.type === 'datetime') {
    return { anyOf: [out, { enum: [...NOW_VALUES], description: 'Set by the database to its current value.' }] };
  }
  return out;
}

/** A component name OpenAPI accepts (`^[a-zA-Z0-9._-]+$`). */
export function componentName(...parts: string[]): string {
  return parts.map((p) => p.replace(/[^A-Za-z0-9._-]/g, '_')).join('.');
}

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
