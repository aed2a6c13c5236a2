import type { ColumnSchema, ColumnType } from '@colapi/schema';
import { type BinaryOperator, CONTAINMENT_OPERATORS, LIKE_OPERATORS, NETWORK_OPERATORS } from './operators.js';

const EQUALITY: ReadonlySet<BinaryOperator> = new Set(['eq', 'ne', 'in', 'not_in']);

/**
 * The comparisons each type means something for, beyond the null checks every type has. Types missing here
 * take equality and ordering (numbers, text, dates, UUIDs). An enum orders differently per database (its
 * declaration order on PostgreSQL, its text elsewhere), bytes and documents do not order for users at all.
 */
const ONLY: Partial<Record<ColumnType, { readonly ops: ReadonlySet<BinaryOperator>; readonly text: string }>> = {
  enum: { ops: EQUALITY, text: 'equality and in' },
  binary: { ops: EQUALITY, text: 'equality and in' },
  json: { ops: new Set(['contains', 'contained_by']), text: 'contains and contained_by' },
  array: {
    ops: new Set(['eq', 'ne', 'contains', 'contained_by', 'overlaps']),
    text: 'equality, contains, contained_by and overlaps',
  },
  set: { ops: new Set(['eq', 'ne', 'contains', 'overlaps']), text: 'equality, contains and overlaps' },
};

/** Why `op` does not apply to the column's type, or undefined when it does. */
export function operatorMismatch(column: ColumnSchema, op: BinaryOperator): string | undefined {
  const only = ONLY[column.type];
  if (only) return only.ops.has(op) ? undefined : `${column.type} fields take ${only.text} (and is_null)`;
  if (CONTAINMENT_OPERATORS.has(op)) return 'applies to lists and JSON documents';
  if (LIKE_OPERATORS.has(op) && column.type !== 'string') return 'applies to text fields';
  if (NETWORK_OPERATORS.has(op) && column.type !== 'inet') return 'applies to network address fields';
  return undefined;
}

/** Whether the value of `op` on the column is one value of the column's own type (a list, a document). */
export const takesColumnValue = (op: BinaryOperator): boolean => CONTAINMENT_OPERATORS.has(op);
