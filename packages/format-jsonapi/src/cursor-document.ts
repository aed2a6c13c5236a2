import type { CollectionSchema } from '@colapi/schema';
import type { CursorEnds, CursorPaging, ResourceNode } from '@colapi/query-ast';
import { type HttpRequest, type HttpResponse, jsonTextResponse, rfc3986Uri } from '@colapi/wire-format';
import { CURSOR_JSONAPI, CURSOR_MEDIA_TYPE } from './cursor-profile.js';
import { cursorContext } from './cursor-query.js';
import type { CursorSigner, CursorValues } from './cursor-signer.js';
import { jsonString } from './json-text.js';
import { encodeName } from './paging-links.js';

const PAGE_PARAMETERS = new Set(['page[after]', 'page[before]', 'page[number]']);

/**
 * The URL of another page of the same list: every parameter kept in place (`page[size]` too) but the
 * cursors, then the new cursor.
 */
function pageUrl(url: URL): (cursor?: readonly [name: string, value: string]) => string {
  const prefix = rfc3986Uri(url.origin + url.pathname);
  const kept = [...url.searchParams]
    .filter(([name]) => !PAGE_PARAMETERS.has(name))
    .map(([k, v]) => `${encodeName(k)}=${encodeURIComponent(v)}`);
  return (cursor) => {
    const parts = cursor ? [...kept, `${cursor[0]}=${encodeURIComponent(cursor[1])}`] : kept;
    return parts.length > 0 ? `${prefix}?${parts.join('&')}` : prefix;
  };
}

/** The position of a resource in the cursor's order: its values of the sort's fields, the key last. */
const positionOf = (node: ResourceNode, cursor: CursorPaging): CursorValues =>
  cursor.keys.map((k) => (node.values[k.field.column] ?? null) as CursorValues[number]);

/** What a page tells of its size and total in `meta.page`, as the profile names them. */
function pageMeta(collection: CollectionSchema, cursor: CursorPaging, ends: CursorEnds, total?: number): string {
  const members: string[] = [];
  if (total !== undefined) {
    members.push(
      collection.cursorTotal === 'estimated' ? `"estimatedTotal":{"bestGuess":${total}}` : `"total":${total}`,
    );
  }
  if (cursor.range) members.push(`"rangeTruncated":${ends.truncated}`);
  return `{"page":{${members.join(',')}}}`;
}

export interface CursorPage {
  readonly resources: readonly ResourceNode[];
  readonly cursor: CursorPaging;
  readonly ends: CursorEnds;
  readonly total?: number;
}

/**
 * A page read by cursor, as the profile shapes it: each item's `meta.page.cursor`, `links.prev` and
 * `links.next` always present (null where no row lies that way), the profile named in `jsonapi` and in the
 * media type. `resource` writes one resource object with extra members; `included` the compound part.
 */
export function cursorDocument(
  request: HttpRequest,
  collection: CollectionSchema,
  page: CursorPage,
  signer: CursorSigner,
  resource: (node: ResourceNode, members: string) => string,
  included: string,
): HttpResponse {
  const { resources, cursor, ends } = page;
  const context = cursorContext(request);
  const cursors = resources.map((node) => signer.sign(context, positionOf(node, cursor)));
  let data = '';
  resources.forEach((node, i) => {
    data += `${i > 0 ? ',' : ''}${resource(node, `,"meta":{"page":{"cursor":${jsonString(cursors[i]!)}}}`)}`;
  });
  const url = pageUrl(request.url);
  const link = (uri: string | null) => (uri === null ? 'null' : jsonString(uri));
  const first = cursors[0];
  const last = cursors[cursors.length - 1];
  const prev = ends.before && first !== undefined ? url(['page[before]', first]) : null;
  const next = ends.after && last !== undefined ? url(['page[after]', last]) : null;
  const links = `{"self":${jsonString(rfc3986Uri(request.url.href))},"first":${jsonString(url())},"prev":${link(prev)},"next":${link(next)}}`;
  const meta = pageMeta(collection, cursor, ends, page.total);
  const body = `{"jsonapi":${JSON.stringify(CURSOR_JSONAPI)},"data":[${data}],"links":${links},"meta":${meta}${included}}`;
  return jsonTextResponse(200, { 'content-type': CURSOR_MEDIA_TYPE }, body);
}
