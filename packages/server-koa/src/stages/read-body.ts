import type { HttpRequest, WireFormat } from '@colapi/wire-format';
import type Koa from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';

/** Stage 3: parses a JSON body of the format's media types, only where the request has one. */
export type BodyReader = (ctx: Koa.Context, head: HttpRequest) => Promise<HttpRequest>;

export function bodyReader(format: WireFormat, limit: number | string): BodyReader {
  const parse = koaBody({
    json: true,
    jsonStrict: false,
    jsonTypes: [...format.bodyTypes],
    jsonLimit: limit,
    urlencoded: false,
    text: false,
    multipart: false,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PATCH, HttpMethodEnum.PUT, HttpMethodEnum.DELETE],
  });
  return async (ctx, head) => {
    if (!head.hasBody) return head;
    await parse(ctx, async () => {});
    return { ...head, body: ctx.request.body };
  };
}
