import type { Paging, ResourceNode } from '@colapi/query-ast';
import { rfc3986Uri } from '@colapi/wire-format';
import { instanceObject, type InstanceObject } from './instance-object.js';

/** The list object of Format B: never a bare JSON list at the top, for the old JSON-hijacking reason. */
export interface ListObject {
  num_results: number;
  total_pages: number;
  page: number;
  objects: InstanceObject[];
}

export interface PageCounts {
  /** Resources in the search window. */
  readonly results: number;
  readonly pages: number;
  readonly page: number;
  readonly size: number;
}

/**
 * How many results and pages a list has. The executor counts every row the filter matches; a search's
 * `limit`/`offset` window cuts that down. Without a count (a collection registered with `total: 'none'`)
 * the rows seen so far are the best lower bound.
 */
export function pageCounts(paging: Paging, total: number | undefined, returned: number): PageCounts {
  const window = paging.window ?? { offset: 0 };
  const size = paging.size ?? paging.limit ?? Math.max(returned, 1);
  const page = paging.number ?? 1;
  const results =
    total === undefined
      ? (page - 1) * size + returned
      : Math.max(0, Math.min(total - window.offset, window.limit ?? Number.POSITIVE_INFINITY));
  return { results, pages: Math.ceil(results / size), page, size };
}

export function listObject(resources: readonly ResourceNode[], counts: PageCounts): ListObject {
  return {
    num_results: counts.results,
    total_pages: counts.pages,
    page: counts.page,
    objects: resources.map(instanceObject),
  };
}

function pageUrl(url: URL, page: number, size: number): string {
  const params = new URLSearchParams(url.search);
  params.delete('page');
  params.delete('results_per_page');
  params.set('page', String(page));
  params.set('results_per_page', String(size));
  // URLSearchParams writes a valid query; the path is as the client sent it, which may hold `|` or `^`.
  return `${rfc3986Uri(url.origin + url.pathname)}?${params}`;
}

/**
 * The longest `Link` header sent. Each link repeats the request's query, so a long `q` (the URL may be up to
 * 8,192 characters) would make it four times as long: past 16 KB of headers Node's HTTP client refuses the
 * answer, and proxies refuse far less (nginx's default buffer for a header line is 8 KB). The list object's
 * `page` and `total_pages` tell the same, so past this length the header is left out.
 */
export const MAX_LINK_HEADER = 8192;

/**
 * The `Link` header of a page (RFC 8288): first and last always, prev and next when such a page exists;
 * undefined when it would be longer than MAX_LINK_HEADER.
 * Every other query parameter of the request (`q` above all) is kept; URLSearchParams percent-encodes
 * commas, so a client may split the header on them.
 */
export function linkHeader(url: URL, counts: PageCounts): string | undefined {
  const last = Math.max(1, counts.pages);
  const links: [string, number][] = [
    ['first', 1],
    ['last', last],
  ];
  if (counts.page > 1) links.push(['prev', Math.min(counts.page - 1, last)]);
  if (counts.page < last) links.push(['next', counts.page + 1]);
  const header = links.map(([rel, page]) => `<${pageUrl(url, page, counts.size)}>; rel="${rel}"`).join(', ');
  return header.length <= MAX_LINK_HEADER ? header : undefined;
}
