import type Koa from 'koa';

/** Cross-origin access by browsers: which pages (origins) may call the API, and what they may read. */
export interface CorsOptions {
  /** Exact origins (`https://app.example.com`, scheme, host and port only), or `*` for any (without credentials). */
  readonly origins: readonly string[];
  /** Lets pages send cookies and `Authorization` and read the answer (`Access-Control-Allow-Credentials`). */
  readonly credentials?: boolean;
  /** Seconds a browser may keep a preflight's answer; default 600. */
  readonly maxAge?: number;
  /** Response headers a page may read besides the simple ones; default DEFAULT_EXPOSED_HEADERS. */
  readonly exposeHeaders?: readonly string[];
}

export const DEFAULT_EXPOSED_HEADERS: readonly string[] = [
  'Location',
  'ETag',
  'Resource-ETag',
  'Link',
  'X-Request-Id',
  'Server-Timing',
];
export const DEFAULT_CORS_MAX_AGE = 600;

/** Every method some route answers: a preflight is answered before the route is known. */
const METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_LIST = /^\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*,\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*\s*$/;

/** What is wrong with CORS options, as the place (`origins[1]`) and the reason; undefined when they are right. */
export function corsProblem(value: unknown): { path: string; reason: string } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { path: '', reason: `must be an object, not ${JSON.stringify(value)}` };
  const { origins, credentials, maxAge, exposeHeaders, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined)
    return { path: unknown, reason: 'unknown setting; known: origins, credentials, maxAge, exposeHeaders' };
  if (!Array.isArray(origins) || origins.length === 0)
    return {
      path: 'origins',
      reason: 'must be a non-empty list of origins such as "https://app.example.com", or ["*"]',
    };
  for (const [i, origin] of origins.entries()) {
    if (origin === '*') {
      if (credentials === true)
        return { path: `origins[${i}]`, reason: '"*" cannot be used with credentials: list the origins exactly' };
      continue;
    }
    if (typeof origin !== 'string' || !isOrigin(origin))
      return {
        path: `origins[${i}]`,
        reason: `must be an origin: scheme, host and port, with no path or trailing slash, such as "https://app.example.com"; not ${JSON.stringify(origin)}`,
      };
  }
  if (credentials !== undefined && typeof credentials !== 'boolean')
    return { path: 'credentials', reason: `must be true or false, not ${JSON.stringify(credentials)}` };
  if (maxAge !== undefined && !(Number.isInteger(maxAge) && (maxAge as number) >= 0))
    return { path: 'maxAge', reason: `must be a whole number of seconds, 0 or more, not ${JSON.stringify(maxAge)}` };
  if (exposeHeaders !== undefined) {
    if (!Array.isArray(exposeHeaders)) return { path: 'exposeHeaders', reason: 'must be a list of header names' };
    for (const [i, name] of exposeHeaders.entries())
      if (typeof name !== 'string' || !TOKEN.test(name))
        return { path: `exposeHeaders[${i}]`, reason: `must be a header name, not ${JSON.stringify(name)}` };
  }
  return undefined;
}

/** As a browser sends it in `Origin`: an http(s) URL's origin, written the way URL serialises it. */
function isOrigin(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text;
}

/**
 * Koa middleware answering browsers' cross-origin requests for the paths `applies` accepts (all by default).
 * A preflight (`OPTIONS` with `Access-Control-Request-Method`) from an allowed origin is answered here, before
 * any authentication or negotiation. Any other request from an allowed origin is served as always, with the
 * CORS headers added. A request from any other origin, or with none, gets no CORS header and is served as
 * before; every answer says `Vary: Origin`, since whether it carries them depends on the origin.
 */
export function cors(options: CorsOptions, applies: (path: string) => boolean = () => true): Koa.Middleware {
  const problem = corsProblem(options);
  if (problem) throw new TypeError(`cors${problem.path ? `.${problem.path}` : ''}: ${problem.reason}`);
  const any = options.origins.includes('*');
  const exact = new Set(options.origins);
  const credentials = options.credentials === true;
  const maxAge = String(options.maxAge ?? DEFAULT_CORS_MAX_AGE);
  const expose = (options.exposeHeaders ?? DEFAULT_EXPOSED_HEADERS).join(', ');
  return async (ctx, next) => {
    if (!applies(ctx.path)) return next();
    ctx.vary('Origin');
    const origin = ctx.get('Origin');
    if (origin === '' || !(any || exact.has(origin))) return next();
    // With credentials the origin itself must be named; without, "*" serves any listed origin too.
    ctx.set('Access-Control-Allow-Origin', any && !credentials ? '*' : origin);
    if (credentials) ctx.set('Access-Control-Allow-Credentials', 'true');
    const method = ctx.get('Access-Control-Request-Method');
    if (ctx.method === 'OPTIONS' && method !== '') {
      ctx.set('Access-Control-Allow-Methods', METHODS);
      const headers = ctx.get('Access-Control-Request-Headers');
      // The headers asked for are allowed (an allowed origin may send Authorization, Prefer…); a malformed
      // list is not echoed.
      if (HEADER_LIST.test(headers)) ctx.set('Access-Control-Allow-Headers', headers);
      ctx.set('Access-Control-Max-Age', maxAge);
      ctx.vary('Access-Control-Request-Method');
      ctx.vary('Access-Control-Request-Headers');
      ctx.status = 204;
      return;
    }
    if (expose !== '') ctx.set('Access-Control-Expose-Headers', expose);
    await next();
    // An answer that set its own Vary (or was rewritten whole) still says it depends on the origin.
    ctx.vary('Origin');
  };
}

/** The paths of a prefix: itself and everything below it. */
export const pathsUnder =
  (prefix: string) =>
  (path: string): boolean =>
    path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
