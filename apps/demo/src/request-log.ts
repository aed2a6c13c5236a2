import type Koa from 'koa';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';

/** An incoming id is kept only when it cannot forge a log line or a header: short, plain characters. */
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Koa middleware writing one structured line per request (method, path, status, duration in ms, request
 * id). The id is the client's `X-Request-Id` when it is safe, else a new UUID; it is echoed in the response
 * and left in `ctx.state.requestId` (and a child logger in `ctx.state.log`) for code further down.
 */
export function requestLog(logger: Logger): Koa.Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    const incoming = ctx.get('x-request-id');
    const requestId = SAFE_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ request_id: requestId });
    ctx.set('X-Request-Id', requestId);
    let failure: unknown;
    try {
      await next();
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      // Koa sets the status of a thrown error only after this middleware unwinds; read it from the error.
      const status = failure ? Number((failure as { status?: unknown }).status) || 500 : ctx.status;
      const line = {
        request_id: requestId,
        method: ctx.method,
        path: ctx.path,
        status,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
      };
      if (status >= 500) logger.error(failure ? { ...line, err: failure } : line, 'request failed');
      else logger.info(line, 'request');
    }
  };
}
