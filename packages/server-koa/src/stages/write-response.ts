import type { HttpResponse } from '@colapi/wire-format';
import type Koa from 'koa';

/** The last stage: the response onto Koa's context, a JSON body serialised once (or already text). */
export function writeResponse(ctx: Koa.Context, response: HttpResponse, defaultType: string): void {
  ctx.status = response.status;
  const body = response.body !== undefined;
  // With a body, Content-Type is Koa's `type`, below: set once, as Koa completes it (a charset where the type has one).
  for (const [name, value] of Object.entries(response.headers))
    if (!body || name !== 'content-type') ctx.set(name, value);
  if (!body) {
    ctx.body = null;
    return;
  }
  // The type before the body: given a body first, Koa guesses a type for it, looked up and then replaced.
  ctx.type = response.headers['content-type'] ?? defaultType;
  // A string is sent as it is: a document the format wrote as JSON text, or a page that is text already.
  ctx.body = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
}
