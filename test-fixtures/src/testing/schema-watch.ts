import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { JsonApiSchemaViolation, jsonApiViolation } from './jsonapi-schema.js';

/**
 * The servers the harness starts check each JSON:API answer as it leaves them, whoever asked: a test's own
 * fetch(), node:http or socket (the fuzz runs, odd headers, content negotiation) as much as HttpClient. A
 * violation is noted, and fails the test during which it was answered (its beforeEach hooks included).
 */

const watched = new WeakSet<Server>();
const noted: string[] = [];

type Chunk = string | Uint8Array;

function bytesOf(chunk: unknown, encoding: unknown): Buffer | undefined {
  if (typeof chunk === 'string')
    return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return undefined;
}

function watchExchange(req: IncomingMessage, res: ServerResponse): void {
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
    const contentType = res.getHeader('content-type');
    const violation = jsonApiViolation({
      method: req.method ?? 'GET',
      path: req.url ?? '',
      status: res.statusCode,
      contentType: Array.isArray(contentType)
        ? contentType.join(', ')
        : contentType === undefined
          ? undefined
          : String(contentType),
      text: decoded(Buffer.concat(chunks), res.getHeader('content-encoding')).toString('utf8'),
    });
    if (violation) noted.push(violation);
    return answered;
  } as ServerResponse['end'];
}

/** The document of a compressed answer (server-koa's compression). */
function decoded(bytes: Buffer, encoding: unknown): Buffer {
  if (encoding === 'gzip') return gunzipSync(bytes);
  if (encoding === 'br') return brotliDecompressSync(bytes);
  return bytes;
}

/** Checks every answer of this server from now on (once per server, however often asked). */
export function watchJsonApiAnswers(server: Server): void {
  if (watched.has(server)) return;
  watched.add(server);
  server.prependListener('request', watchExchange);
}

const wrapped = new WeakSet<object>();

function report(violations: readonly string[]): string {
  const shown = violations.slice(0, 3).join('\n\n');
  const more = violations.length > 3 ? `\n\n… and ${violations.length - 3} more answers the schema refuses` : '';
  return `${violations.length} JSON:API answer${violations.length === 1 ? '' : 's'} of this test ${violations.length === 1 ? 'is' : 'are'} no valid JSON:API 1.0 document:\n\n${shown}${more}`;
}

/**
 * Wraps the test about to run so that it fails when a watched server answered it with a document the
 * schema refuses. A test that failed on its own keeps its failure when the client already said it (a
 * JsonApiSchemaViolation from HttpClient); otherwise the notes come first and its own failure after them.
 */
function wrapCurrentTest(this: Mocha.Context): void {
  noted.length = 0;
  const test = this.currentTest;
  const fn = test?.fn;
  // A test written with a done callback keeps its own function: none of the harness's suites has one.
  if (!test || !fn || fn.length > 0 || wrapped.has(fn)) return;
  const checked = async function (this: Mocha.Context) {
    let failure: unknown;
    let failed = false;
    try {
      await (fn as Mocha.AsyncFunc).call(this);
    } catch (error) {
      failure = error;
      failed = true;
    }
    const violations = noted.splice(0);
    if (violations.length && !(failure instanceof JsonApiSchemaViolation)) {
      const own = failed
        ? `\n\nThe test failed on its own too: ${failure instanceof Error ? (failure.stack ?? failure.message) : String(failure)}`
        : '';
      throw new JsonApiSchemaViolation(`${report(violations)}${own}`);
    }
    if (failed) throw failure;
  };
  wrapped.add(checked);
  test.fn = checked;
}

let installed = false;

/** Registers the root hook that wraps each test; the harness calls it when its module is loaded. */
export function checkJsonApiAnswersInEachTest(): void {
  if (installed || typeof beforeEach !== 'function') return;
  installed = true;
  beforeEach(wrapCurrentTest);
}
