import type { HttpResponse } from '@colapi/wire-format';
import type Koa from 'koa';

/** The last stage: the response onto Koa's context, a JSON body serialised once. */
export function writeResponse(ctx: Koa.Context, response: HttpResponse, defaultType: string): void {
  ctx.status = response.status;
  for (const [name, value] of Object.entries(response.headers)) ctx.set(name, value);
  if (response.body === undefined) {
    ctx.body = null;
    return;
  }
  // The type before the body: given a body first, Koa guesses a type for it, looked up and then replaced.
  ctx.type = response.headers['content-type'] ?? defaultType;
  ctx.body = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
}
