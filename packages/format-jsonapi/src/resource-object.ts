import { foreignKeyColumns, type CollectionSchema, type Registry } from '@colapi/schema';
import type { Linkage, ReadQuery, ResourceNode } from '@colapi/query-ast';
import { allPlainJsonText, jsonContent, jsonString, jsonValue } from './json-text.js';

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
  /** `{"type":"person","id":` */
  readonly opening: string;
  /** `/person/`, escaped for JSON: between the base and the id in every link. */
  readonly path: string;
  readonly attributes: readonly { readonly name: string; readonly member: string }[];
  /** All the attributes as text (`,"attributes":{…}`, or nothing): generated code, see attributesWriter. */
  readonly allAttributes?: (values: Readonly<Record<string, unknown>>) => string;
  readonly relationships: readonly {
    readonly name: string;
    /** `"articles":{"links":{"self":"` */
    readonly opening: string;
    /** `/relationships/articles","related":"` */
    readonly self: string;
    /** `/articles"}` */
    readonly related: string;
    /** `{"type":"article","id":` */
    readonly identifier: string;
  }[];
}

const plans = new WeakMap<Registry, WeakMap<CollectionSchema, SerializerPlan>>();

function planOf(registry: Registry, collection: CollectionSchema): SerializerPlan {
  let byCollection = plans.get(registry);
  if (!byCollection) plans.set(registry, (byCollection = new WeakMap()));
  let plan = byCollection.get(collection);
  if (!plan) {
    const relationships = [...collection.relationships.values()].map((r) => {
      const name = jsonContent(r.name);
      return {
        name: r.name,
        opening: `"${name}":{"links":{"self":"`,
        self: `/relationships/${name}","related":"`,
        related: `/${name}"}`,
        identifier: `{"type":${jsonString(registry.target(r).name)},"id":`,
      };
    });
    const attributes = attributeNames(collection).map((name) => ({ name, member: `${jsonString(name)}:` }));
    const allAttributes = attributesWriter(attributes);
    plan = {
      opening: `{"type":${jsonString(collection.name)},"id":`,
      path: `/${jsonContent(collection.name)}/`,
      attributes,
      ...(allAttributes ? { allAttributes } : {}),
      relationships,
    };
    byCollection.set(collection, plan);
  }
  return plan;
}

/**
 * The attributes of a collection's resources as text, generated as straight-line code once per collection
 * (`',"attributes":{"title":' + v(values["title"]) + …`): a loop reads every attribute of every collection at
 * one site, which serving many collections makes megamorphic. Names enter the code only as JSON string
 * literals. Undefined where code cannot be generated (`--disallow-code-generation-from-strings`): the loop
 * of resourceText writes them then, as it does for a sparse fieldset.
 */
function attributesWriter(
  attributes: readonly { readonly name: string; readonly member: string }[],
): ((values: Readonly<Record<string, unknown>>) => string) | undefined {
  if (attributes.length === 0) return () => '';
  const parts = attributes.map(
    ({ name, member }, i) =>
      `${JSON.stringify(`${i ? ',' : ',"attributes":{'}${member}`)} + v(values[${JSON.stringify(name)}])`,
  );
  try {
    return new Function('v', `return function attributesText(values) { return ${parts.join(' + ')} + '}'; };`)(
      jsonValue,
    );
  } catch {
    return undefined;
  }
}

/** The link of a resource, as it goes in a header (not escaped for JSON). */
export function resourceLink(base: string, node: Pick<ResourceNode, 'collection' | 'id'>): string {
  return `${base}/${node.collection.name}/${encodeURIComponent(node.id)}`;
}

/**
 * Linkage as JSON text: null, one resource identifier, or an array of them. Ids that need no escape (integer
 * keys always) are joined in one step: a document is sent as one flat string, and flattening one built of a
 * few pieces per identifier cost a large page more than writing it.
 */
function linkageText(identifier: string, linkage: Linkage): string {
  if (linkage === null) return 'null';
  if (typeof linkage === 'string') return `${identifier}${jsonString(linkage)}}`;
  if (linkage.length === 0) return '[]';
  if (allPlainJsonText(linkage)) return `[${identifier}"${linkage.join(`"},${identifier}"`)}"}]`;
  let out = '[';
  for (let i = 0; i < linkage.length; i++) out += `${i === 0 ? '' : ','}${identifier}${jsonString(linkage[i]!)}}`;
  return `${out}]`;
}

/**
 * A JSON:API resource object of a loaded resource as JSON text, obeying the request's sparse fieldsets:
 * `type`, `id`, `attributes` (when any is shown), `relationships` (likewise; each with `links` and, when
 * its linkage was read, `data`), `links`, then `members` (`,"meta":{}` …) when given. It follows the
 * collection's precompiled plan, writing no object on the way: the document is text from the start.
 * `base` is the API's base URL escaped for JSON (`jsonContent`).
 */
export function resourceText(
  node: ResourceNode,
  base: string,
  registry: Registry,
  query: Pick<ReadQuery, 'fields'>,
  members = '',
): string {
  const { collection, id } = node;
  const plan = planOf(registry, collection);
  // encodeURIComponent leaves nothing JSON would escape.
  const self = `${base}${plan.path}${encodeURIComponent(id)}`;
  const fieldset = query.fields[collection.name];
  let out = `${plan.opening}${jsonString(id)}`;
  let first = true;
  if (!fieldset && plan.allAttributes) out += plan.allAttributes(node.values);
  else {
    for (const { name, member } of plan.attributes) {
      if (fieldset && !fieldset.includes(name)) continue;
      out += `${first ? ',"attributes":{' : ','}${member}${jsonValue(node.values[name])}`;
      first = false;
    }
    if (!first) out += '}';
  }
  first = true;
  for (const rel of plan.relationships) {
    if (fieldset && !fieldset.includes(rel.name)) continue;
    out += `${first ? ',"relationships":{' : ','}${rel.opening}${self}${rel.self}${self}${rel.related}`;
    const linkage = node.linkage.get(rel.name);
    out += linkage === undefined ? '}' : `,"data":${linkageText(rel.identifier, linkage)}}`;
    first = false;
  }
  if (!first) out += '}';
  return `${out},"links":{"self":"${self}"}${members}}`;
}

/**
 * A JSON:API resource object of a loaded resource (for custom endpoints): `resourceText`'s document, as an
 * object. `base` is the API's base URL as it is.
 */
export function resourceObject(
  node: ResourceNode,
  base: string,
  registry: Registry,
  query: Pick<ReadQuery, 'fields'>,
): ResourceObject {
  return JSON.parse(resourceText(node, jsonContent(base), registry, query)) as ResourceObject;
}
