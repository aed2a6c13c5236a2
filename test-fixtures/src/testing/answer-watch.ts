import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/** An answer as it left a server: the request line, the status, the headers and the body text (decoded). */
export interface WatchedAnswer {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

type Chunk = string | Uint8Array;

function bytesOf(chunk: unknown, encoding: unknown): Buffer | undefined {
  if (typeof chunk === 'string')
    return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return undefined;
}

/** The document of a compressed answer (server-koa's compression). */
function decoded(bytes: Buffer, encoding: unknown): Buffer {
  if (encoding === 'gzip') return gunzipSync(bytes);
  if (encoding === 'br') return brotliDecompressSync(bytes);
  return bytes;
}

function headersOf(res: ServerResponse): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.getHeaders())) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, String(v));
  }
  return headers;
}

function watchExchange(req: IncomingMessage, res: ServerResponse, listener: (answer: WatchedAnswer) => void): void {
  const chunks: Buffer[] = [];
  const write = res.write;
  const end = res.end;
  res.write = function (this: ServerResponse, chunk: Chunk, ...rest: unknown[]) {
    const bytes = bytesOf(chunk, rest[0]);
    if (bytes) chunks.push(bytes);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as ServerResponse['write'];
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    if (typeof args[0] !== 'function') {
      const bytes = bytesOf(args[0], args[1]);
      if (bytes) chunks.push(bytes);
    }
    const answered = (end as (...a: unknown[]) => ServerResponse).apply(this, args);
    listener({
      method: req.method ?? 'GET',
      path: req.url ?? '',
      status: res.statusCode,
      headers: headersOf(res),
      text: decoded(Buffer.concat(chunks), res.getHeader('content-encoding')).toString('utf8'),
    });
    return answered;
  } as ServerResponse['end'];
}

/**
 * Calls `listener` with every answer of `server` from now on, as it leaves, whoever asked (HttpClient, a
 * test's own fetch(), node:http): the checks of the harness see what a client would.
 */
export function watchAnswers(server: Server, listener: (answer: WatchedAnswer) => void): void {
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => watchExchange(req, res, listener));
}
