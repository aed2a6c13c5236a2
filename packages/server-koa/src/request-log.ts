import { holdsToken, type Identity } from '@colapi/auth';
import type Koa from 'koa';
import { randomUUID } from 'node:crypto';

/** What the request log writes with: pino's Logger fits, and so does any logger of the same calls. */
export interface RequestLogger {
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
  child(bindings: Record<string, unknown>): unknown;
}

/** An incoming id is kept only when it cannot forge a log line or a header: short, plain characters. */
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The answers that carry no body, whatever their headers say. */
const NO_BODY = new Set([204, 304]);

/** A value a token could hide in (a `sub`, a role) is written `[token]` when it holds one. */
const shown = (value: string) => (holdsToken(value) ? '[token]' : value);

/**
 * Koa middleware writing one structured line per request once its answer is sent (or the client went away):
 * `request_id`, `method`, `route` (the route template, such as `/api/:collection/:id`: never the URL, whose
 * ids and query are the client's), `status`, `duration_ms`, `bytes` of body sent, and, under access control,
 * the caller's `sub` and `role`. Never a header, so never a token. The id is the client's `X-Request-Id`
 * when it is safe (and no token), else a new UUID; it is echoed in the response and left in
 * `ctx.state.requestId` (and a child logger in `ctx.state.log`) for code further down. Use it first.
 */
export function requestLog(logger: RequestLogger): Koa.Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    const incoming = ctx.get('x-request-id');
    const requestId = SAFE_ID.test(incoming) && !holdsToken(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ request_id: requestId });
    ctx.set('X-Request-Id', requestId);
    let failure: unknown;
    // Written when the answer is out: its status and length are then final, whatever ran after this middleware.
    ctx.res.once('close', () => {
      const { res } = ctx;
      const status = res.statusCode;
      const length = Number(res.getHeader('content-length'));
      const identity = ctx.state.identity as Identity | undefined;
      // @koa/router's field, which the static routes of @colapi/browser set too; null for any other path.
      const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      const line = {
        request_id: requestId,
        method: ctx.method,
        route: typeof route === 'string' ? route : null,
        status,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
        bytes: ctx.method === 'HEAD' || NO_BODY.has(status) ? 0 : Number.isFinite(length) ? length : null,
        ...(identity
          ? { sub: identity.sub === undefined ? null : shown(identity.sub), role: shown(identity.role) }
          : {}),
        ...(res.writableFinished ? {} : { aborted: true }),
      };
      if (status >= 500) logger.error(failure ? { ...line, err: failure } : line, 'request failed');
      else logger.info(line, 'request');
    });
    try {
      await next();
    } catch (error) {
      failure = error;
      throw error;
    }
  };
}
