import type { Registry } from '@colapi/schema';
import { type Context, context, propagation, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type Koa from 'koa';

/** The package's tracer: a no-op until an application registers an OpenTelemetry SDK. */
const tracer = trace.getTracer('@colapi/server-koa');

/**
 * Serves one request inside its server span, a child of the caller's trace when the request carries one
 * (`traceparent`, through whatever propagator the SDK registered). The span is named for the route template
 * with the collection filled in when the registry has it, never for the URL: ids and query values stay out.
 * Without an SDK the span does not record and `serve` runs in the context it was called in.
 */
export function inRequestSpan(
  ctx: Koa.Context,
  template: string,
  collection: string,
  registry: Registry,
  serve: () => Promise<void>,
): Promise<void> {
  const parent = propagation.extract(context.active(), ctx.headers);
  const span = tracer.startSpan(ctx.method, { kind: SpanKind.SERVER }, parent);
  if (!span.isRecording()) return serve();
  return recordRequest(ctx, template, collection, registry, serve, span, parent);
}

async function recordRequest(
  ctx: Koa.Context,
  template: string,
  collection: string,
  registry: Registry,
  serve: () => Promise<void>,
  span: Span,
  parent: Context,
): Promise<void> {
  // A name from the registry is bounded; one that is not (a 404) keeps the placeholder.
  const route = collection && registry.collection(collection) ? template.replace(':collection', collection) : template;
  span.updateName(`${ctx.method} ${route}`);
  span.setAttributes({
    'http.request.method': ctx.method,
    'http.route': route,
    'url.scheme': ctx.protocol,
    'network.protocol.version': ctx.req.httpVersion,
    ...(ctx.get('user-agent') ? { 'user_agent.original': ctx.get('user-agent') } : {}),
  });
  try {
    await context.with(trace.setSpan(parent, span), serve);
  } finally {
    span.setAttribute('http.response.status_code', ctx.status);
    // A server span fails on a 5xx only: a 4xx is the client's.
    if (ctx.status >= 500) {
      span.setAttribute('error.type', String(ctx.status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  }
}

/**
 * Runs a stage of the pipeline (execution, encoding, a transaction's attempt) in a span of its own, a child
 * of the active one; a failure sets its status, with the error's name and never its message (a database's
 * message may quote values). Without an SDK it only calls `work`.
 */
export function inStageSpan<T>(
  name: string,
  work: () => Promise<T>,
  attributes?: Record<string, string | number>,
): Promise<T> {
  const parent: Context = context.active();
  const span = tracer.startSpan(name, attributes ? { attributes } : undefined, parent);
  if (!span.isRecording()) return work();
  return context.with(trace.setSpan(parent, span), work).then(
    (value) => {
      span.end();
      return value;
    },
    (error: unknown) => {
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.setAttribute('error.type', error instanceof Error ? error.name : typeof error);
      span.end();
      throw error;
    },
  );
}

/** A synchronous stage (encoding) in a span of its own; without an SDK, only `work`. */
export function inSyncStageSpan<T>(name: string, work: () => T): T {
  const span = tracer.startSpan(name);
  if (!span.isRecording()) return work();
  try {
    return work();
  } finally {
    span.end();
  }
}
