import type { Filter, ScalarValue } from '@colapi/query-ast';
import type { CollectionSchema } from '@colapi/schema';

/**
 * The value of a `set` field whose claim the token lacks (or holds as null, or of a type the column
 * refuses): the write must be refused. Never written as null.
 */
export const MISSING_CLAIM: unique symbol = Symbol('@colapi/access: missing claim');

/** A `set` field's value: a claim's or a literal's, coerced to the column (null only from a literal). */
export type SetValue = ScalarValue | null | typeof MISSING_CLAIM;

/** What a role reads of a collection. */
export interface ReadScope {
  /** The rows that exist for the role; undefined for all. Claims are resolved to values; FALSE for none. */
  readonly where: Filter | undefined;
  /**
   * The fields (columns, relationships, virtual attributes) that exist for the role: the key always, and no
   * relationship to a collection the role cannot read.
   */
  readonly visible: ReadonlySet<string>;
}

/** What a role may do by one of create, update, delete and evaluate. */
export interface ActionScope {
  /**
   * The rows it applies to, read's `where` included (update, delete, evaluate); undefined for all. Always
   * undefined for create.
   */
  readonly where: Filter | undefined;
  /** What must hold of the row once written (create, update); undefined for nothing. */
  readonly check: Filter | undefined;
  /** Fields the server writes, whatever the client sent (create, update). */
  readonly set: ReadonlyMap<string, SetValue>;
  /** The `set` fields holding MISSING_CLAIM: when any, refuse the write. */
  readonly missing: readonly string[];
  /** Fields (columns and relationships, never the key) the client may write; empty for delete and evaluate. */
  readonly writable: ReadonlySet<string>;
}

/** Everything one identity may do with one collection. An action it may not take is undefined. */
export interface CollectionScope {
  readonly collection: CollectionSchema;
  /** Undefined for a write-only collection (a role with `create` and no `read`). */
  readonly read: ReadScope | undefined;
  readonly create: ActionScope | undefined;
  readonly update: ActionScope | undefined;
  readonly delete: ActionScope | undefined;
  /** Aggregates over read's rows; a function may use the fields of `read.visible` only. */
  readonly evaluate: ActionScope | undefined;
}
