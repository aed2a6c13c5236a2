import type Koa from 'koa';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { codedTag } from './conditional/entity-tags.js';

export interface CompressionOptions {
  /** Smallest answer, in bytes, that is compressed; default 1024. */
  readonly threshold?: number;
}

export const DEFAULT_COMPRESSION_THRESHOLD = 1024;

type Encoding = 'br' | 'gzip';

const BROTLI = promisify(brotliCompress);
const GZIP = promisify(gzip);
/**
 * Brotli at quality 5, not its default 11: 11 spends seconds of CPU on a page of several megabytes for a few
 * per cent fewer bytes; 5 is still smaller than gzip's default level, at about its speed.
 */
const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };
const COMPRESS: Record<Encoding, (body: Buffer | string) => Promise<Buffer>> = {
  br: (body) => BROTLI(body, BROTLI_OPTIONS),
  gzip: (body) => GZIP(body),
};

/**
 * The encoding `Accept-Encoding` prefers among br and gzip, by its q-values (`*` counts for both; on a tie,
 * br, the smaller); undefined when it accepts neither.
 */
export function chooseEncoding(header: string): Encoding | undefined {
  let br: number | undefined;
  let gz: number | undefined;
  let any: number | undefined;
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';');
    const coding = name!.trim().toLowerCase();
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) q = Number(m[1]);
    }
    if (Number.isNaN(q)) continue;
    if (coding === 'br') br = q;
    else if (coding === 'gzip' || coding === 'x-gzip') gz = q;
    else if (coding === '*') any = q;
  }
  const brQ = br ?? any ?? 0;
  const gzQ = gz ?? any ?? 0;
  if (brQ <= 0 && gzQ <= 0) return undefined;
  return brQ >= gzQ ? 'br' : 'gzip';
}

/** Bytes of a body, counted only when its length leaves the threshold in doubt. */
function atLeast(body: string | Buffer, threshold: number): boolean {
  if (typeof body !== 'string') return body.length >= threshold;
  // A UTF-16 unit is one to three bytes in UTF-8.
  if (body.length >= threshold) return true;
  if (body.length * 3 < threshold) return false;
  return Buffer.byteLength(body) >= threshold;
}

/**
 * Koa middleware compressing answers of at least `threshold` bytes with br or gzip, as the request's
 * `Accept-Encoding` prefers, for the paths `applies` accepts. Such answers say `Vary: Accept-Encoding`, compressed
 * or not. Never compressed: a request without `Accept-Encoding`, HEAD, 204 and 304, a streamed body, one already
 * encoded, and anything under the threshold (JSONP too). A strong ETag `"abc"` becomes `"abc-br"` (`-gzip`):
 * a strong tag of the coded bytes, which the preconditions take as naming the same resource state.
 */
export function compression(
  options: CompressionOptions = {},
  applies: (path: string) => boolean = () => true,
): Koa.Middleware {
  const threshold = options.threshold ?? DEFAULT_COMPRESSION_THRESHOLD;
  if (!(Number.isInteger(threshold) && threshold >= 0))
    throw new TypeError(`compression.threshold must be a whole number of bytes, 0 or more, not ${threshold}`);
  return async (ctx, next) => {
    await next();
    if (!applies(ctx.path)) return;
    // A 304 says what its 200 would: the answer varies on Accept-Encoding, and its tag is the coded one
    // when the 200 would have been compressed (the size of what it stands for is in state).
    if (ctx.status === 304) {
      const bytes = (ctx.state as { representationBytes?: number }).representationBytes;
      if (bytes === undefined || bytes < threshold) return;
      varyOnEncoding(ctx);
      const etag = ctx.response.get('ETag');
      const accepted = ctx.get('Accept-Encoding');
      const encoding = accepted === '' ? undefined : chooseEncoding(accepted);
      if (encoding && typeof etag === 'string' && /^"[^"]*"$/.test(etag) && !/-(gzip|br)"$/.test(etag))
        ctx.set('ETag', codedTag(etag, encoding));
      return;
    }
    const body: unknown = ctx.body;
    if (typeof body !== 'string' && !Buffer.isBuffer(body)) return;
    if (ctx.method === 'HEAD' || ctx.status === 204 || ctx.status === 304) return;
    if (ctx.response.get('Content-Encoding') || !atLeast(body, threshold)) return;
    varyOnEncoding(ctx);
    const accepted = ctx.get('Accept-Encoding');
    const encoding = accepted === '' ? undefined : chooseEncoding(accepted);
    if (!encoding) return;
    // Koa keeps the Content-Type already set and counts the new length.
    ctx.body = await COMPRESS[encoding](body);
    ctx.set('Content-Encoding', encoding);
    // Other bytes, another strong tag (RFC 9110 §8.8.3): the coding marks it, and preconditions read it back.
    const etag = ctx.response.get('ETag');
    if (typeof etag === 'string' && etag.startsWith('"')) ctx.set('ETag', codedTag(etag, encoding));
  };
}

/**
 * `ctx.vary('Accept-Encoding')` without parsing the header in the usual cases: none yet, or Format A's
 * `Accept` alone; the `vary` package parses and rebuilds it on every answer otherwise.
 */
function varyOnEncoding(ctx: Koa.Context): void {
  const current = ctx.response.get('Vary');
  if (current === '') ctx.set('Vary', 'Accept-Encoding');
  else if (current === 'Accept') ctx.set('Vary', 'Accept, Accept-Encoding');
  else ctx.vary('Accept-Encoding');
}
