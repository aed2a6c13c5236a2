import type { HttpRequest, WireFormat } from '@colapi/wire-format';
import bourne from '@hapi/bourne';
import bytes from 'bytes';
import type Koa from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import type { IncomingMessage } from 'node:http';
import { withBody } from './request-head.js';

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
  const types = new Set(format.bodyTypes.map((t) => t.toLowerCase()));
  const maxBytes = typeof limit === 'number' ? limit : bytes.parse(limit);
  return async (ctx, head) => {
    if (!head.hasBody) return head;
    const length = plainLength(ctx.req, types, maxBytes);
    if (length === undefined) await parse(ctx, async () => {});
    else (ctx.request as { body?: unknown }).body = await readPlainJson(ctx.req, length);
    return withBody(head, (ctx.request as { body?: unknown }).body);
  };
}

/**
 * The body's length when the request is the plain case: a Content-Length within the limit, no transfer or
 * content coding, a media type of the format with at most `charset=utf-8`. Such a body is read here, the
 * way koa-body would read it (its limit, the same JSON parser with `__proto__` members refused); every
 * other request goes through koa-body itself, with its decoding, its charsets and its errors. koa-body's
 * generality (type matching, decoders, stream plumbing) had been about a twentieth of a create's CPU.
 */
function plainLength(req: IncomingMessage, types: ReadonlySet<string>, maxBytes: number | null): number | undefined {
  const { headers } = req;
  const declared = headers['content-length'];
  if (declared === undefined || headers['transfer-encoding'] !== undefined) return undefined;
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return undefined;
  if (!/^\d{1,9}$/.test(declared)) return undefined;
  const length = Number(declared);
  if (length === 0 || (maxBytes !== null && length > maxBytes)) return undefined;
  const type = headers['content-type'];
  if (type === undefined) return undefined;
  const semicolon = type.indexOf(';');
  if (semicolon < 0) return types.has(type.trim().toLowerCase()) ? length : undefined;
  if (!types.has(type.slice(0, semicolon).trim().toLowerCase())) return undefined;
  return /^\s*charset\s*=\s*"?utf-8"?\s*$/i.test(type.slice(semicolon + 1)) ? length : undefined;
}

/** An error as koa-body's reader gives it: a status, and for a parse failure the text it could not parse. */
class BodyRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: string,
  ) {
    super(message);
  }
}

/**
 * The body, read from the request's own events: the stream's async iterator (what `for await` uses) had cost
 * a few promises and about two kilobytes of garbage per request, for a body that is one chunk.
 */
function readPlainJson(req: IncomingMessage, length: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onAbort);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
    };
    // An error, or a close before the end: the client went away (or the stream was destroyed) mid-body.
    const onAbort = () => {
      cleanup();
      reject(new BodyRefused(400, 'request aborted'));
    };
    const onEnd = () => {
      cleanup();
      if (received !== length) return reject(new BodyRefused(400, 'request size did not match content length'));
      let text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received)).toString('utf8');
      // As koa-body's decoder does: a byte order mark is not part of the text.
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      try {
        resolve(bourne.parse(text, { protoAction: 'error' }));
      } catch (error) {
        reject(new BodyRefused(400, (error as Error).message, text));
      }
    };
    if (req.readableEnded) return onEnd();
    if (req.destroyed) return onAbort();
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onAbort);
  });
}
