import type { ModelSchema } from '@colapi/schema';
import { keyParts, type Filter, type ScalarValue } from '@colapi/query-ast';

/**
 * The rows of `model` whose key is (`in`) or is not (`not_in`) one of `keys`: a plain list on a one-column key;
 * on a composite one, each key as the comparisons of its parts (which are never null).
 */
export function keyIn(model: ModelSchema, op: 'in' | 'not_in', keys: readonly unknown[]): Filter {
  if (model.keyColumns.length === 1) return cmp(model.key, op, keys);
  const positive = op === 'in';
  const each = keys.map(
    (key): Filter => ({
      kind: positive ? 'and' : 'or',
      filters: keyParts(model, key).map((part, i) => cmp(model.keyColumns[i]!, positive ? 'eq' : 'ne', part)),
    }),
  );
  return { kind: positive ? 'or' : 'and', filters: each };
}

const cmp = (column: string, op: 'in' | 'not_in' | 'eq' | 'ne', value: unknown): Filter => ({
  kind: 'compare',
  field: { relations: [], column },
  op,
  value: value as ScalarValue | readonly ScalarValue[],
});
