import type { Filter } from '@colapi/query-ast';
import type { CollectionSchema } from '@colapi/schema';
import { claimScalar } from './claims.js';
import type { SetSlot } from './compile-collection.js';
import { allOf } from './false-filter.js';
import type { Template } from './filter-template.js';
import type { Identity } from './identity.js';
import { resolveFilter } from './resolve-filter.js';
import { type ActionScope, type CollectionScope, MISSING_CLAIM, type ReadScope, type SetValue } from './scope.js';

/** An action of one role on one collection, its field sets computed. */
export interface CompiledAction {
  readonly where?: Template;
  readonly check?: Template;
  readonly set: ReadonlyMap<string, SetSlot>;
  readonly writable: ReadonlySet<string>;
}

/** What a role may know of a collection's fields, whatever its claims (AccessPolicy.fieldsOf). */
export interface RoleFields {
  readonly visible: ReadonlySet<string> | undefined;
  readonly create: ReadonlySet<string> | undefined;
  readonly update: ReadonlySet<string> | undefined;
  readonly delete: boolean;
  readonly evaluate: boolean;
}

/** One role's rules on one collection, ready to meet identities. */
export interface CompiledCollection {
  readonly collection: CollectionSchema;
  readonly read?: { readonly where?: Template; readonly visible: ReadonlySet<string> };
  readonly create?: CompiledAction;
  readonly update?: CompiledAction;
  readonly delete?: CompiledAction;
  readonly evaluate: boolean;
}

const NOTHING: ReadonlySet<string> = Object.freeze(new Set<string>());
const NO_SET: ReadonlyMap<string, SetValue> = Object.freeze(new Map<string, SetValue>());
const NO_FIELDS: readonly string[] = Object.freeze([]);
const NO_IDENTITY: Identity = Object.freeze({ role: '', claims: Object.freeze({}), anonymous: true });

/**
 * The rules, checked: per role, per collection, the Templates and field sets. `scope()` resolves them for
 * one identity without I/O; rules without claims or functions are resolved once, here.
 */
export class AccessPolicy {
  /** The configured role names: an identity of any other role has no scope anywhere. */
  readonly roles: ReadonlySet<string>;
  /**
   * Whether a rule calls a `where` or `check` function, whose filter may differ from one call to the next
   * for the same identity: what is resolved for an identity may then not be kept beyond one request.
   */
  readonly dynamic: boolean;
  readonly #rules: ReadonlyMap<string, ReadonlyMap<string, CompiledCollection>>;
  /** Scopes that depend on no identity, computed once. */
  readonly #fixed = new Map<CompiledCollection, CollectionScope>();
  readonly #visible = new Map<string, ReadonlySet<string>>();
  /**
   * Scopes resolved for one identity, by identity object: the authenticator answers the same object for a
   * token it verified before, so a client's requests share their filters (and the statements kept for them).
   * Not for rules with a `where` function, which may answer otherwise each time.
   */
  readonly #resolved = new WeakMap<Identity, Map<CompiledCollection, CollectionScope>>();

  constructor(rules: ReadonlyMap<string, ReadonlyMap<string, CompiledCollection>>) {
    this.#rules = rules;
    this.roles = Object.freeze(new Set(rules.keys()));
    this.dynamic = [...rules.values()].some((collections) => [...collections.values()].some(callsFunctions));
    for (const [role, collections] of rules) {
      this.#visible.set(role, Object.freeze(new Set(collections.keys())));
      for (const c of collections.values()) if (isFixed(c)) this.#fixed.set(c, resolveScope(c, NO_IDENTITY));
    }
  }

  /**
   * What `identity` may do with the collection `name`: undefined when its role has no rule for it (answer as
   * for an unknown collection). Throws AccessRulesError when a `where` function returns a filter that does
   * not fit the collection: the deployment's bug, a 500.
   */
  scope(identity: Identity, name: string): CollectionScope | undefined {
    const compiled = this.#rules.get(identity.role)?.get(name);
    if (!compiled) return undefined;
    const fixed = this.#fixed.get(compiled);
    if (fixed) return fixed;
    if (callsFunctions(compiled)) return resolveScope(compiled, identity);
    let resolved = this.#resolved.get(identity);
    if (!resolved) this.#resolved.set(identity, (resolved = new Map()));
    let scope = resolved.get(compiled);
    if (!scope) resolved.set(compiled, (scope = resolveScope(compiled, identity)));
    return scope;
  }

  /**
   * The fields a role may know of in the collection `name`, claims aside: what `read` shows (undefined
   * without read) and what `create` and `update` may write (undefined without the action). Undefined when
   * the role has no rule for the collection. For building a role's view of the API once.
   */
  fieldsOf(role: string, name: string): RoleFields | undefined {
    const compiled = this.#rules.get(role)?.get(name);
    if (!compiled) return undefined;
    return {
      visible: compiled.read?.visible,
      create: compiled.create?.writable,
      update: compiled.update?.writable,
      delete: compiled.delete !== undefined,
      evaluate: compiled.evaluate,
    };
  }

  /** The collections the identity's role has a rule for, in the registry's order (its OpenAPI document's). */
  visibleCollections(identity: Identity): ReadonlySet<string> {
    return this.#visible.get(identity.role) ?? NOTHING;
  }
}

const isStatic = (t: Template | undefined) => t === undefined || t.kind === 'static';
const isFixedAction = (a: CompiledAction | undefined) =>
  a === undefined || (isStatic(a.where) && isStatic(a.check) && [...a.set.values()].every((s) => s.kind === 'literal'));

const isFunction = (t: Template | undefined) => t?.kind === 'function';
const callsFunctions = (c: CompiledCollection): boolean =>
  isFunction(c.read?.where) ||
  [c.create, c.update, c.delete].some((a) => a !== undefined && (isFunction(a.where) || isFunction(a.check)));

function isFixed(c: CompiledCollection): boolean {
  return isStatic(c.read?.where) && isFixedAction(c.create) && isFixedAction(c.update) && isFixedAction(c.delete);
}

const resolve = (t: Template | undefined, identity: Identity) => (t ? resolveFilter(t, identity) : undefined);

function resolveScope(c: CompiledCollection, identity: Identity): CollectionScope {
  const readWhere = resolve(c.read?.where, identity);
  const read: ReadScope | undefined = c.read && Object.freeze({ where: readWhere, visible: c.read.visible });
  const action = (a: CompiledAction | undefined, rows: Filter | undefined) => a && resolveAction(a, identity, rows);
  return Object.freeze({
    collection: c.collection,
    read,
    create: action(c.create, undefined),
    update: action(c.update, readWhere),
    delete: action(c.delete, readWhere),
    evaluate: c.evaluate
      ? Object.freeze({ where: readWhere, check: undefined, set: NO_SET, missing: NO_FIELDS, writable: NOTHING })
      : undefined,
  });
}

/** `rows`: read's where, which every action on existing rows meets too. */
function resolveAction(a: CompiledAction, identity: Identity, rows: Filter | undefined): ActionScope {
  const set = new Map<string, SetValue>();
  const missing: string[] = [];
  for (const [name, slot] of a.set) {
    const value =
      slot.kind === 'literal' ? slot.value : (claimScalar(identity, slot.claim, slot.column) ?? MISSING_CLAIM);
    if (value === MISSING_CLAIM) missing.push(name);
    set.set(name, value);
  }
  return Object.freeze({
    where: allOf(rows, resolve(a.where, identity)),
    check: resolve(a.check, identity),
    set: set.size === 0 ? NO_SET : set,
    missing: Object.freeze(missing),
    writable: a.writable,
  });
}
