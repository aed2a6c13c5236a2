import type { ResourceNode } from '@colapi/query-ast';

export type InstanceObject = Record<string, unknown>;

/**
 * The field values of a resource as Format B shows them: every exposed column (the key and foreign keys
 * included, as stored, so numeric ids stay numbers) and the additional attributes. A composite key's id
 * comes first, under the key's name (`id`), as the text that names the instance in a URL or a body.
 */
export function fieldValues(node: ResourceNode): InstanceObject {
  const { collection, values } = node;
  const out: InstanceObject = {};
  if (collection.model.keyColumns.length > 1) out[collection.model.key] = values[collection.model.key];
  for (const name of collection.columns.keys()) out[name] = values[name] ?? null;
  for (const name of collection.virtualAttributes.keys()) out[name] = values[name] ?? null;
  return out;
}

/**
 * A resource with its related instances nested one level deep: a to-one relationship as an object or null,
 * a to-many one as an array (empty when there are none). Nested instances show their own fields only.
 */
export function instanceObject(node: ResourceNode): InstanceObject {
  const out = fieldValues(node);
  for (const [name, related] of node.included) {
    if (related === null) out[name] = null;
    else if (Array.isArray(related)) out[name] = (related as readonly ResourceNode[]).map(fieldValues);
    else out[name] = fieldValues(related as ResourceNode);
  }
  return out;
}
