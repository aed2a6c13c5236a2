import type { Registry } from '@colapi/schema';
import type { RouteEntry } from '@colapi/wire-format';

/**
 * Every path the server routes for the registry, spelled out per collection and relationship so that each
 * gets its own parameters and document shapes (a template `/{collection}` could not say which fields apply).
 */
export function enumerateRoutes(registry: Registry, prefix: string): RouteEntry[] {
  const out: RouteEntry[] = [];
  for (const collection of registry.collections.values()) {
    const base = `${prefix}/${collection.name}`;
    out.push({ kind: 'collection', path: base, collection });
    out.push({ kind: 'resource', path: `${base}/{id}`, collection });
    for (const relationship of collection.relationships.values()) {
      const target = registry.target(relationship);
      const rel = { collection, relationship, target };
      out.push({ kind: 'related', path: `${base}/{id}/${relationship.name}`, ...rel });
      // A related item only makes sense among many; a to-one relationship has its one resource at /related.
      if (relationship.cardinality === 'many') {
        out.push({ kind: 'related-item', path: `${base}/{id}/${relationship.name}/{related_id}`, ...rel });
      }
      out.push({ kind: 'relationship', path: `${base}/{id}/relationships/${relationship.name}`, ...rel });
    }
    if (collection.allowFunctions)
      out.push({ kind: 'evaluate', path: `${prefix}/eval/${collection.name}`, collection });
  }
  return out;
}
