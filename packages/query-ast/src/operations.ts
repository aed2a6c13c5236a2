import type { CollectionSchema } from '@colapi/schema';
import type { Filter } from './filter.js';
import type { ReadQuery } from './read-query.js';

/** An aggregate over a column, e.g. avg(age). `count` of the key counts rows. */
export interface FunctionCall {
  readonly name: string;
  readonly column: string;
}

/** Where a read starts: a collection, or the resources related to one resource. */
export interface RelatedScope {
  readonly owner: CollectionSchema;
  readonly ownerId: string;
  readonly relation: string;
}

/** Field values and relationship linkage of a resource to create or update. */
export interface ResourceWrite {
  /** Column values, already checked against column types; NowValue for CURRENT_TIMESTAMP & co. */
  readonly values: Readonly<Record<string, unknown>>;
  /** Linkage to set: to-one an id or null, to-many a list of ids. */
  readonly relationships: Readonly<Record<string, string | null | readonly string[]>>;
}

/** The format-neutral operations a wire format decodes requests into and the executor runs. */
export type Operation =
  | { readonly kind: 'list'; readonly collection: CollectionSchema; readonly query: ReadQuery; readonly scope?: RelatedScope }
  | { readonly kind: 'fetch'; readonly collection: CollectionSchema; readonly id: string; readonly query: ReadQuery; readonly scope?: RelatedScope }
  | { readonly kind: 'fetch-related-one'; readonly collection: CollectionSchema; readonly scope: RelatedScope; readonly query: ReadQuery }
  | { readonly kind: 'fetch-linkage'; readonly collection: CollectionSchema; readonly id: string; readonly relation: string }
  | {
      readonly kind: 'evaluate';
      readonly collection: CollectionSchema;
      readonly functions: readonly FunctionCall[];
      readonly filter?: Filter;
    }
  | { readonly kind: 'create'; readonly collection: CollectionSchema; readonly id?: string; readonly write: ResourceWrite; readonly query: ReadQuery }
  | { readonly kind: 'update'; readonly collection: CollectionSchema; readonly id: string; readonly write: ResourceWrite; readonly query: ReadQuery }
  | { readonly kind: 'delete'; readonly collection: CollectionSchema; readonly id: string }
  | {
      readonly kind: 'update-linkage';
      readonly collection: CollectionSchema;
      readonly id: string;
      readonly relation: string;
      readonly mode: 'replace' | 'add' | 'remove';
      readonly ids: string | null | readonly string[];
    };

export type OperationKind = Operation['kind'];
