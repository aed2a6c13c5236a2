import type { ModelSchema } from '@colapi/schema';
import { ApiError } from '@colapi/query-ast';

/** The key value an id of a URL stands for; an id that cannot be a key names nothing: 404. */
export function keyValue(model: ModelSchema, id: string, what: string): string | number {
  const column = model.columns.get(model.key)!;
  if (column.type === 'integer') {
    // Only the canonical spelling names a resource: `01` or `-0` would answer a resource whose id differs from the URL.
    if (!/^(0|-?[1-9]\d{0,15})$/.test(id) || !Number.isSafeInteger(Number(id))) throw ApiError.notFound(`${what} ${id} does not exist`);
    return Number(id);
  }
  return id;
}
