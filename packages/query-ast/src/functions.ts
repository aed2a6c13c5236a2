import type { CollectionSchema, ColumnType } from '@colapi/schema';
import { ApiError, type ErrorSource } from './api-error.js';
import type { FunctionCall } from './operations.js';
import { shownValue } from './values.js';

export type AggregateName = 'avg' | 'sum' | 'count' | 'min' | 'max';

const NUMERIC: ReadonlySet<ColumnType> = new Set(['integer', 'number', 'interval']);
const ORDERED: ReadonlySet<ColumnType> = new Set([
  'integer',
  'number',
  'interval',
  'string',
  'date',
  'time',
  'datetime',
  'boolean',
]);

/** The SQL functions a client may evaluate, with the column types each applies to. */
export const AGGREGATE_FUNCTIONS: Readonly<Record<AggregateName, (type: ColumnType) => boolean>> = Object.freeze({
  avg: (t) => NUMERIC.has(t),
  sum: (t) => NUMERIC.has(t),
  count: () => true,
  min: (t) => ORDERED.has(t),
  max: (t) => ORDERED.has(t),
});

const isAggregate = (name: string): name is AggregateName => Object.hasOwn(AGGREGATE_FUNCTIONS, name);

/** Checks a list of `{name, field}` function objects against the whitelist and the collection. */
export function parseFunctionCalls(
  json: unknown,
  collection: CollectionSchema,
  source: ErrorSource,
  path: string,
  max = 50,
): FunctionCall[] {
  if (!Array.isArray(json)) throw ApiError.badRequest(`${path} must be a list of {name, field} objects`, source);
  if (json.length > max) throw ApiError.badRequest(`${path} holds more than ${max} functions`, source);
  return json.map((f, i) => {
    const at = `${path}[${i}]`;
    if (typeof f !== 'object' || f === null || Array.isArray(f))
      throw ApiError.badRequest(`${at} must be an object {name, field}`, source);
    const { name, field } = f as Record<string, unknown>;
    if (typeof name !== 'string' || !isAggregate(name.toLowerCase())) {
      throw ApiError.badRequest(
        `${at}.name: ${shownValue(name)} is not one of ${Object.keys(AGGREGATE_FUNCTIONS).join(', ')}`,
        source,
      );
    }
    if (typeof field !== 'string') throw ApiError.badRequest(`${at}.field must name a field`, source);
    const column = collection.columns.get(field);
    if (!column) throw ApiError.badRequest(`${at}.field: "${field}" is not a field of ${collection.name}`, source);
    const fn = name.toLowerCase() as AggregateName;
    if (!AGGREGATE_FUNCTIONS[fn](column.type))
      throw ApiError.badRequest(`${at}: ${fn} does not apply to the ${column.type} field "${field}"`, source);
    return { name: fn, column: field };
  });
}
