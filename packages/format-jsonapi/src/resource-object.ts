import { foreignKeyColumns, type CollectionSchema, type Registry } from '@colapi/schema';
import type { Linkage, ReadQuery, ResourceNode } from '@colapi/query-ast';

export interface ResourceIdentifier {
  readonly type: string;
  readonly id: string;
}

export interface ResourceObject {
  type: string;
  id: string;
  attributes?: Record<string, unknown>;
  relationships?: Record<
    string,
    { data?: ResourceIdentifier | null | ResourceIdentifier[]; links: { self: string; related: string } }
  >;
  links: { self: string };
  meta?: Record<string, unknown>;
}

/** The attribute names of a collection: exposed columns but the key and belongs-to foreign keys, then virtuals. */
const attributeCache = new WeakMap<CollectionSchema, string[]>();
export function attributeNames(collection: CollectionSchema): string[] {
  let names = attributeCache.get(collection);
  if (!names) {
    const fks = foreignKeyColumns(collection.model);
    names = [...collection.columns.keys()].filter((n) => n !== collection.model.key && !fks.has(n));
    names.push(...collection.virtualAttributes.keys());
    attributeCache.set(collection, names);
  }
  return names;
}

/** The relationships of a collection a request shows: all exposed ones, or those of its sparse fieldset. */
export function shownRelationships(collection: CollectionSchema, query: Pick<ReadQuery, 'fields'>): string[] {
  const fieldset = query.fields[collection.name];
  const all = [...collection.relationships.keys()];
  return fieldset ? all.filter((n) => fieldset.includes(n)) : all;
}

export function linkageData(registry: Registry, collection: CollectionSchema, relation: string, linkage: Linkage) {
  const type = registry.target(collection.relationships.get(relation)!).name;
  if (linkage === null) return null;
  if (typeof linkage === 'string') return { type, id: linkage };
  return linkage.map((id) => ({ type, id }));
}

/** What a collection's resource objects are made of, worked out once: nothing of it changes per request. */
interface SerializerPlan {
  readonly attributes: readonly string[];
  readonly relationships: readonly { readonly name: string; readonly type: string }[];
}

const plans = new WeakMap<Registry, WeakMap<CollectionSchema, SerializerPlan>>();

function planOf(registry: Registry, collection: CollectionSchema): SerializerPlan {
  let byCollection = plans.get(registry);
  if (!byCollection) plans.set(registry, (byCollection = new WeakMap()));
  let plan = byCollection.get(collection);
  if (!plan) {
    const relationships = [...collection.relationships.values()].map((r) => ({
      name: r.name,
      type: registry.target(r).name,
    }));
    plan = { attributes: attributeNames(collection), relationships };
    byCollection.set(collection, plan);
  }
  return plan;
}

/**
 * A JSON:API resource object of a loaded resource, obeying the request's sparse fieldsets. It follows the
 * collection's precompiled plan, so a page of resources costs no per-row lookups of names or types.
 */
export function resourceObject(
  node: ResourceNode,
  base: string,
  registry: Registry,
  query: Pick<ReadQuery, 'fields'>,
): ResourceObject {
  const { collection, id } = node;
  const plan = planOf(registry, collection);
  const self = `${base}/${collection.name}/${encodeURIComponent(id)}`;
  const fieldset = query.fields[collection.name];
  const object = { type: collection.name, id } as ResourceObject;
  const attributes: Record<string, unknown> = {};
  let anyAttribute = false;
  for (const name of plan.attributes) {
    if (fieldset && !fieldset.includes(name)) continue;
    attributes[name] = node.values[name] ?? null;
    anyAttribute = true;
  }
  if (anyAttribute) object.attributes = attributes;
  let relationships: ResourceObject['relationships'];
  for (const { name, type } of plan.relationships) {
    if (fieldset && !fieldset.includes(name)) continue;
    const rel: NonNullable<ResourceObject['relationships']>[string] = {
      links: { self: `${self}/relationships/${name}`, related: `${self}/${name}` },
    };
    const linkage = node.linkage.get(name);
    if (linkage !== undefined) {
      rel.data =
        linkage === null
          ? null
          : typeof linkage === 'string'
            ? { type, id: linkage }
            : linkage.map((to) => ({ type, id: to }));
    }
    (relationships ??= {})[name] = rel;
  }
  if (relationships) object.relationships = relationships;
  object.links = { self };
  return object;
}
