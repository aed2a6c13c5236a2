import type { Paging } from '@colapi/query-ast';
import { rfc3986Uri } from '@colapi/wire-format';

export interface PagingLinks {
  self: string;
  first: string;
  last: string | null;
  prev: string | null;
  next: string | null;
}

/** Percent-encodes a parameter name but keeps its brackets readable: `page[number]`, as JSON:API writes it. */
export const encodeName = (name: string) =>
  /^[\w.~[\]-]*$/.test(name) ? name : encodeURIComponent(name).replace(/%5B/g, '[').replace(/%5D/g, ']');

/**
 * The URL of another page of the same request: `page[number]` and `page[size]` set as URLSearchParams.set
 * would (the first in place, later ones dropped, appended when absent), every other parameter kept. The
 * query is taken apart and encoded once for all the links of a document.
 */
function pageUrls(url: URL): (number: number, size: number) => string {
  // The path as the client sent it may hold what a URI may not (`|`, `^`): the parser keeps those.
  const prefix = `${rfc3986Uri(url.origin + url.pathname)}?`;
  const pairs = [...url.searchParams].map(([k, v]) => [k, `${encodeName(k)}=${encodeURIComponent(v)}`] as const);
  return (number, size) => {
    const parts: string[] = [];
    let numberSet = false;
    let sizeSet = false;
    for (const [name, text] of pairs) {
      if (name === 'page[number]') {
        if (!numberSet) parts.push(`page[number]=${number}`);
        numberSet = true;
      } else if (name === 'page[size]') {
        if (!sizeSet) parts.push(`page[size]=${size}`);
        sizeSet = true;
      } else parts.push(text);
    }
    if (!numberSet) parts.push(`page[number]=${number}`);
    if (!sizeSet) parts.push(`page[size]=${size}`);
    return prefix + parts.join('&');
  };
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
  const pageUrl = pageUrls(url);
  return {
    // The query as the client sent it, made a valid URI: the URL parser leaves `{`, `|` or a stray `%` in it.
    self: rfc3986Uri(url.href),
    first: pageUrl(1, size),
    last: last === undefined ? null : pageUrl(last, size),
    prev: number > 1 ? pageUrl(Math.min(number - 1, last ?? number - 1), size) : null,
    next: hasNext ? pageUrl(number + 1, size) : null,
  };
}

/**
 * `pagingLinks` as JSON text, exactly as JSON.stringify writes it: a page's document is text already, and the
 * serializer's walk over the object had cost more than writing it. Every link is an RFC 3986 URI
 * (rfc3986Uri, encodeURIComponent), which holds no character that JSON escapes: each goes between quotes as
 * it is.
 */
export function pagingLinksText(url: URL, paging: Paging, total: number | undefined, returned: number): string {
  const { self, first, last, prev, next } = pagingLinks(url, paging, total, returned);
  const link = (uri: string | null) => (uri === null ? 'null' : `"${uri}"`);
  return `{"self":"${self}","first":"${first}","last":${link(last)},"prev":${link(prev)},"next":${link(next)}}`;
}
