import type { Filter, ResourceWrite } from '@colapi/query-ast';
import type { CollectionSchema } from '@colapi/schema';

/** What a write does to the rows of its collection. */
export type WriteAction = 'create' | 'update';

/**
 * The caller's rules on writes, which the executor applies on every write path (access control; absent
 * without it). Which rows a statement may touch is the compiler's part (row scopes); these are the rest.
 */
export interface WriteRules {
  /**
   * The write as it will run: fields the caller may not write refused (403, naming the member), the
   * values the rules set put in. Throws for a write it may not make at all.
   */
  write(action: WriteAction, collection: CollectionSchema, write: ResourceWrite): ResourceWrite;
  /** The same for the bare values of a bulk update. */
  values(collection: CollectionSchema, values: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>>;
  /**
   * What every row the write leaves must meet, checked in its transaction before COMMIT: the action's
   * `check`, and for an update the rows it may update (a row must not leave them). Undefined: nothing.
   */
  after(action: WriteAction, collection: CollectionSchema): Filter | undefined;
}
