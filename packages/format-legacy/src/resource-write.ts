import type { CollectionSchema, RelationshipSchema } from '@colapi/schema';
import {
  ApiError,
  decodeWriteValues,
  isApiError,
  parseKey,
  shownValue,
  type RelatedRef,
  type RelationshipWrite,
  type ResourceWrite,
} from '@colapi/query-ast';
import type { DecodeContext } from '@colapi/wire-format';

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
/** A detail with its place in the body appended when that place is inside a nested instance. */
const located = (detail: string, pointer: string) =>
  pointer.lastIndexOf('/') > 0 ? `${detail} (at ${pointer})` : detail;
export const bad = (detail: string, pointer: string) => ApiError.badRequest(located(detail, pointer), { pointer });

/** Why a name of a body is not a writable field, when the generic "not a field" would mislead. */
export function writeHint(collection: CollectionSchema, name: string): string | undefined {
  if (name === collection.model.key) return `"${name}" is the key of ${collection.name} and cannot be set here`;
  return undefined;
}

/** An id in a body, read by the strict key parser of the collection it names: a number or its canonical text. */
export function bodyId(json: unknown, collection: CollectionSchema, pointer: string): string {
  if (typeof json !== 'string' && typeof json !== 'number')
    throw bad(`an id of ${collection.name} must be a number or a string`, pointer);
  const parsed = parseKey(collection.model, json);
  if (!parsed.ok) throw bad(`${shownValue(json)} is not a valid id of ${collection.name}: ${parsed.reason}`, pointer);
  return String(parsed.key);
}

/** `{"add": …}` or `{"remove": …}`: the operation an object names, or undefined for a plain instance. */
function operationOf(
  value: Record<string, unknown>,
  rel: RelationshipSchema,
  pointer: string,
): 'add' | 'remove' | undefined {
  const keys = Object.keys(value);
  if (!keys.includes('add') && !keys.includes('remove')) return undefined;
  if (keys.length !== 1) throw bad(`an operation on ${rel.name} has exactly one member, "add" or "remove"`, pointer);
  return keys[0] as 'add' | 'remove';
}

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);

/**
 * One related instance: with an id an existing one (updated too when other fields come with it, deleted
 * too when an element to remove says `__delete__`), without one a new one to create.
 */
function relatedRef(
  json: unknown,
  target: CollectionSchema,
  ctx: DecodeContext,
  pointer: string,
  depth: number,
  removing: boolean,
): RelatedRef {
  if (!isObject(json)) throw bad(`a related ${target.name} must be an object`, pointer);
  const { [target.model.key]: id, __delete__: doomed, ...fields } = json;
  if (doomed !== undefined && !removing)
    throw bad('__delete__ belongs to the elements of {"remove": […]}', `${pointer}/__delete__`);
  if (id === undefined || id === null) {
    if (removing) throw bad(`an element to remove needs the ${target.model.key} of a ${target.name}`, pointer);
    return { kind: 'new', write: resourceWrite(fields, target, ctx, pointer, depth + 1) };
  }
  const key = bodyId(id, target, `${pointer}/${target.model.key}`);
  if (removing) {
    const extra = Object.keys(fields)[0];
    if (extra !== undefined)
      throw bad(
        `an element to remove holds only ${target.model.key} and __delete__, not "${extra}"`,
        `${pointer}/${extra}`,
      );
    if (doomed !== undefined && typeof doomed !== 'boolean')
      throw bad('__delete__ must be true or false', `${pointer}/__delete__`);
    return { kind: 'existing', id: key, ...(doomed ? { delete: true } : {}) };
  }
  if (Object.keys(fields).length === 0) return { kind: 'existing', id: key };
  return { kind: 'existing', id: key, write: resourceWrite(fields, target, ctx, pointer, depth + 1) };
}

/**
 * `{"remove": {id}}` (or `[{id}]`) on a to-one relation: as strict as a to-many `remove`, it names the
 * related instance by a valid key of its collection (400 otherwise, at its place) and holds nothing else; a
 * to-one relation holds one instance at most, so one is named. It unlinks that instance only if it is the
 * one related now, checked by the executor (404 otherwise, nothing changed), as
 * `DELETE /<c>/<id>/<relation>/<related_id>` does; `null` unsets the relation whatever it holds.
 */
function toOneRemoval(
  value: unknown,
  rel: RelationshipSchema,
  target: CollectionSchema,
  ctx: DecodeContext,
  pointer: string,
  depth: number,
): RelationshipWrite {
  if (asList(value).some((v) => isObject(v) && v.__delete__ !== undefined)) {
    throw bad(`__delete__ applies to to-many relationships; ${rel.name} is to-one`, pointer);
  }
  if (Array.isArray(value) && value.length !== 1) {
    throw bad(
      `${rel.name} is a to-one relationship: {"remove": …} names the one related ${target.name}, as {"${target.model.key}": …}`,
      pointer,
    );
  }
  const [element, at] = Array.isArray(value) ? [value[0], `${pointer}/0`] : [value, pointer];
  const key = target.model.key;
  const extra =
    isObject(element) && element[key] !== undefined && element[key] !== null
      ? Object.keys(element).find((k) => k !== key)
      : undefined;
  if (extra !== undefined)
    throw bad(`an instance to remove from ${rel.name} holds only its ${key}, not "${extra}"`, `${at}/${extra}`);
  const named = relatedRef(element, target, ctx, at, depth, true);
  if (named.kind !== 'existing') throw new Error('an element to remove is always an existing instance');
  return { mode: 'unlink', id: named.id };
}

/**
 * The value of a relationship in a POST or PATCH body, per the specification's table: a list replaces a
 * to-many relationship, `{"add": …}` and `{"remove": …}` change it; a to-one relationship takes an object,
 * `{"add": object}`, `{"remove": {id}}` (unlinks the instance it names, which must be the related one) or
 * null (unsets it).
 */
export function relationshipWrite(
  value: unknown,
  rel: RelationshipSchema,
  ctx: DecodeContext,
  pointer: string,
  depth: number,
): RelationshipWrite {
  if (depth >= ctx.limits.maxIncludeDepth)
    throw bad(`related instances nest deeper than ${ctx.limits.maxIncludeDepth} levels`, pointer);
  const target = ctx.registry.target(rel);
  const refs = (list: unknown[], at: string, removing: boolean) =>
    list.map((v, i) => relatedRef(v, target, ctx, `${at}/${i}`, depth, removing));
  if (rel.cardinality === 'one') {
    if (value === null) return { mode: 'set', target: null };
    if (!isObject(value))
      throw bad(
        `${rel.name} is a to-one relationship: give an object, {"add": object}, {"remove": object} or null`,
        pointer,
      );
    const op = operationOf(value, rel, pointer);
    if (op === 'remove') return toOneRemoval(value.remove, rel, target, ctx, `${pointer}/remove`, depth);
    if (op === 'add') {
      // The specification's table gives a to-one `add` an object; a list of one was taken too, undocumented,
      // and a list is what a to-many relation takes: refused, as each ambiguity is.
      if (Array.isArray(value.add))
        throw bad(`${rel.name} is a to-one relationship: {"add": …} takes one object, not a list`, `${pointer}/add`);
      return { mode: 'set', target: relatedRef(value.add, target, ctx, `${pointer}/add`, depth, false) };
    }
    return { mode: 'set', target: relatedRef(value, target, ctx, pointer, depth, false) };
  }
  if (Array.isArray(value)) return { mode: 'replace', targets: refs(value, pointer, false) };
  const op = isObject(value) ? operationOf(value, rel, pointer) : undefined;
  if (!op) throw bad(`${rel.name} is a to-many relationship: give a list, {"add": […]} or {"remove": […]}`, pointer);
  const members = asList((value as Record<string, unknown>)[op]);
  return { mode: op, targets: refs(members, `${pointer}/${op}`, op === 'remove') };
}

/**
 * The field values and relationship changes of an object in a write body. Names in `skip` (the key, which
 * callers check themselves) are left out.
 */
export function resourceWrite(
  json: Readonly<Record<string, unknown>>,
  collection: CollectionSchema,
  ctx: DecodeContext,
  pointer: string,
  depth: number,
  skip: ReadonlySet<string> = new Set(),
): ResourceWrite {
  const fields: Record<string, unknown> = {};
  const relationships: Record<string, RelationshipWrite> = {};
  for (const [name, value] of Object.entries(json)) {
    if (skip.has(name)) continue;
    const rel = collection.relationships.get(name);
    if (rel) relationships[name] = relationshipWrite(value, rel, ctx, `${pointer}/${name}`, depth);
    else fields[name] = value;
  }
  let values: Record<string, unknown>;
  try {
    values = decodeWriteValues(collection, fields, {
      sourceOf: (name) => ({ pointer: `${pointer}/${name}` }),
      hint: (name) => writeHint(collection, name),
    });
  } catch (e) {
    if (!isApiError(e) || !e.source?.pointer) throw e;
    throw new ApiError(e.status, e.title, located(e.detail, e.source.pointer), e.source);
  }
  // A foreign key column and its relationship in one body would set the same column twice.
  for (const name of Object.keys(relationships)) {
    const join = collection.relationships.get(name)!.join;
    if (join.kind === 'belongs-to' && join.ownColumn in values) {
      throw bad(`give "${join.ownColumn}" or "${name}", not both`, `${pointer}/${name}`);
    }
  }
  return { values, relationships };
}
