import type { CollectionSchema } from '@colapi/schema';
import { ApiError, type Operation } from '@colapi/query-ast';
import type { HttpRequest } from '@colapi/wire-format';
import { strongMatch, tagCondition, weakMatch, type TagCondition } from './entity-tags.js';

/** The preconditions of a write, and the one row whose version they are compared with (none for a bulk write). */
export interface WritePreconditions {
  readonly ifMatch?: TagCondition;
  readonly ifNoneMatch?: TagCondition;
  readonly target?: { readonly collection: CollectionSchema; readonly id: string };
}

/** The row a write of one resource replaces: a PATCH/PUT or DELETE of it, or a change of one of its relationships. */
function targetOf(operation: Operation): WritePreconditions['target'] {
  switch (operation.kind) {
    case 'update':
    case 'delete':
    case 'update-linkage':
      return { collection: operation.collection, id: operation.id };
    default:
      return undefined;
  }
}

const failed = (header: string, detail: string) => new ApiError(412, 'Precondition Failed', detail, { header });

/**
 * What a write must check before it changes anything, or undefined when nothing. `If-Match` and
 * `If-None-Match` of a write of one resource are compared with its row's tag (rowTag) inside the write's
 * transaction (checkRowPreconditions). A create has no version a client could have read: its preconditions
 * are ignored and `requireIfMatch` spares it. A bulk update has no single version: under `requireIfMatch` it
 * needs `If-Match: *`, and a list of tags there is 412. `requireIfMatch` makes any other write without
 * `If-Match` 428, before any statement runs.
 */
export function writePreconditions(
  request: HttpRequest,
  operation: Operation,
  requireIfMatch: boolean,
): WritePreconditions | undefined {
  if (operation.kind === 'create') return undefined;
  const target = targetOf(operation);
  if (!target && operation.kind !== 'update-many') return undefined;
  const ifMatch = tagCondition(request.headers['if-match'], 'If-Match');
  const ifNoneMatch = tagCondition(request.headers['if-none-match'], 'If-None-Match');
  if (ifMatch === undefined && requireIfMatch) {
    throw new ApiError(
      428,
      'Precondition Required',
      target
        ? 'this server requires If-Match on every write: send the Resource-ETag of the resource as you last read it'
        : 'this server requires If-Match on every write: a bulk update takes If-Match: *',
      { header: 'If-Match' },
    );
  }
  if (!target) {
    if (ifMatch !== undefined && ifMatch !== '*')
      throw failed('If-Match', 'a bulk update has no single version: only If-Match: * applies to it');
    if (ifNoneMatch !== undefined)
      throw failed('If-None-Match', 'a bulk update has no single version: If-None-Match cannot hold');
    return undefined;
  }
  if (ifMatch === undefined && ifNoneMatch === undefined) return undefined;
  return { target, ...(ifMatch ? { ifMatch } : {}), ...(ifNoneMatch ? { ifNoneMatch } : {}) };
}

/**
 * RFC 9110 §13.2.2 on the current version of the row: a false `If-Match` (strong comparison; `*` holds for any
 * existing row) is 412, then a true `If-None-Match` (weak comparison; `*` matches any existing row) is 412 too,
 * since the request is no GET. A missing row never gets here: it is 404, as without preconditions (§13.2.1).
 */
export function checkRowPreconditions(preconditions: WritePreconditions, current: string): void {
  const { ifMatch, ifNoneMatch } = preconditions;
  if (ifMatch !== undefined && !strongMatch(ifMatch, current))
    throw failed('If-Match', 'the resource has changed since the version If-Match names: read it again');
  if (ifNoneMatch !== undefined && weakMatch(ifNoneMatch, current) !== undefined)
    throw failed('If-None-Match', 'the resource is at a version If-None-Match names');
}
