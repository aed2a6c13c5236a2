import type { Registry } from '@colapi/schema';
import type { ReadQuery, ResourceNode } from '@colapi/query-ast';
import { resourceObject, type ResourceObject } from './resource-object.js';

/**
 * The `included` member: every resource reached through the included relationships of `from` (the primary
 * data, or the owner of a relationship whose linkage is the primary data), once per type and id, and never
 * one that is already primary data.
 */
export function includedResources(
  primary: readonly ResourceNode[],
  base: string,
  registry: Registry,
  query: Pick<ReadQuery, 'fields'>,
  from: readonly ResourceNode[] = primary,
): ResourceObject[] {
  const seen = new Set(primary.map((n) => `${n.collection.name}\u0000${n.id}`));
  const out: ResourceObject[] = [];
  const visit = (node: ResourceNode) => {
    for (const related of node.included.values()) {
      const list = related === null ? [] : Array.isArray(related) ? related : [related as ResourceNode];
      for (const r of list) {
        const key = `${r.collection.name}\u0000${r.id}`;
        if (!seen.has(key)) {
          seen.add(key);
          out.push(resourceObject(r, base, registry, query));
        }
        visit(r);
      }
    }
  };
  from.forEach(visit);
  return out;
}
