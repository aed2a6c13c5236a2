import http from 'node:http';
import { assertJsonApiDocument } from './jsonapi-schema.js';

/** A response as tests read it: the body parsed as JSON when it is JSON. */
export interface TestResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: any;
}

export interface RequestOptions {
  readonly headers?: Record<string, string>;
  /** A JSON value (serialised) or a string sent as is. */
  readonly body?: unknown;
  /** Milliseconds to wait for the answer; past them the request fails (a hang). Default: no limit. */
  readonly timeout?: number;
}

/**
 * Talks HTTP to a real server, with the media types of one wire format as defaults. Every JSON:API answer
 * (Content-Type application/vnd.api+json) is held to the JSON:API 1.0 schema: one it refuses makes the
 * request throw a JsonApiSchemaViolation naming the schema errors and the body, which fails the test.
 */
export class HttpClient {
  constructor(
    readonly origin: string,
    readonly mediaType: string,
  ) {}

  async request(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { accept: this.mediaType, ...options.headers };
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
        headers['content-type'] = this.mediaType;
    }
    const res = await fetch(`${this.origin}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
      ...(options.timeout !== undefined ? { signal: AbortSignal.timeout(options.timeout) } : {}),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    assertJsonApiDocument({ method, path, status: res.status, contentType: res.headers.get('content-type'), text });
    return { status: res.status, headers: res.headers, text, body: parsed };
  }

  /**
   * A GET whose path goes on the wire exactly as given, unencoded (fetch() would percent-encode `{`, `"` and
   * the like). Node refuses spaces and control characters in a path.
   */
  getRaw(path: string, options: Pick<RequestOptions, 'headers'> = {}): Promise<TestResponse> {
    const { hostname, port } = new URL(this.origin);
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: hostname, port, path, method: 'GET', headers: { accept: this.mediaType, ...options.headers } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
                headers.append(name, v);
            }
            let body: unknown;
            try {
              body = text ? JSON.parse(text) : undefined;
            } catch {
              body = undefined;
            }
            try {
              assertJsonApiDocument({
                method: 'GET',
                path,
                status: res.statusCode ?? 0,
                contentType: headers.get('content-type'),
                text,
              });
            } catch (violation) {
              reject(violation);
              return;
            }
            resolve({ status: res.statusCode ?? 0, headers, text, body });
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  get = (path: string, options?: RequestOptions) => this.request('GET', path, options);
  post = (path: string, body: unknown, options?: RequestOptions) => this.request('POST', path, { ...options, body });
  patch = (path: string, body: unknown, options?: RequestOptions) => this.request('PATCH', path, { ...options, body });
  put = (path: string, body: unknown, options?: RequestOptions) => this.request('PUT', path, { ...options, body });
  delete = (path: string, options?: RequestOptions) => this.request('DELETE', path, options);
}

/** Encodes a filter list for `filter[objects]`. */
export const filterParam = (filters: unknown) => `filter[objects]=${encodeURIComponent(JSON.stringify(filters))}`;
