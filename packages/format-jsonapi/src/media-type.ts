import { ApiError, type HttpRequest } from '@colapi/query-ast';

export const JSONAPI_MEDIA_TYPE = 'application/vnd.api+json';

interface MediaRange {
  readonly type: string;
  /** Media type parameters, `q` excluded (it is an accept parameter). */
  readonly params: readonly string[];
  readonly q: number;
}

/** Splits a header at `separator`, except inside quoted strings (`ext="a,b"` is one parameter). */
function splitOutsideQuotes(text: string, separator: string): string[] {
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

function parseRanges(header: string): MediaRange[] {
  return splitOutsideQuotes(header, ',')
    .filter(Boolean)
    .map((part) => {
      const [type = '', ...rest] = splitOutsideQuotes(part, ';');
      let q = 1;
      const params: string[] = [];
      for (const p of rest) {
        const [k = '', v = ''] = p.split('=').map((s) => s.trim());
        if (k.toLowerCase() === 'q') q = Number(v);
        else if (k) params.push(p);
      }
      return { type: type.toLowerCase(), params, q: Number.isFinite(q) ? q : 1 };
    });
}

/**
 * Which media type to answer with, following JSON:API 1.0: the JSON:API type when the client accepts it
 * without parameters; `application/json` when `alsoJson` allows it and the client asked for it; else 406.
 */
export function chooseResponseType(request: HttpRequest, alsoJson: boolean): string {
  const header = request.headers['accept'];
  if (!header) return JSONAPI_MEDIA_TYPE;
  const ranges = parseRanges(header).filter((r) => r.q > 0);
  const jsonapi = ranges.filter((r) => r.type === JSONAPI_MEDIA_TYPE);
  if (jsonapi.some((r) => r.params.length === 0)) return JSONAPI_MEDIA_TYPE;
  if (alsoJson && ranges.some((r) => r.type === 'application/json')) return 'application/json';
  if (jsonapi.length === 0 && ranges.some((r) => r.type === '*/*' || r.type === 'application/*')) return JSONAPI_MEDIA_TYPE;
  const detail =
    jsonapi.length > 0
      ? `every ${JSONAPI_MEDIA_TYPE} in Accept carries media type parameters, which JSON:API 1.0 does not allow`
      : `Accept must allow ${JSONAPI_MEDIA_TYPE}`;
  throw new ApiError(406, 'Not Acceptable', detail);
}

/** A request with a body must send it as `application/vnd.api+json` with no media type parameters. */
export function checkContentType(request: HttpRequest): void {
  if (!request.hasBody) return;
  const header = request.headers['content-type'];
  if (!header) throw new ApiError(415, 'Unsupported Media Type', `a request body must have Content-Type ${JSONAPI_MEDIA_TYPE}`);
  const [type = '', ...params] = header.split(';').map((s) => s.trim());
  if (type.toLowerCase() !== JSONAPI_MEDIA_TYPE) {
    throw new ApiError(415, 'Unsupported Media Type', `Content-Type must be ${JSONAPI_MEDIA_TYPE}, not ${type}`);
  }
  if (params.some(Boolean)) {
    throw new ApiError(415, 'Unsupported Media Type', `Content-Type ${JSONAPI_MEDIA_TYPE} must not carry media type parameters`);
  }
}
