import type { Registry } from '@colapi/schema';
import type { ReadQuery, ResourceNode } from '@colapi/query-ast';
import { resourceText } from './resource-object.js';

/**
 * The `included` member as JSON text (`[…]`): every resource reached through the included relationships
 * of `from` (the primary data, or the owner of a relationship whose linkage is the primary data), once per
 * type and id, and never one that is already primary data. `base` escaped for JSON, as resourceText takes it.
 */
export function includedText(
  primary: readonly ResourceNode[],
  base: string,
  registry: Registry,
  query: Pick<ReadQuery, 'fields'>,
  from: readonly ResourceNode[] = primary,
): string {
  const seen = new Set(primary.map((n) => `${n.collection.name}\u0000${n.id}`));
  const out: string[] = [];
  const visit = (node: ResourceNode) => {
    for (const related of node.included.values()) {
      const list = related === null ? [] : Array.isArray(related) ? related : [related as ResourceNode];
      for (const r of list) {
        const key = `${r.collection.name}\u0000${r.id}`;
        if (!seen.has(key)) {
          seen.add(key);
          out.push(resourceText(r, base, registry, query));
        }
        visit(r);
      }
    }
  };
  from.forEach(visit);
  return `[${out.join(',')}]`;
}
