import type { CollectionScope, AccessPolicy } from '@colapi/access';
import { FALSE } from '@colapi/access';
import type { Identity } from '@colapi/auth';
import type { Filter } from '@colapi/query-ast';
import type { ModelSchema, Registry } from '@colapi/schema';
import type { RowScopes } from '@colapi/sql-compiler';

/**
 * One request's caller: who it is, and the scope of each collection resolved from its claims once, on
 * first use. The row scopes it hands the compiler answer per model through the collection that stands for
 * the model (`registry.canonical`), the one relationships lead to.
 */
export class Caller implements RowScopes {
  readonly #scopes = new Map<string, CollectionScope | undefined>();
  /** Callers of one role share their kept statements (RowScopes.key); each is bound with its own claims. */
  readonly key: string;

  constructor(
    readonly identity: Identity,
    private readonly policy: AccessPolicy,
    private readonly registry: Registry,
  ) {
    this.key = identity.role;
  }

  /** The caller's scope of a collection; undefined when its role has no rule for it. */
  scope(collection: string): CollectionScope | undefined {
    if (this.#scopes.has(collection)) return this.#scopes.get(collection);
    const scope = this.policy.scope(this.identity, collection);
    this.#scopes.set(collection, scope);
    return scope;
  }

  private ofModel(model: ModelSchema): CollectionScope | undefined {
    return this.scope(this.registry.canonical(model.name).name);
  }

  /** A model whose collection the role may not read has no row for it: FALSE, never every row. */
  read(model: ModelSchema): Filter | undefined {
    const read = this.ofModel(model)?.read;
    return read ? read.where : FALSE;
  }

  update(model: ModelSchema): Filter | undefined {
    const update = this.ofModel(model)?.update;
    return update ? update.where : FALSE;
  }

  delete(model: ModelSchema): Filter | undefined {
    const remove = this.ofModel(model)?.delete;
    return remove ? remove.where : FALSE;
  }
}
