import { ApiError } from '@colapi/query-ast';
import type { HttpRequest } from '@colapi/wire-format';

export const JSONAPI_MEDIA_TYPE = 'application/vnd.api+json';

export interface MediaRange {
  readonly type: string;
  /** Media type parameters, `q` excluded (it is an accept parameter). */
  readonly params: readonly string[];
  readonly q: number;
}

/** Splits a header at `separator`, except inside quoted strings (`ext="a,b"` is one parameter). */
export function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted && ch === '\\' && i + 1 < text.length) {
      current += ch + text[++i];
      continue;
    }
    if (ch === '"') quoted = !quoted;
    if (ch === separator && !quoted) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts.map((s) => s.trim());
}

export function parseRanges(header: string): MediaRange[] {
  return splitOutsideQuotes(header, ',')
    .filter(Boolean)
    .map((part) => {
      const [type = '', ...rest] = splitOutsideQuotes(part, ';');
      let q = 1;
      const params: string[] = [];
      for (const p of rest) {
        const [k = '', v = ''] = p.split('=').map((s) => s.trim());
        if (k.toLowerCase() === 'q') q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(v) ? Number(v) : 1;
        else if (k) params.push(p);
      }
      return { type: type.toLowerCase(), params, q };
    });
}

/**
 * The weight the client gives a media type sent without parameters: that of the most specific range that
 * matches it (RFC 9110 §12.5.1): the type itself without parameters, else its type's wildcard
 * (`application/` star), else the star/star wildcard.
 * A range carrying parameters does not match the type without them. 0 is a refusal, even beside a wildcard.
 */
export function quality(ranges: readonly MediaRange[], type: string): number {
  const [major = ''] = type.split('/');
  for (const range of [type, `${major}/*`, '*/*']) {
    const matching = ranges.filter((r) => r.type === range && r.params.length === 0);
    if (matching.length > 0) return Math.max(...matching.map((r) => r.q));
  }
  return 0;
}

/**
 * Which media type to answer with, following JSON:API 1.1 and RFC 9110: the JSON:API type when the client
 * accepts it without parameters other than `profile` (a profile the server does not apply is ignored), a
 * wildcard included unless a more specific range refuses it (`q=0`), and unless every JSON:API range it sends
 * carries another parameter or an `ext` (no extension is supported outside `/api/operations`, negotiation.ts);
 * `application/json` when `alsoJson` allows it and the client names it; else 406.
 */
export function chooseResponseType(request: HttpRequest, alsoJson: boolean): string {
  const header = request.headers.accept;
  if (!header) return JSONAPI_MEDIA_TYPE;
  // One map per choice, keyed by the header itself: a key built per request cost more than the lookup.
  const decided = alsoJson ? decidedAlsoJson : decidedJsonApi;
  let decision = decided.get(header);
  if (decision === undefined) {
    decision = decide(header, alsoJson);
    if (decided.size >= MAX_DECIDED) decided.clear();
    decided.set(header, decision);
  }
  if (typeof decision === 'string') return decision;
  throw new ApiError(406, 'Not Acceptable', decision.refused);
}

/**
 * Accept values already decided: a server sees few distinct ones, and each request asks twice (negotiation,
 * then the answer's type). Bounded, since a client chooses the header.
 */
const decidedJsonApi = new Map<string, string | { readonly refused: string }>();
const decidedAlsoJson = new Map<string, string | { readonly refused: string }>();
const MAX_DECIDED = 256;

function decide(header: string, alsoJson: boolean): string | { readonly refused: string } {
  const ranges = parseRanges(header);
  const jsonapi = ranges.filter((r) => r.type === JSONAPI_MEDIA_TYPE && r.q > 0);
  // An entry with only `profile` is usable: JSON:API 1.1 lets a server ignore the profiles it does not apply.
  const profiled = jsonapi.filter((r) => r.params.length > 0 && r.params.every(isProfile));
  const onlyWithParameters = jsonapi.length > 0 && profiled.length === 0 && jsonapi.every((r) => r.params.length > 0);
  if (!onlyWithParameters && (profiled.length > 0 || quality(ranges, JSONAPI_MEDIA_TYPE) > 0))
    return JSONAPI_MEDIA_TYPE;
  if (alsoJson && namedQuality(ranges, 'application/json') > 0) return 'application/json';
  return {
    refused: onlyWithParameters
      ? `every ${JSONAPI_MEDIA_TYPE} in Accept carries a media type parameter other than profile, or an extension this path does not support`
      : `Accept must allow ${JSONAPI_MEDIA_TYPE}`,
  };
}

/** The weight of a type the client names (wildcards aside): its ranges without parameters decide, else those with. */
function namedQuality(ranges: readonly MediaRange[], type: string): number {
  const named = ranges.filter((r) => r.type === type);
  const plain = named.filter((r) => r.params.length === 0);
  const deciding = plain.length > 0 ? plain : named;
  return deciding.length > 0 ? Math.max(...deciding.map((r) => r.q)) : 0;
}

/** A media type parameter named `profile` (JSON:API 1.1), whatever its value. */
function isProfile(param: string): boolean {
  return /^profile\s*(=|$)/i.test(param.trim());
}

/**
 * A request with a body must send it as `application/vnd.api+json`, with no media type parameter but
 * `profile` (JSON:API 1.1; a profile the server does not apply is ignored). An `ext` is 415: outside
 * `/api/operations` (negotiation.ts) no extension is supported.
 */
export function checkContentType(request: HttpRequest): void {
  if (!request.hasBody) return;
  const header = request.headers['content-type'];
  if (!header)
    throw new ApiError(415, 'Unsupported Media Type', `a request body must have Content-Type ${JSONAPI_MEDIA_TYPE}`);
  const [type = '', ...params] = splitOutsideQuotes(header, ';');
  if (type.toLowerCase() !== JSONAPI_MEDIA_TYPE) {
    throw new ApiError(415, 'Unsupported Media Type', `Content-Type must be ${JSONAPI_MEDIA_TYPE}, not ${type}`);
  }
  const other = params.filter(Boolean).find((p) => !isProfile(p));
  if (other !== undefined) {
    throw new ApiError(
      415,
      'Unsupported Media Type',
      /^ext\s*(=|$)/i.test(other)
        ? `Content-Type ${JSONAPI_MEDIA_TYPE} names an extension this path does not support (${other})`
        : `Content-Type ${JSONAPI_MEDIA_TYPE} may carry no media type parameter but profile (${other})`,
    );
  }
}
