import { ApiError, type ErrorSource } from '@colapi/query-ast';
import { JSONAPI_MEDIA_TYPE } from './media-type.js';

/** The JSON:API profile of cursor pagination, as the server names it in `Content-Type` and `jsonapi.profile`. */
export const CURSOR_PROFILE = 'https://jsonapi.org/profiles/ethanresnick/cursor-pagination';

/** The media type of a document that applies the profile. */
export const CURSOR_MEDIA_TYPE = `${JSONAPI_MEDIA_TYPE}; profile="${CURSOR_PROFILE}"`;

/** The `jsonapi` member of such a document: a profile is a JSON:API 1.1 feature. */
export const CURSOR_JSONAPI = { version: '1.1', profile: [CURSOR_PROFILE] } as const;

/** The error types the profile defines, each an URI under the profile's own. */
export type CursorErrorType = 'max-size-exceeded' | 'invalid-parameter-value' | 'unsupported-sort';

/** An error the profile defines: it carries its type in `links.type`, and the profile's media type. */
export class CursorError extends ApiError {
  readonly links: { readonly type: string };
  readonly meta?: Readonly<Record<string, unknown>>;

  constructor(type: CursorErrorType, detail: string, source: ErrorSource, meta?: Record<string, unknown>) {
    super(400, 'Bad Request', detail, source, { 'content-type': CURSOR_MEDIA_TYPE });
    this.links = { type: `${CURSOR_PROFILE}/${type}` };
    if (meta) this.meta = meta;
  }
}

// The profile's URI as clients may write it: with or without `www`, the scheme http, a trailing slash.
const PROFILE_URI = /^https?:\/\/(?:www\.)?jsonapi\.org\/profiles\/ethanresnick\/cursor-pagination\/?$/i;

/**
 * Whether `Accept` asks for the profile: a JSON:API entry, not refused with `q=0`, whose `profile`
 * parameter (a space-separated list of URIs) names it. Negotiation proper is media-type.ts's; this only
 * reads the wish.
 */
export function asksCursorProfile(accept: string | undefined): boolean {
  // Most requests never mention it: one substring search decides for them.
  if (!accept?.includes('cursor-pagination')) return false;
  for (const entry of accept.split(',')) {
    const [type = '', ...params] = entry.split(';').map((s) => s.trim());
    if (type.toLowerCase() !== JSONAPI_MEDIA_TYPE) continue;
    let asked = false;
    let refused = false;
    for (const param of params) {
      const eq = param.indexOf('=');
      const name = param.slice(0, eq).trim().toLowerCase();
      const value = param
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
      if (name === 'q' && Number(value) === 0) refused = true;
      if (name === 'profile' && value.split(/\s+/).some((uri) => PROFILE_URI.test(uri))) asked = true;
    }
    if (asked && !refused) return true;
  }
  return false;
}
