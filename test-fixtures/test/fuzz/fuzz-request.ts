import http from 'node:http';
import { stringsOf } from '@colapi/test-fixtures/testing';

/** One HTTP request of a fuzz run, kept as data so that fast-check can shrink and print it. */
export interface FuzzRequest {
  readonly method: string;
  /** Path segments after the prefix, unencoded: `['person', '1', 'articles']`. */
  readonly segments: readonly string[];
  readonly query: readonly (readonly [string, string])[];
  readonly headers: Readonly<Record<string, string>>;
  /** The body as sent: JSON text, or anything else. */
  readonly body?: string;
  readonly trailingSlash?: boolean;
}

export interface FuzzResponse {
  readonly status: number;
  readonly text: string;
  readonly contentType: string;
  readonly ms: number;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Percent-encodes UTF-8 bytes; a lone surrogate goes out as U+FFFD, as a browser would send it. */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += byte < 128 && UNRESERVED.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export function pathOf(r: FuzzRequest): string {
  const path = `/api/${r.segments.map(percentEncode).join('/')}${r.trailingSlash ? '/' : ''}`;
  const query = r.query.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&');
  return query ? `${path}?${query}` : path;
}

/**
 * Everything the client sent that an error detail may quote back: whole values, and the pieces the parsers
 * quote one by one (list items, path steps, the type inside `fields[...]`, a sort key without its sign).
 */
export function echoesOf(r: FuzzRequest): string[] {
  const out = sentStrings(r);
  for (const text of [...out]) {
    for (const piece of text.split(/[,.[\]]|__/)) out.push(piece, piece.replace(/^[-+]+/, ''));
    out.push(text.replace(/^[-+]+/, ''));
  }
  return out;
}

function sentStrings(r: FuzzRequest): string[] {
  // A 404 for a path no route serves quotes the path as it came, still percent-encoded.
  const out: string[] = [...r.segments, ...r.segments.map(percentEncode), pathOf(r).split('?')[0]!];
  for (const v of Object.values(r.headers)) out.push(v, ...v.split(/[;,]/).map((p) => p.trim().toLowerCase()));
  for (const [k, v] of r.query) {
    out.push(k, v);
    try {
      quotable(JSON.parse(v), out);
    } catch {
      // not JSON: quoted as it is, if at all
    }
  }
  if (r.body !== undefined) {
    out.push(r.body);
    try {
      quotable(JSON.parse(r.body), out);
    } catch {
      // not JSON
    }
  }
  return out;
}

/**
 * A connection per request: after an early answer (405, 413) the server may close a keep-alive connection
 * whose body it did not read, and a reused socket would then fail for reasons of the client's own making.
 */
const agent = new http.Agent({ keepAlive: false });

/**
 * Sends a request exactly as built (node:http keeps `..` segments and odd methods that fetch would rewrite or
 * refuse); a server that does not answer within `timeoutMs` fails the run (a hang).
 */
export function send(origin: string, r: FuzzRequest, timeoutMs: number): Promise<FuzzResponse> {
  const started = performance.now();
  const { hostname, port } = new URL(origin);
  const body =
    r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD' ? Buffer.from(r.body, 'utf8') : undefined;
  const headers: Record<string, string | number> = { ...r.headers, ...(body ? { 'content-length': body.length } : {}) };
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: hostname,
        port,
        method: r.method,
        path: pathOf(r),
        headers,
        agent,
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            contentType: String(res.headers['content-type'] ?? ''),
            ms: performance.now() - started,
          }),
        );
      },
    );
    req.on('error', (e) =>
      reject(new Error(`no answer to ${r.method} ${pathOf(r).slice(0, 300)}: ${e.name} ${e.message}`)),
    );
    req.end(body);
  });
}

/**
 * The strings of a JSON value and the JSON text of each of its parts: a detail may quote a whole member. A
 * string that is JSON itself (Format B's `q` inside a body) is taken apart too: the server quotes its values.
 */
function quotable(value: unknown, out: string[]): void {
  for (const text of stringsOf(value)) {
    out.push(text);
    if (!/^\s*[[{]/.test(text)) continue;
    try {
      quotable(JSON.parse(text), out);
    } catch {
      // not JSON after all
    }
  }
  const walk = (v: unknown) => {
    if (v === null || typeof v !== 'object') return;
    out.push(JSON.stringify(v));
    for (const item of Object.values(v)) walk(item);
  };
  walk(value);
}
