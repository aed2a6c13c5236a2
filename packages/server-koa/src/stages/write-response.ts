import type { HttpResponse } from '@colapi/wire-format';
import type Koa from 'koa';

/**
 * Content-Type values as Koa completes them (a charset where the type has one), by the type a response
 * names: Koa's `type` setter looks the type up in its mime tables on every response, and a server sends few
 * types. Bounded, in case a hook names types of its own.
 */
const completed = new Map<string, string>();
const MAX_TYPES = 64;

/** The last stage: the response onto Koa's context, a JSON body serialised once (or already text). */
export function writeResponse(ctx: Koa.Context, response: HttpResponse, defaultType: string): void {
  ctx.status = response.status;
  const body = response.body !== undefined;
  const { headers } = response;
  // With a body, Content-Type is set below, once, as Koa completes it.
  for (const name in headers) if (!body || name !== 'content-type') ctx.set(name, headers[name]!);
  if (!body) {
    ctx.body = null;
    return;
  }
  // The type before the body: given a body first, Koa guesses a type for it, looked up and then replaced.
  setType(ctx, headers['content-type'] ?? defaultType);
  // A string is sent as it is: a document the format wrote as JSON text, or a page that is text already.
  ctx.body = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
}

/** `ctx.type = type`, Koa's completion of it looked up once per type. */
function setType(ctx: Koa.Context, type: string): void {
  const known = completed.get(type);
  if (known !== undefined) {
    ctx.set('Content-Type', known);
    return;
  }
  ctx.type = type;
  const value = ctx.response.get('Content-Type');
  // A type Koa does not know leaves no header: not remembered, so it is asked again.
  if (typeof value === 'string' && value !== '' && completed.size < MAX_TYPES) completed.set(type, value);
}
