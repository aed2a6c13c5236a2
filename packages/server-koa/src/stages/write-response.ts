import { jsonTextOf, type HttpResponse } from '@colapi/wire-format';
import type Koa from 'koa';

/** The last stage: the response onto Koa's context, a JSON body serialised once (or already text). */
export function writeResponse(ctx: Koa.Context, response: HttpResponse, defaultType: string): void {
  ctx.status = response.status;
  // A document the format wrote as text goes out as it is; `response.body` would parse it.
  const text = jsonTextOf(response);
  const body = text !== undefined || response.body !== undefined;
  // With a body, Content-Type is Koa's `type`, below: set once, as Koa completes it (a charset where the type has one).
  for (const [name, value] of Object.entries(response.headers))
    if (!body || name !== 'content-type') ctx.set(name, value);
  if (!body) {
    ctx.body = null;
    return;
  }
  // The type before the body: given a body first, Koa guesses a type for it, looked up and then replaced.
  ctx.type = response.headers['content-type'] ?? defaultType;
  ctx.body = text ?? (typeof response.body === 'string' ? response.body : JSON.stringify(response.body));
}
