import type { CollectionSchema } from './collection.js';
import { Registry, type CollectionRegistration } from './registry.js';

/**
 * What one caller sees of a collection: the fields (columns, relationships, virtual attributes) it may
 * know of. The key is always kept. Undefined drops the collection.
 */
export type FieldsShown = (collection: CollectionSchema) => ReadonlySet<string> | undefined;

/** The registration that rebuilds `collection` as it is, narrowed to `fields` when given. */
export function registrationOf(collection: CollectionSchema, fields?: ReadonlySet<string>): CollectionRegistration {
  const keep = (name: string) => !fields || fields.has(name);
  return {
    model: collection.model,
    options: {
      name: collection.name,
      methods: [...collection.methods],
      allow_functions: collection.allowFunctions,
      allow_client_generated_ids: collection.allowClientGeneratedIds,
      allow_to_many_replacement: collection.allowToManyReplacement,
      allow_to_many_removal: collection.allowToManyRemoval,
      // `total` unset is told by cursorTotal (`none` beside the default `exact`): left unset again.
      ...(collection.total === 'exact' && collection.cursorTotal === 'none' ? {} : { total: collection.total }),
      paging: collection.paging,
      only: [
        ...collection.columns.keys(),
        ...collection.relationships.keys(),
        ...collection.virtualAttributes.keys(),
      ].filter(keep),
      additional_attributes: [...collection.virtualAttributes.keys()].filter(keep),
    },
  };
}

/**
 * A registry of the same models in the same order, each collection narrowed to what `shown` answers for it
 * and the collections it answers undefined for left out: a caller's view of the API (access control), in
 * which a field or collection it may not see does not exist. A relationship must lead to a collection the
 * view keeps, as in any registry.
 */
export function narrowRegistry(registry: Registry, shown: FieldsShown): Registry {
  const registrations: CollectionRegistration[] = [];
  for (const collection of registry.collections.values()) {
    const fields = shown(collection);
    if (fields) registrations.push(registrationOf(collection, fields));
  }
  return new Registry(registrations);
}
