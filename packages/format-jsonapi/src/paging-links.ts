import type { Paging } from '@colapi/query-ast';

export interface PagingLinks {
  self: string;
  first: string;
  last: string | null;
  prev: string | null;
  next: string | null;
}

/** Percent-encodes a parameter name but keeps its brackets readable: `page[number]`, as JSON:API writes it. */
const encodeName = (name: string) => encodeURIComponent(name).replace(/%5B/g, '[').replace(/%5D/g, ']');

function pageUrl(url: URL, number: number, size: number): string {
  const params = new URLSearchParams(url.search);
  params.set('page[number]', String(number));
  params.set('page[size]', String(size));
  const query = [...params].map(([k, v]) => `${encodeName(k)}=${encodeURIComponent(v)}`).join('&');
  return `${url.origin}${url.pathname}?${query}`;
}

/**
 * Links of a page: every other query parameter of the request is kept. Without a total (`total: none`)
 * `last` is null and `next` is given while the page is full.
 */
export function pagingLinks(url: URL, paging: Paging, total: number | undefined, returned: number): PagingLinks {
  const size = paging.size ?? paging.limit ?? Math.max(returned, 1);
  const number = paging.number ?? 1;
  const last = total === undefined ? undefined : Math.max(1, Math.ceil(total / size));
  const hasNext = last === undefined ? returned >= size : number < last;
  return {
    self: url.toString(),
    first: pageUrl(url, 1, size),
    last: last === undefined ? null : pageUrl(url, last, size),
    prev: number > 1 ? pageUrl(url, Math.min(number - 1, last ?? number - 1), size) : null,
    next: hasNext ? pageUrl(url, number + 1, size) : null,
  };
}
