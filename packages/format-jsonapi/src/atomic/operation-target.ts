import { ApiError } from '@colapi/query-ast';
import type { HttpRequest } from '@colapi/wire-format';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const bad = (detail: string, pointer: string) => ApiError.badRequest(detail, { pointer });
const REF_MEMBERS = new Set(['type', 'id', 'lid', 'relationship']);

/** What an operation targets, from its `ref` or its `href`. */
export interface Target {
  readonly type: string;
  readonly id?: string;
  readonly lid?: string;
  readonly relationship?: string;
}

/** Reads the target of an `href`: a collection, a resource or a relationship under the API's prefix. */
export function hrefTarget(href: unknown, request: HttpRequest, pointer: string): Target {
  if (typeof href !== 'string') throw bad('href must be a string', pointer);
  let url: URL;
  try {
    url = new URL(href, request.url);
  } catch {
    throw bad(`href ${JSON.stringify(href)} is not a URL`, pointer);
  }
  const prefix = `${new URL(request.base).pathname.replace(/\/$/, '')}/`;
  if (url.search || url.hash || !url.pathname.startsWith(prefix))
    throw bad(`href must be a path of this API under ${prefix}, without a query`, pointer);
  const parts = url.pathname.slice(prefix.length).split('/').map(decodeURIComponent);
  const [type = '', id, word, relationship] = parts;
  const fits =
    type !== '' &&
    (parts.length === 1 || parts.length === 2 || (parts.length === 4 && word === 'relationships')) &&
    parts.every(Boolean);
  if (!fits) throw bad(`href must name a collection, a resource or a relationship of one: ${href}`, pointer);
  return { type, ...(id !== undefined ? { id } : {}), ...(relationship !== undefined ? { relationship } : {}) };
}

export function refTarget(ref: unknown, pointer: string): Target {
  if (!isObject(ref)) throw bad('ref must be an object {type, id or lid, relationship}', pointer);
  const unknown = Object.keys(ref).find((k) => !REF_MEMBERS.has(k));
  if (unknown !== undefined) throw bad(`"${unknown}" is not a member of ref`, `${pointer}/${unknown}`);
  if (typeof ref.type !== 'string') throw bad('ref needs a type', `${pointer}/type`);
  if (ref.id !== undefined && ref.lid !== undefined) throw bad('ref has both id and lid: give one', `${pointer}/lid`);
  for (const member of ['id', 'lid', 'relationship'] as const)
    if (ref[member] !== undefined && typeof ref[member] !== 'string')
      throw bad(`ref.${member} must be a string`, `${pointer}/${member}`);
  return ref as unknown as Target;
}
