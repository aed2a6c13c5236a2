import { defineCollection, type CollectionOptions, type CollectionSchema } from './collection.js';
import type { ModelSchema } from './model.js';
import type { RelationshipSchema } from './relationship.js';

export interface CollectionRegistration {
  model: ModelSchema;
  options?: CollectionOptions;
}

/** Every collection of one API, and the way from a model to the collection that stands for it. */
export class Registry {
  readonly collections: ReadonlyMap<string, CollectionSchema>;
  readonly models: ReadonlyMap<string, ModelSchema>;
  readonly #canonical = new Map<string, CollectionSchema>();

  constructor(registrations: readonly CollectionRegistration[]) {
    const collections = new Map<string, CollectionSchema>();
    const models = new Map<string, ModelSchema>();
    for (const { model, options } of registrations) {
      const collection = defineCollection(model, options);
      if (collections.has(collection.name)) throw new Error(`collection "${collection.name}" is registered twice`);
      if (collection.name === 'eval') throw new Error('"eval" is reserved for function evaluation');
      collections.set(collection.name, collection);
      models.set(model.name, model);
      // The first collection registered for a model gives the type of its linkage.
      if (!this.#canonical.has(model.name)) this.#canonical.set(model.name, collection);
    }
    this.collections = collections;
    this.models = models;
    for (const c of collections.values()) {
      for (const r of c.relationships.values()) {
        if (!this.#canonical.has(r.target)) {
          throw new Error(
            `collection ${c.name}: relationship "${r.name}" targets model ${r.target}, which has no collection; register one or exclude the relationship`,
          );
        }
      }
    }
  }

  collection(name: string): CollectionSchema | undefined {
    return this.collections.get(name);
  }

  /** The collection that stands for a model: the first registered for it. */
  canonical(modelName: string): CollectionSchema {
    const c = this.#canonical.get(modelName);
    if (!c) throw new Error(`no collection is registered for model ${modelName}`);
    return c;
  }

  /** The collection behind a relationship's linkage and links. */
  target(relationship: RelationshipSchema): CollectionSchema {
    return this.canonical(relationship.target);
  }
}
