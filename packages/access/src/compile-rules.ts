import type { CollectionSchema, Registry } from '@colapi/schema';
import { isPlainObject } from './claims.js';
import { type CollectionDraft, draftCollection, fieldsOf, type WriteDraft } from './compile-collection.js';
import { FilterCompiler } from './filter-template.js';
import { memberPath } from './json-path.js';
import { AccessPolicy, type CompiledAction, type CompiledCollection } from './policy.js';
import { AccessRulesError, type Fail } from './rules-error.js';

const ROLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The collection name that gives a role the same rules on every collection its role names no other way. */
export const EVERY_COLLECTION = '*';

/**
 * Checks access rules, `{ roles: { <role>: { <collection> | "*": { read, create, update, delete,
 * evaluate } } } }`, against the registry, and compiles them for `scope()`. Throws AccessRulesError naming
 * the place (`roles.member.projects.read.where[0].name`); `source` names the file in its message.
 */
export function compileRules(json: unknown, registry: Registry, source: string): AccessPolicy {
  const fail: Fail = (path, detail) => {
    throw new AccessRulesError(source, path, detail);
  };
  if (!isPlainObject(json)) fail('', 'the access rules must be an object with the one member "roles"');
  for (const key of Object.keys(json)) if (key !== 'roles') fail(key, `unknown member "${key}"; expected roles`);
  const roles = json.roles;
  if (!isPlainObject(roles)) fail('roles', 'must be an object of role name → rules');
  const compiled = new Map<string, ReadonlyMap<string, CompiledCollection>>();
  for (const [role, rules] of Object.entries(roles)) {
    const path = memberPath('roles', role);
    if (!ROLE_NAME.test(role)) fail(path, `"${role}" is not a role name: letters, digits and _, not first a digit`);
    compiled.set(role, compileRole(rules, registry, path, fail));
  }
  return new AccessPolicy(compiled);
}

function compileRole(json: unknown, registry: Registry, path: string, fail: Fail): Map<string, CompiledCollection> {
  if (!isPlainObject(json)) fail(path, 'must be an object of collection name (or "*") → actions');
  for (const name of Object.keys(json)) {
    if (name !== EVERY_COLLECTION && !registry.collection(name)) {
      fail(memberPath(path, name), `unknown collection "${name}"`);
    }
  }
  const drafts = new Map<string, CollectionDraft>();
  const filters = new FilterCompiler(registry, fail);
  const star = json[EVERY_COLLECTION];
  const starPath = memberPath(path, EVERY_COLLECTION);
  for (const collection of registry.collections.values()) {
    if (Object.hasOwn(json, collection.name)) {
      const named = memberPath(path, collection.name);
      drafts.set(collection.name, draftCollection(json[collection.name], collection, named, filters, fail));
    } else if (star !== undefined) {
      // One "*" rule is checked against each collection it stands for; an error says which.
      const failHere: Fail = (p, detail) => fail(p, `${detail} (applying "*" to ${collection.name})`);
      const starFilters = new FilterCompiler(registry, failHere);
      drafts.set(collection.name, draftCollection(star, collection, starPath, starFilters, failHere));
    }
  }
  const readable = new Set([...drafts].filter(([, d]) => d.read).map(([name]) => name));
  const compiled = new Map<string, CompiledCollection>();
  for (const [name, draft] of drafts) compiled.set(name, finish(draft, readable, registry));
  return compiled;
}

/** The draft with its field sets, now that the collections the role reads are known. */
function finish(draft: CollectionDraft, readable: ReadonlySet<string>, registry: Registry): CompiledCollection {
  const c = draft.collection;
  const visible = new Set<string>();
  if (draft.read) {
    const { fields } = draft.read;
    const chosen =
      fields.kind === 'columns'
        ? new Set([c.model.key, ...fields.names])
        : new Set(fieldsOf(c).filter((f) => fields.kind === 'all' || !fields.names.includes(f)));
    // Field order is the collection's; a relationship is seen only where its target collection is.
    for (const f of fieldsOf(c)) {
      const relationship = c.relationships.get(f);
      if (chosen.has(f) && (!relationship || readable.has(registry.target(relationship).name))) visible.add(f);
    }
  }
  const write = (d: WriteDraft | undefined): CompiledAction | undefined =>
    d && {
      ...(d.where && { where: d.where }),
      ...(d.check && { check: d.check }),
      set: d.set,
      writable: Object.freeze(writable(c, d, visible)),
    };
  return {
    collection: c,
    ...(draft.read && {
      read: { ...(draft.read.where && { where: draft.read.where }), visible: Object.freeze(visible) },
    }),
    ...(draft.create && { create: write(draft.create)! }),
    ...(draft.update && { update: write(draft.update)! }),
    ...(draft.delete && { delete: { ...write(draft.delete)!, writable: Object.freeze(new Set<string>()) } }),
    evaluate: draft.evaluate,
  };
}

/**
 * `columns` as given (a field hidden from read is written only so: write-only); else what read shows, less
 * `exclude`, `set`, the key and virtual attributes.
 */
function writable(c: CollectionSchema, d: WriteDraft, visible: ReadonlySet<string>): Set<string> {
  if (d.fields.kind === 'columns') return new Set(d.fields.names);
  const excluded = d.fields.kind === 'exclude' ? new Set(d.fields.names) : new Set<string>();
  return new Set(
    [...visible].filter((f) => !excluded.has(f) && !d.set.has(f) && f !== c.model.key && !c.virtualAttributes.has(f)),
  );
}
