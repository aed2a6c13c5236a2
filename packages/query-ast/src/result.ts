import type { CursorEnds } from './cursor-paging.js';
import type { CollectionSchema } from '@colapi/schema';
import type { Paging } from './read-query.js';

/** Linkage of one relationship: to-one an id or null, to-many a list of ids. */
export type Linkage = string | null | readonly string[];

/**
 * One resource as the executor loaded it: its decoded column and virtual values, the linkage of the
 * relationships it was asked for, and the related resources it was asked to include.
 */
export interface ResourceNode {
  /** The collection it is shown as: the requested one for primary data, the canonical one for related. */
  readonly collection: CollectionSchema;
  readonly id: string;
  readonly values: Readonly<Record<string, unknown>>;
  readonly linkage: ReadonlyMap<string, Linkage>;
  readonly included: ReadonlyMap<string, ResourceNode | null | readonly ResourceNode[]>;
}

/** What running an operation produced, before any wire format shapes it. */
export type OperationResult =
  | {
      readonly kind: 'collection';
      readonly resources: readonly ResourceNode[];
      readonly total?: number;
      readonly paging: Paging;
      /** For a page read by cursor: whether rows lie before and after it, and a range cut short. */
      readonly ends?: CursorEnds;
    }
  | { readonly kind: 'resource'; readonly resource: ResourceNode | null; readonly created?: boolean }
  | {
      readonly kind: 'linkage';
      readonly target: CollectionSchema;
      readonly linkage: Linkage;
      /** The resource whose relationship it is, when read: its `included` holds what the request included. */
      readonly owner?: ResourceNode;
    }
  | { readonly kind: 'values'; readonly values: readonly unknown[] }
  | { readonly kind: 'count'; readonly count: number }
  | { readonly kind: 'no-content' };
