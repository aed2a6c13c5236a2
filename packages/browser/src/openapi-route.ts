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
  options: Omit<OpenApiOptions, 'serverUrl'>,
): Koa.Middleware {
  const documents = new Map<string, string>();
  return async (ctx, next) => {
    if (ctx.path !== path) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, HEAD');
      return;
    }
    // As createApi builds its links: from the protocol and Host of the request (Koa 3's ctx.origin is not that).
    const origin = `${ctx.protocol}://${ctx.host}`;
    let text = documents.get(origin);
    if (text === undefined) {
      text = JSON.stringify(openApiDocument(registry, { ...options, serverUrl: origin }), null, 2);
      // A Host header is the client's to choose: remember only a few origins.
      if (documents.size < 16) documents.set(origin, text);
    }
    ctx.type = 'application/json';
    ctx.body = text;
  };
}
