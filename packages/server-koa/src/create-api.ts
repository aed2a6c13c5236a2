import type { CollectionSchema, HttpMethod } from '@colapi/schema';
import { ApiError, DEFAULT_LIMITS } from '@colapi/query-ast';
import { routeKind, type DecodeContext, type HttpRequest, type HttpResponse, type Route } from '@colapi/wire-format';
import { SqlCompiler } from '@colapi/sql-compiler';
import Router from '@koa/router';
import type Koa from 'koa';
import { koaBody } from 'koa-body';
import type { ApiOptions } from './api-options.js';
import { bodyError } from './body-error.js';
import { classifiedError, isPoolTimeout, poolBusy } from './database-errors.js';
import { Executor } from './executor/executor.js';
import { retryBudget } from './executor/retry-budget.js';
import { hooksFor, runOperation } from './hooks.js';
import { jsonpCallback, wrapJsonp } from './jsonp.js';
import { readsFromPrimary } from './read-from.js';
import { requestOrigin, requestUrl } from './request-origin.js';
import { ROUTES } from './routes.js';
import { StageTimer } from './stage-timer.js';

const BODY_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/**
 * Koa middleware serving every collection of the registry under the prefix:
 * route → negotiate → decode → execute → encode → response hook → JSONP.
 */
export function createApi(options: ApiOptions): Koa.Middleware {
  const { registry, format, database } = options;
  const prefix = options.prefix ?? '/api';
  const maxUrlLength = options.maxUrlLength ?? 8192;
  const compiler = new SqlCompiler(database.knex, database.dialect, registry);
  const executor = new Executor(compiler, registry, database.replicas, retryBudget(options.transactionRetryBudget));
  const decodeContext: DecodeContext = {
    registry,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    unsupportedOperator: (op) =>
      op.startsWith('inet_') && !database.dialect.networkCompare
        ? `network address operators need PostgreSQL's inet type; this server runs on ${database.dialect.name}`
        : undefined,
  };
  const parseBody = koaBody({
    json: true,
    jsonStrict: false,
    jsonTypes: [...format.bodyTypes],
    jsonLimit: options.bodyLimit ?? '1mb',
    urlencoded: false,
    text: false,
    multipart: false,
    parsedMethods: [...BODY_METHODS],
  } as Parameters<typeof koaBody>[0]);

  function toRequest(ctx: Koa.Context, route: Route): HttpRequest {
    const origin = requestOrigin(ctx);
    const base = options.baseUrl ?? `${origin}${prefix}`;
    const body = (ctx.request as unknown as { body?: unknown }).body;
    return {
      method: ctx.method,
      url: requestUrl(ctx.originalUrl, origin),
      base: base.replace(/\/$/, ''),
      route,
      headers: ctx.headers as Record<string, string | undefined>,
      body,
      hasBody: BODY_METHODS.has(ctx.method) && (Number(ctx.get('content-length') || 0) > 0 || !!ctx.get('transfer-encoding')),
    };
  }

  function allowed(collection: CollectionSchema, route: Route): HttpMethod[] {
    return format.methodsFor(routeKind(route)).filter((m) => collection.methods.has(m));
  }

  async function respond(ctx: Koa.Context, route: Route, parsed: HttpRequest | undefined, timer: StageTimer | undefined): Promise<HttpResponse> {
    // The request handle() already built: parsing the URL once per request is enough. When it could not
    // (a URL that does not parse), building it again throws the error the client hears.
    let request = parsed ?? toRequest(ctx, route);
    format.negotiate(request);
    if (route.collection === '') throw ApiError.notFound(`no resource lives at ${ctx.path}`);
    const collection = registry.collection(route.collection);
    if (!collection || (route.evaluate && !collection.allowFunctions)) {
      throw ApiError.notFound(`there is no collection ${route.evaluate ? 'with functions ' : ''}named "${route.collection}"`);
    }
    const methods = allowed(collection, route);
    const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
    if (method === 'OPTIONS') return { status: 204, headers: { allow: [...methods, 'HEAD', 'OPTIONS'].join(', ') } };
    if (!methods.includes(method as HttpMethod)) {
      throw new ApiError(405, 'Method Not Allowed', `${ctx.method} is not allowed on this path of ${collection.name}`, undefined, {
        allow: methods.join(', '),
      });
    }
    if (request.hasBody) {
      await parseBody(ctx, async () => {});
      request = { ...request, body: (ctx.request as unknown as { body?: unknown }).body };
    }
    const decoded = format.decode(request, collection, decodeContext);
    timer?.lap('parse');
    const context = { request, state: ctx.state as Record<string, unknown> };
    const { operation, result } = await executor.inTransactionOf(
      decoded,
      (db) => runOperation(options.hooks, decoded, { ...context, db }, (op) => executor.run(op, db)),
      // Hooks run inside the write's transaction, so a hooked write always has one.
      hooksFor(options.hooks, decoded).length > 0,
      readsFromPrimary(request),
    );
    timer?.lap('query');
    const response = format.encode(request, operation, result, decodeContext);
    timer?.lap('encode');
    return response;
  }

  async function failure(error: unknown, route: Route): Promise<ApiError> {
    if (error instanceof ApiError) return error;
    const refused = bodyError(error);
    if (refused) return refused;
    if (isPoolTimeout(error)) return poolBusy();
    const classified = await classifiedError(database, registry, route, error);
    if (classified) return classified;
    const misconfigured = database.dialect.misconfiguration?.(error);
    if (misconfigured) {
      // The operator's log and the client both read what to change: no request can succeed until it is.
      options.onUnexpectedError?.(new Error(`the database is misconfigured for this server: ${misconfigured}`, { cause: error }));
      return new ApiError(500, 'Internal Server Error', `the server is misconfigured: ${misconfigured}`);
    }
    options.onUnexpectedError?.(error);
    const internal = options.debug ? ` (debug: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)})` : '';
    return new ApiError(500, 'Internal Server Error', `the server failed to answer this request${internal}`);
  }

  async function handle(ctx: Koa.Context, route: Route): Promise<void> {
    let response: HttpResponse;
    let request: HttpRequest;
    let parsed: HttpRequest | undefined;
    try {
      request = parsed = toRequest(ctx, route);
    } catch {
      // A URL that does not parse: answer from a stand-in request so the error keeps the format's shape.
      request = { method: ctx.method, url: new URL('http://localhost/'), base: prefix, route, headers: {}, hasBody: false };
    }
    let callback: string | undefined;
    // Only when asked for: timing costs clock reads on every request.
    const timer = options.serverTiming ? new StageTimer() : undefined;
    try {
      if (ctx.originalUrl.length > maxUrlLength) {
        throw new ApiError(414, 'URI Too Long', `the request URL is longer than ${maxUrlLength} characters`);
      }
      callback = jsonpCallback(request.url.searchParams);
      response = await respond(ctx, route, parsed, timer);
    } catch (error) {
      const e = await failure(error, route);
      response = format.encodeErrors(request, e.status, [e]);
    }
    if (timer) response = { ...response, headers: { ...response.headers, 'server-timing': timer.header() } };
    if (options.onResponse) response = (await options.onResponse(response, request)) ?? response;
    if (callback && response.body !== undefined) {
      const payload = format.jsonpPayload(request, response);
      if (payload !== undefined) response = wrapJsonp(callback, response, payload);
    }
    ctx.status = response.status;
    for (const [k, v] of Object.entries(response.headers)) ctx.set(k, v);
    if (response.body !== undefined) {
      ctx.body = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
      ctx.type = response.headers['content-type'] ?? format.mediaType;
    } else ctx.body = null;
  }

  const router = new Router({ prefix, strict: true });
  for (const { path, route } of ROUTES) {
    router.all(path, (ctx) => handle(ctx as unknown as Koa.Context, route(ctx.params as Record<string, string>)));
  }
  const routes = router.routes();
  return async (ctx, next) => {
    if (ctx.path !== prefix && !ctx.path.startsWith(`${prefix}/`)) return next();
    await routes(ctx as never, async () => {
      // Under the prefix but no route (a trailing slash, too many segments): 404 in the format's shape.
      await handle(ctx, { collection: '' });
    });
  };
}
