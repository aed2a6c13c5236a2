import type { Row } from './driver.js';

/** The JSON:API documents of the baseline, written out by hand for its few endpoints. */

export const JSONAPI = { version: '1.0' };

/** `2020-01-02 03:04:05.250000` (any driver's form) → `2020-01-02T03:04:05.25`. */
export function timestamp(v: unknown): string | null {
  return v === null || v === undefined ? null : time(String(v).replace(' ', 'T'));
}

/** Drops the trailing zeros of a fraction of seconds, and the point when nothing is left. */
export function time(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const s = String(v);
  const dot = s.indexOf('.');
  if (dot < 0) return s;
  const frac = s.slice(dot + 1, dot + 7).replace(/0+$/, '');
  return frac ? `${s.slice(0, dot)}.${frac}` : s.slice(0, dot);
}

const ids = (type: string, list: readonly unknown[] | undefined) =>
  (list ?? []).map((id) => ({ type, id: String(id) }));
const one = (type: string, id: unknown) => (id === null || id === undefined ? null : { type, id: String(id) });

function relationship(self: string, name: string, data: unknown) {
  return { links: { self: `${self}/relationships/${name}`, related: `${self}/${name}` }, data };
}

export function person(base: string, p: Row, articles?: unknown[], comments?: unknown[]) {
  const self = `${base}/person/${p.id}`;
  const age = p.age as number | null;
  return {
    type: 'person',
    id: String(p.id),
    attributes: {
      name: p.name,
      age,
      other: p.other,
      birthday: p.birthday,
      birth_datetime: timestamp(p.birth_datetime),
      bedtime: time(p.bedtime),
      is_minor: age !== null && age <= 18,
    },
    relationships: {
      articles: relationship(self, 'articles', ids('article', articles)),
      comments: relationship(self, 'comments', ids('comment', comments)),
    },
    links: { self },
  };
}

export function article(base: string, a: Row, comments?: unknown[], tags?: unknown[]) {
  const self = `${base}/article/${a.id}`;
  return {
    type: 'article',
    id: String(a.id),
    attributes: { title: a.title, publishtime: timestamp(a.publishtime) },
    relationships: {
      author: relationship(self, 'author', one('person', a.author_id)),
      comments: relationship(self, 'comments', ids('comment', comments)),
      tags: relationship(self, 'tags', ids('tag', tags)),
    },
    links: { self },
  };
}

export function comment(base: string, c: Row) {
  const self = `${base}/comment/${c.id}`;
  return {
    type: 'comment',
    id: String(c.id),
    attributes: { content: c.content },
    relationships: {
      article: relationship(self, 'article', one('article', c.article_id)),
      author: relationship(self, 'author', one('person', c.author_id)),
    },
    links: { self },
  };
}

/** A new tag: no article has it yet. */
export function tag(base: string, t: Row) {
  const self = `${base}/tag/${t.id}`;
  return {
    type: 'tag',
    id: String(t.id),
    attributes: { name: t.name },
    relationships: { articles: relationship(self, 'articles', []) },
    links: { self },
  };
}

/** `page[number]` and `page[size]` set in the request's query; brackets stay readable as JSON:API writes them. */
function pageUrl(url: URL, number: number, size: number): string {
  const params = new URLSearchParams(url.search);
  params.set('page[number]', String(number));
  params.set('page[size]', String(size));
  const parts: string[] = [];
  for (const [k, v] of params)
    parts.push(`${encodeURIComponent(k).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(v)}`);
  return `${url.origin}${url.pathname}?${parts.join('&')}`;
}

export function pageLinks(url: URL, number: number, size: number, total: number) {
  const last = Math.max(1, Math.ceil(total / size));
  return {
    self: url.toString(),
    first: pageUrl(url, 1, size),
    last: pageUrl(url, last, size),
    prev: number > 1 ? pageUrl(url, Math.min(number - 1, last), size) : null,
    next: number < last ? pageUrl(url, number + 1, size) : null,
  };
}
