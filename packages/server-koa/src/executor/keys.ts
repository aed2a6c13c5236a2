import type { ModelSchema } from '@colapi/schema';
import { ApiError, parseKey, type KeyValue } from '@colapi/query-ast';

/**
 * The key an id of a URL stands for, read by the one strict key parser: an id that cannot be a key names
 * nothing, so it is 404 here (formats refuse a malformed id in a body, or as the argument of a write, with 400).
 */
export function keyValue(model: ModelSchema, id: string, what: string): KeyValue {
  const parsed = parseKey(model, id);
  if (!parsed.ok) throw ApiError.notFound(`${what} ${id} does not exist`);
  return parsed.key;
}
