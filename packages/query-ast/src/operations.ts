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

/** A related resource named in a write: an existing one (optionally updated or deleted) or a new one. */
export type RelatedRef =
  | {
      readonly kind: 'existing';
      readonly id: string;
      /** Field values to set on it too (Format B replacement with updates). */
      readonly write?: ResourceWrite;
      /** With `remove`: delete it from its own table as well (Format B `__delete__`). */
      readonly delete?: boolean;
    }
  | { readonly kind: 'new'; readonly write: ResourceWrite };

/** A change to one relationship of a resource. */
export type RelationshipWrite =
  /** To-one: point at this resource, or at none. */
  | { readonly mode: 'set'; readonly target: RelatedRef | null }
  /** To-many: exactly these / these too / not these any more. */
  | { readonly mode: 'replace' | 'add' | 'remove'; readonly targets: readonly RelatedRef[] }
  /**
   * Either cardinality: this one resource leaves the relationship, and must be in it now (404 otherwise);
   * `id` is already a valid key of the target. Format B's `DELETE /<c>/<id>/<relation>/<related_id>`.
   */
  | { readonly mode: 'unlink'; readonly id: string };

/** Field values and relationship changes of a resource to create or update. */
export interface ResourceWrite {
  /** Column values, already checked against column types; NowValue for CURRENT_TIMESTAMP & co. */
  readonly values: Readonly<Record<string, unknown>>;
  readonly relationships: Readonly<Record<string, RelationshipWrite>>;
}

export const emptyWrite = (): ResourceWrite => ({ values: {}, relationships: {} });

/** The format-neutral operations a wire format decodes requests into and the executor runs. */
export type Operation =
  | {
      readonly kind: 'list';
      readonly collection: CollectionSchema;
      readonly query: ReadQuery;
      readonly scope?: RelatedScope;
    }
  | {
      readonly kind: 'fetch';
      readonly collection: CollectionSchema;
      readonly id: string;
      readonly query: ReadQuery;
      readonly scope?: RelatedScope;
    }
  | {
      readonly kind: 'fetch-related-one';
      readonly collection: CollectionSchema;
      readonly scope: RelatedScope;
      readonly query: ReadQuery;
    }
  /** `query` as of the owner's collection: its include paths start with `relation` (JSON:API's `comments.author`). */
  | {
      readonly kind: 'fetch-linkage';
      readonly collection: CollectionSchema;
      readonly id: string;
      readonly relation: string;
      readonly query: ReadQuery;
    }
  | {
      readonly kind: 'evaluate';
      readonly collection: CollectionSchema;
      readonly functions: readonly FunctionCall[];
      readonly filter?: Filter;
    }
  | {
      readonly kind: 'create';
      readonly collection: CollectionSchema;
      readonly id?: string;
      readonly write: ResourceWrite;
      readonly query: ReadQuery;
    }
  | {
      readonly kind: 'update';
      readonly collection: CollectionSchema;
      readonly id: string;
      readonly write: ResourceWrite;
      readonly query: ReadQuery;
    }
  /** Sets the same values on every resource the filter matches (all without one); answers the count. */
  | {
      readonly kind: 'update-many';
      readonly collection: CollectionSchema;
      readonly filter?: Filter;
      readonly values: Readonly<Record<string, unknown>>;
    }
  | { readonly kind: 'delete'; readonly collection: CollectionSchema; readonly id: string }
  | {
      readonly kind: 'update-linkage';
      readonly collection: CollectionSchema;
      readonly id: string;
      readonly relation: string;
      readonly change: RelationshipWrite;
    };

export type OperationKind = Operation['kind'];
