import { ApiError } from '@colapi/query-ast';
import type { HttpRequest } from '@colapi/wire-format';
import { JSONAPI_MEDIA_TYPE, parseRanges, quality, splitOutsideQuotes, type MediaRange } from './media-type.js';

/** The extensions and profiles a path of the server supports, by URI. */
export interface MediaTypeSupport {
  readonly extensions: ReadonlySet<string>;
  readonly profiles: ReadonlySet<string>;
}

/** What JSON:API 1.1's negotiation settled for one request. */
export interface Negotiated {
  /** The extensions the request's body applies (its Content-Type's `ext`), all supported. */
  readonly ext: readonly string[];
  /**
   * The extensions the chosen Accept entry allows in the answer; undefined when a wildcard or no Accept
   * chose the JSON:API type, which then allows any.
   */
  readonly acceptedExt: readonly string[] | undefined;
  /** The supported profiles the client asked for (the chosen Accept entry's `profile`), in its order. */
  readonly profiles: readonly string[];
}

/** One media type parameter's value, without its quotes and escapes (RFC 9110 §5.6.4). */
function unquoted(value: string): string {
  if (!value.startsWith('"')) return value;
  return value.slice(1, value.endsWith('"') && value.length > 1 ? -1 : undefined).replace(/\\(.)/g, '$1');
}

/** The `ext` and `profile` parameters of a media range; undefined when it carries any other parameter. */
function extAndProfile(params: readonly string[]): { ext: string[]; profile: string[] } | undefined {
  const out = { ext: [] as string[], profile: [] as string[] };
  for (const p of params) {
    const eq = p.indexOf('=');
    const name = (eq < 0 ? p : p.slice(0, eq)).trim().toLowerCase();
    if (name !== 'ext' && name !== 'profile') return undefined;
    // JSON:API 1.1: a space-separated list of URIs.
    out[name].push(
      ...unquoted(eq < 0 ? '' : p.slice(eq + 1).trim())
        .split(/\s+/)
        .filter(Boolean),
    );
  }
  return out;
}

const UNSUPPORTED = 'Unsupported Media Type';

/**
 * JSON:API 1.1's content negotiation on one path: `ext` and `profile` are the only media type parameters
 * accepted; an unsupported `ext` in Content-Type is 415, an Accept whose every JSON:API entry names an
 * unsupported `ext` (or another parameter) is 406; an unknown profile is ignored. A wildcard or no Accept
 * allows the JSON:API type, as in 1.0. Among usable Accept entries, one whose `ext` names `prefer` (the
 * extension the path answers with) is chosen first, whatever its weight above 0.
 */
export function negotiate11(request: HttpRequest, support: MediaTypeSupport, prefer?: string): Negotiated {
  const ext = request.hasBody ? contentExtensions(request, support) : [];
  const header = request.headers.accept;
  if (!header) return { ext, acceptedExt: undefined, profiles: [] };
  const ranges = parseRanges(header);
  const jsonapi = ranges.filter((r) => r.type === JSONAPI_MEDIA_TYPE && r.q > 0);
  let chosen: { range: MediaRange; ext: string[]; profile: string[] } | undefined;
  // The usable entry of highest weight (the first on a tie); one applying `prefer` before any other.
  const rank = (c: { range: MediaRange; ext: string[] }) =>
    (prefer !== undefined && c.ext.includes(prefer) ? 2 : 1) + c.range.q;
  for (const range of jsonapi) {
    const params = extAndProfile(range.params);
    if (!params || params.ext.some((e) => !support.extensions.has(e))) continue;
    const candidate = { range, ...params };
    if (!chosen || rank(candidate) > rank(chosen)) chosen = candidate;
  }
  if (chosen) {
    const profiles = chosen.profile.filter((p) => support.profiles.has(p));
    return { ext, acceptedExt: chosen.ext, profiles };
  }
  // A JSON:API entry was sent, and none fits: the wildcards beside it do not stand in for it.
  if (jsonapi.length === 0 && quality(ranges, JSONAPI_MEDIA_TYPE) > 0)
    return { ext, acceptedExt: undefined, profiles: [] };
  throw new ApiError(
    406,
    'Not Acceptable',
    jsonapi.length > 0
      ? `every ${JSONAPI_MEDIA_TYPE} in Accept carries a media type parameter other than ext and profile, or an extension this path does not support${support.extensions.size ? ` (it supports ${[...support.extensions].join(', ')})` : ''}`
      : `Accept must allow ${JSONAPI_MEDIA_TYPE}`,
  );
}

/** The extensions of a body's Content-Type; 415 for another type, another parameter or an unsupported extension. */
function contentExtensions(request: HttpRequest, support: MediaTypeSupport): string[] {
  const header = request.headers['content-type'];
  if (!header) throw new ApiError(415, UNSUPPORTED, `a request body must have Content-Type ${JSONAPI_MEDIA_TYPE}`);
  const [type = '', ...rest] = splitOutsideQuotes(header, ';');
  if (type.toLowerCase() !== JSONAPI_MEDIA_TYPE)
    throw new ApiError(415, UNSUPPORTED, `Content-Type must be ${JSONAPI_MEDIA_TYPE}, not ${type}`);
  const params = extAndProfile(rest.filter(Boolean));
  if (!params)
    throw new ApiError(
      415,
      UNSUPPORTED,
      `Content-Type ${JSONAPI_MEDIA_TYPE} may carry only the ext and profile parameters`,
    );
  const unsupported = params.ext.find((e) => !support.extensions.has(e));
  if (unsupported !== undefined)
    throw new ApiError(415, UNSUPPORTED, `the extension ${unsupported} is not supported on this path`);
  return params.ext;
}

/**
 * The supported profiles a request asks for in Accept, for a feature that applies a profile (cursor
 * pagination): empty when it asks for none, or when its Accept would be refused.
 */
export function requestedProfiles(request: HttpRequest, support: MediaTypeSupport): readonly string[] {
  try {
    return negotiate11({ ...request, hasBody: false }, support).profiles;
  } catch {
    return [];
  }
}

/** The Content-Type of an answer that applies extensions or profiles: JSON:API 1.1 names them in it. */
export function appliedMediaType(ext: readonly string[], profiles: readonly string[] = []): string {
  let type = JSONAPI_MEDIA_TYPE;
  if (ext.length) type += `; ext="${ext.join(' ')}"`;
  if (profiles.length) type += `; profile="${profiles.join(' ')}"`;
  return type;
}

/** The `jsonapi` member of a document that uses a 1.1 feature. */
export function jsonApi11(ext: readonly string[], profiles: readonly string[] = []) {
  return {
    version: '1.1',
    ...(ext.length ? { ext: [...ext] } : {}),
    ...(profiles.length ? { profile: [...profiles] } : {}),
  };
}
