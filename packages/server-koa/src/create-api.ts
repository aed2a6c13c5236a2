import type { Registry } from '@colapi/schema';
import { ApiError, CONTAINMENT_OPERATORS, DEFAULT_LIMITS, type Operation } from '@colapi/query-ast';
import { SqlCompiler } from '@colapi/sql-compiler';
import {
  readableResponse,
  sendableResponse,
  withHeaders,
  type DecodeContext,
  type HttpRequest,
  type HttpResponse,
  type Route,
} from '@colapi/wire-format';
import Router, { type RouterContext } from '@koa/router';
import type Koa from 'koa';
import { AccessControl, refusalReason } from './access/access-control.js';
import { authorize } from './access/authorize.js';
import type { Caller } from './access/caller.js';
import type { RoleView } from './access/role-view.js';
import type { ApiOptions } from './api-options.js';
import { conditionalRead, notModifiedBytes } from './conditional/conditional-read.js';
import { withResourceTag } from './conditional/resource-etag.js';
import { underPreconditions } from './conditional/row-preconditions.js';
import { writePreconditions } from './conditional/write-preconditions.js';
import { Executor } from './executor/executor.js';
import { retryBudget } from './executor/retry-budget.js';
import { compression } from './compression.js';
import { cors, pathsUnder } from './cors.js';
import { hasHooks, runOperation } from './hooks.js';
import { jsonpCallback, wrapJsonp } from './jsonp.js';
import { readsFromPrimary } from './read-from.js';
import { inRequestSpan, inStageSpan, inSyncStageSpan } from './request-span.js';
import { ROUTES } from './routes.js';
import { StageTimer } from './stage-timer.js';
import { errorFunnel } from './stages/error-funnel.js';
import { bodyReader } from './stages/read-body.js';
import { requestHead, standInHead, type LinkBase } from './stages/request-head.js';
import { checkMethod, resolveCollection } from './stages/resolve-collection.js';
import { writeResponse } from './stages/write-response.js';
import { atomicEndpoint, type AtomicEndpoint } from './atomic/atomic-endpoint.js';

/** What a request's stages found, for the audit and the metrics: the collection from the registry, never the URL. */
interface Seen {
  caller: Caller | undefined;
  collection: string;
  operation: string;
}

/** Methods whose body is a write: decoded in the caller's write view, where its write-only fields exist. */
const WITH_BODY: ReadonlySet<string> = new Set(['POST', 'PATCH', 'PUT']);

/** What createApi answers: Koa middleware, for `app.use`, that passes paths outside the prefix on. */
export type ApiMiddleware = ReturnType<Router<Koa.DefaultState, Koa.DefaultContext>['routes']> & {
  /**
   * Settles once the start-up reads are over (the foreign keys a created row's linkage is answered from, and
   * whether the server returns inserted rows): await it before listening, so that no request and no
   * statement count meets them. Never rejects.
   */
  readonly ready: Promise<void>;
  /**
   * Under access control: what the caller of an `Authorization` header may see, for its OpenAPI document
   * (@colapi/browser's openApiRoute takes it as `describeFor`); rejects with the 401 or 403 a request would get.
   */
  readonly describeFor?: (
    authorization: string | undefined,
  ) => Promise<{ key: string; registry: Registry; bearer: { optional: boolean } }>;
};

/**
 * Koa middleware serving every collection of the registry under the prefix. Each request passes the stages
 * once, in order: request head (URL and Host) → negotiate → collection and method → body → decode →
 * execute (hooks and transaction) → encode; then, for every answer, errors included: Server-Timing, the
 * response hook, JSONP, and the write onto Koa's context.
 */
export function createApi(options: ApiOptions): ApiMiddleware {
  const { registry, format, database } = options;
  const links: LinkBase = {
    prefix: options.prefix ?? '/api',
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
  };
  const maxUrlLength = options.maxUrlLength ?? 8192;
  const executor = new Executor(
    new SqlCompiler(database.knex, database.dialect, registry),
    registry,
    database,
    retryBudget(options.transactionRetryBudget),
  );
  const decodeContext: DecodeContext = {
    registry,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    unsupportedOperator: (op) =>
      op.startsWith('inet_') && !database.dialect.networkCompare
        ? `network address operators need PostgreSQL's inet type; this server runs on ${database.dialect.name}`
        : CONTAINMENT_OPERATORS.has(op) && !database.dialect.containment
          ? `containment of lists and JSON documents needs PostgreSQL or MariaDB/MySQL; this server runs on ${database.dialect.name}`
          : undefined,
  };
  const access = options.access ? new AccessControl(options.access, registry, database.dialect) : undefined;
  // Each role's decode contexts, made once: the parsers then know only the fields and collections it sees.
  const roleContexts = new Map<RoleView, { read: DecodeContext; write: DecodeContext }>();
  const contextsOf = (view: RoleView) => {
    let c = roleContexts.get(view);
    if (!c) {
      c = { read: { ...decodeContext, registry: view.read }, write: { ...decodeContext, registry: view.write } };
      roleContexts.set(view, c);
    }
    return c;
  };
  const readBody = bodyReader(format, options.bodyLimit ?? '1mb');
  const failure = errorFunnel(options);
  const atomic = atomicEndpointOf(options, { executor, access, contextsOf, decodeContext, readBody, failure });
  const metrics = options.metrics;

  /** The stages from the request head to the encoded answer; any of them may throw what the client hears. */
  async function answer(
    ctx: Koa.Context,
    head: HttpRequest,
    timer: StageTimer | undefined,
    seen: Seen,
  ): Promise<HttpResponse> {
    format.negotiate(head);
    // Under access rules, who asks comes first: everything after sees only what the caller's role sees,
    // and every statement is compiled with the caller's row scopes (sql-compiler's RowScopes).
    const caller = access && (await access.identify(head.headers.authorization));
    seen.caller = caller;
    // For a request log around the API (requestLog): who asked, never the token.
    if (caller) ctx.state.identity = caller.identity;
    const view = caller && access.view(caller);
    const contexts = view && contextsOf(view);
    const target = resolveCollection(view ? view.read : registry, format, head.route, ctx.path);
    seen.collection = target.collection.name;
    if (ctx.method === 'OPTIONS')
      return { status: 204, headers: { allow: [...target.methods, 'HEAD', 'OPTIONS'].join(', ') } };
    checkMethod(target, ctx.method);
    const request = await readBody(ctx, head);
    let decoded: Operation;
    if (caller) {
      // A body may carry the role's write-only fields; the operation then answers with what it may read.
      const body = WITH_BODY.has(ctx.method) ? contexts!.write : contexts!.read;
      decoded = format.decode(request, body.registry.collection(target.collection.name)!, body);
      decoded = { ...decoded, collection: view!.read.collection(decoded.collection.name)! } as Operation;
      authorize(caller, decoded);
    } else {
      decoded = format.decode(request, target.collection, decodeContext);
    }
    // If-Match / If-None-Match of a write (428 under requireIfMatch without one), checked in its transaction.
    const preconditions = writePreconditions(head, decoded, options.requireIfMatch === true);
    timer?.lap('parse');
    seen.operation = decoded.kind;
    const run = caller ? access!.executorFor(executor, caller, head) : executor;
    const { operation, result } = await inStageSpan('execute', () =>
      run.inTransactionOf(
        decoded,
        (db) =>
          underPreconditions(preconditions, run, db, () =>
            runOperation(options.hooks, decoded, { request, state: ctx.state, db }, (op) => run.run(op, db)),
          ),
        // Hooks run inside the write's transaction, so a hooked write always has one; so does a write under
        // access rules, whose checks run in it before COMMIT, unless its one statement checks them itself
        // (the executor's `oneStatement`).
        hasHooks(options.hooks, decoded),
        readsFromPrimary(request),
      ),
    );
    timer?.lap('query');
    const response = inSyncStageSpan('encode', () =>
      format.encode(request, operation, result, contexts ? contexts.read : decodeContext),
    );
    timer?.lap('encode');
    return withResourceTag(response, result);
  }

  async function handle(ctx: Koa.Context, route: Route, operations?: AtomicEndpoint): Promise<void> {
    // Built once. When the URL or the Host does not parse, a stand-in keeps the error in the format's shape.
    let head: HttpRequest;
    let refused: unknown;
    try {
      head = requestHead(ctx, route, links);
    } catch (error) {
      refused = error;
      head = standInHead(ctx, route, links);
    }
    // Only when asked for: timing costs clock reads on every request.
    const timer = options.serverTiming ? new StageTimer() : undefined;
    let callback: string | undefined;
    let response: HttpResponse;
    const done = metrics?.begin();
    const seen: Seen = { caller: undefined, collection: '', operation: '' };
    try {
      if (ctx.originalUrl.length > maxUrlLength) {
        throw new ApiError(414, 'URI Too Long', `the request URL is longer than ${maxUrlLength} characters`);
      }
      if (refused !== undefined) throw refused;
      // The atomic endpoint takes no query parameter, `callback` included (400): its answers are never scripts.
      if (!operations) callback = jsonpCallback(head.url.searchParams);
      response = operations
        ? await operations.answer(ctx, head, seen)
        : conditionalRead(head, await answer(ctx, head, timer, seen), format.mediaType, callback);
    } catch (error) {
      if (operations) response = await operations.failed(head, error);
      else {
        const e = await failure(error, route);
        if (metrics && (e.status === 401 || e.status === 403)) metrics.refused(e.status, refusalReason(error));
        response = format.encodeErrors(head, e.status, [e]);
      }
    }
    // A response hook that throws still ends the request for the metrics: Koa answers it 500.
    let status = 500;
    try {
      access?.audit(head, response, seen.caller);
      // A request refused before its first stage ended (a bad token, a wrong URL) has no timing to tell.
      const timing = timer?.header();
      if (timing) response = withHeaders(response, { 'server-timing': timing });
      // A hook is given the document as objects, parsed only if it reads them.
      if (options.onResponse) {
        const shown = readableResponse(response);
        response = sendableResponse((await options.onResponse(shown, head)) ?? shown);
      }
      if (callback && response.body !== undefined) {
        const payload = format.jsonpPayload(head, readableResponse(response));
        if (payload !== undefined) response = wrapJsonp(callback, response, payload);
      }
      writeResponse(ctx, response, format.mediaType);
      const bytes = notModifiedBytes.get(response);
      if (bytes !== undefined) ctx.state.representationBytes = bytes;
      status = response.status;
    } finally {
      done?.(
        seen.collection || 'none',
        seen.operation || (ctx.method === 'OPTIONS' ? 'options' : 'none'),
        ctx.method,
        status,
      );
    }
  }

  const router = new Router<Koa.DefaultState, Koa.DefaultContext>({ prefix: links.prefix, strict: true });
  // The context typed explicitly: @koa/router's overloads of `all` (with or without a route name) leave a
  // callback's parameter untyped for TypeScript 7 in some builds.
  if (atomic) {
    const template = `${links.prefix}/${atomic.path}`;
    router.all(`/${atomic.path}`, (ctx: RouterContext) =>
      inRequestSpan(ctx, template, '', registry, () => handle(ctx, { collection: '' }, atomic)),
    );
  }
  for (const { path, route } of ROUTES) {
    const template = links.prefix + path;
    router.all(path, (ctx: RouterContext) => {
      const r = route(ctx.params);
      return inRequestSpan(ctx, template, r.collection, registry, () => handle(ctx, r));
    });
  }
  // Under the prefix but no route (the prefix itself, a trailing slash, too many segments): 404 in the format's
  // shape. A router of its own, asked only when no route matched: as routes beside the others, they matched
  // every request too, and the router set up and composed them for each.
  const unrouted = new Router<Koa.DefaultState, Koa.DefaultContext>({ prefix: links.prefix, strict: true });
  for (const path of ['{/*rest}', '/']) {
    const template = links.prefix + path;
    unrouted.all(path, (ctx: RouterContext) =>
      inRequestSpan(ctx, template, '', registry, () => handle(ctx, { collection: '' })),
    );
  }
  const routed = router.routes();
  const rest = unrouted.routes();
  const routes: typeof routed = (ctx, next) => routed(ctx, () => rest(ctx, next));
  const compress = options.compression !== false && compression(options.compression, pathsUnder(links.prefix));
  const served: typeof routed = compress ? (ctx, next) => compress(ctx, () => routes(ctx, next)) : routes;
  // Before everything, so that a preflight is answered before authentication and negotiation.
  const crossOrigin = options.cors && cors(options.cors, pathsUnder(links.prefix));
  const middleware: typeof routed = crossOrigin ? (ctx, next) => crossOrigin(ctx, () => served(ctx, next)) : served;
  return Object.assign(middleware, {
    router,
    ready: executor.ready,
    ...(access ? { describeFor: (authorization: string | undefined) => access.describeFor(authorization) } : {}),
  });
}

/** The atomic operations endpoint when the API opts in; its path may not be a collection's name too. */
function atomicEndpointOf(
  options: ApiOptions,
  deps: Omit<Parameters<typeof atomicEndpoint>[0], 'codec' | 'options'>,
): AtomicEndpoint | undefined {
  const codec = options.format.atomic;
  if (!options.atomic) return undefined;
  if (!codec) throw new Error(`atomic: the wire format "${options.format.name}" has no atomic operations`);
  if (options.registry.collection(codec.path))
    throw new Error(`atomic: the collection "${codec.path}" has the path of the atomic operations endpoint`);
  return atomicEndpoint({ ...deps, codec, options });
}
