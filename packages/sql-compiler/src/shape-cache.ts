import type { Dialect } from './dialect.js';

/**
 * What the compile-once paths keep: values by dialect, then by the schema object they belong to (a model, a
 * collection, a relationship), then by a string naming the shape. Weak on the first two, so a retired
 * registry (a reload) or a closed database takes its entries along.
 */
export type ShapeCaches<V> = WeakMap<Dialect, WeakMap<object, Map<string, V>>>;

/** The entries `owner` keeps on `dialect`, made on first use. */
export function shapesOf<V>(caches: ShapeCaches<V>, dialect: Dialect, owner: object): Map<string, V> {
  let byOwner = caches.get(dialect);
  if (!byOwner) caches.set(dialect, (byOwner = new WeakMap()));
  let shapes = byOwner.get(owner);
  if (!shapes) byOwner.set(owner, (shapes = new Map()));
  return shapes;
}
