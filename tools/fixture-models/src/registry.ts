import type { Linkage, ResourceNode } from '@colapi/query-ast';
import type { CollectionSchema, Registry } from '@colapi/schema';

/** The collection of `registry` by its name; throws when the test names one the registry lacks. */
export function collectionLookup(registry: Registry): (name: string) => CollectionSchema {
  return (name) => {
    const c = registry.collection(name);
    if (!c) throw new Error(`no collection ${name} in the test registry`);
    return c;
  };
}

/** A builder of resources as the executor would load them, from the collections `collection` names. */
export function nodeBuilder(collection: (name: string) => CollectionSchema) {
  return (
    collectionName: string,
    id: string,
    values: Record<string, unknown>,
    linkage: Record<string, Linkage> = {},
    included: Record<string, ResourceNode | null | readonly ResourceNode[]> = {},
  ): ResourceNode => ({
    collection: collection(collectionName),
    id,
    values,
    linkage: new Map(Object.entries(linkage)),
    included: new Map(Object.entries(included)),
  });
}
