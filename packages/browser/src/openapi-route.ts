import { openApiDocument, type OpenApiOptions } from '@colapi/openapi';
import type { Registry } from '@colapi/schema';
import type Koa from 'koa';

/**
 * Serves the OpenAPI document at `path`. It must come before createApi, which answers every path under its
 * prefix. The document names the origin the client used, so it is built once per origin and kept.
 */
export function openApiRoute(
  path: string,
  registry: Registry,
  options: Omit<OpenApiOptions, 'serverUrl'> & {
    /**
     * Under access control, what the caller may see (createApi's `describeFor`): the registry of its role's
     * view and a name for it; throws an error with a `status` (401, 403) and `headers` for a bad token.
     */
    readonly describeFor?: (
      authorization: string | undefined,
    ) => Promise<{ key: string; registry: Registry; bearer?: OpenApiOptions['bearer'] }>;
  },
): Koa.Middleware {
  const { describeFor, ...document } = options;
  const documents = new Map<string, string>();
  return async (ctx, next) => {
    if (ctx.path !== path) return next();
    // A fixed path is its own route template, for a request log (@koa/router's field).
    (ctx as { _matchedRoute?: string })._matchedRoute = path;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, HEAD');
      return;
    }
    let shown: { key: string; registry: Registry; bearer?: OpenApiOptions['bearer'] } = { key: '', registry };
    if (describeFor) {
      try {
        shown = await describeFor(ctx.get('authorization') || undefined);
      } catch (error) {
        const e = error as { status?: number; headers?: Record<string, string>; message?: string };
        if (e.status !== 401 && e.status !== 403) throw error;
        ctx.status = e.status;
        ctx.set(e.headers ?? {});
        ctx.body = { error: e.message };
        return;
      }
    }
    // As createApi builds its links: from the protocol and Host of the request (Koa 3's ctx.origin is not that).
    const origin = `${ctx.protocol}://${ctx.host}`;
    const cacheKey = `${shown.key}\u0000${origin}`;
    let text = documents.get(cacheKey);
    if (text === undefined) {
      const bearer = shown.bearer ? { bearer: shown.bearer } : {};
      text = JSON.stringify(openApiDocument(shown.registry, { ...document, ...bearer, serverUrl: origin }), null, 2);
      // A Host header is the client's to choose: remember only a few origins per view.
      if (documents.size < 64) documents.set(cacheKey, text);
    }
    // Each caller may see another document.
    if (describeFor) ctx.set('Vary', 'Authorization');
    ctx.type = 'application/json';
    ctx.body = text;
  };
}
