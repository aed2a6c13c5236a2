/** A response as tests read it: the body parsed as JSON when it is JSON. */
export interface TestResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
}

export interface RequestOptions {
  readonly headers?: Record<string, string>;
  /** A JSON value (serialised) or a string sent as is. */
  readonly body?: unknown;
  /** Milliseconds to wait for the answer; past them the request fails (a hang). Default: no limit. */
  readonly timeout?: number;
}

/** Talks HTTP to a real server, with the media types of one wire format as defaults. */
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
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = this.mediaType;
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
    return { status: res.status, headers: res.headers, text, body: parsed };
  }

  get = (path: string, options?: RequestOptions) => this.request('GET', path, options);
  post = (path: string, body: unknown, options?: RequestOptions) => this.request('POST', path, { ...options, body });
  patch = (path: string, body: unknown, options?: RequestOptions) => this.request('PATCH', path, { ...options, body });
  put = (path: string, body: unknown, options?: RequestOptions) => this.request('PUT', path, { ...options, body });
  delete = (path: string, options?: RequestOptions) => this.request('DELETE', path, options);
}

/** Encodes a filter list for `filter[objects]`. */
export const filterParam = (filters: unknown) => `filter[objects]=${encodeURIComponent(JSON.stringify(filters))}`;
