import type { Registry } from '@colapi/schema';
import type { QueryLimits } from '@colapi/query-ast';
import type { HttpRequest, HttpResponse, WireFormat } from '@colapi/wire-format';
import type { Database } from '@colapi/sql-compiler';
import type { AccessOptions } from './access/access-options.js';
import type { CompressionOptions } from './compression.js';
import type { CorsOptions } from './cors.js';
import type { HookTable } from './hooks.js';
import type { ApiMetrics } from './metrics/api-metrics.js';

/** Runs on every response just before it is sent (CORS headers and the like); may return a changed one. */
export type ResponseHook = (
  response: HttpResponse,
  request: HttpRequest,
) => HttpResponse | void | Promise<HttpResponse | void>;

export interface ApiOptions {
  readonly registry: Registry;
  /** An open database: `connect(url)` of @colapi/sql-compiler gives one. */
  readonly database: Database;
  /** The wire format, e.g. `jsonApiFormat()`. */
  readonly format: WireFormat;
  /** Path prefix of every collection; default `/api`. */
  readonly prefix?: string;
  /** Absolute URL of the prefix for links, e.g. `https://example.com/api`; default from the request's Host. */
  readonly baseUrl?: string;
  readonly limits?: Partial<QueryLimits>;
  /** Largest JSON body accepted (bytes or a string such as `1mb`); larger answers 413. */
  readonly bodyLimit?: number | string;
  /** Longest request URL accepted (default 8192 characters); longer is 414. */
  readonly maxUrlLength?: number;
  /** Code before and after operations, per collection and operation kind. */
  readonly hooks?: HookTable;
  readonly onResponse?: ResponseHook;
  /** Adds a `Server-Timing` header with the parse, query and encode time of each request. */
  readonly serverTiming?: boolean;
  /**
   * Milliseconds a write may spend retrying its transaction after a deadlock or a serialization failure,
   * counted from its first attempt; default 5000, 0 for no retry. Each retry waits a random, growing pause
   * (up to 0.5 s) and starts only if that pause ends within the budget; then the request answers 503. An
   * attempt under way is not cut short: `statementTimeout` (connect()) bounds each of its statements.
   */
  readonly transactionRetryBudget?: number;
  /** Told of every unexpected error (a 500), for logging; the client sees no details. */
  readonly onUnexpectedError?: (error: unknown) => void;
  /**
   * Puts the internal message of an unexpected error in the detail of its 500, for development only: such a
   * message may hold SQL text, driver messages or paths. Off by default; never on in production.
   */
  readonly debug?: boolean;
  /**
   * Identity (JWT bearer tokens) and per-role rules, enforced on every path in one place: see AccessOptions.
   * Without it every client has the database role's full access.
   */
  readonly access?: AccessOptions;
  /**
   * Cross-origin access by browsers to the paths under the prefix: see CorsOptions. Without it no CORS
   * header is sent. For a whole app (an OpenAPI route beside the API), use `cors()` as its first middleware instead.
   */
  readonly cors?: CorsOptions;
  /**
   * Answers under the prefix of at least `threshold` bytes (default 1 KB) are compressed with br or gzip when
   * the request's Accept-Encoding asks; on by default, `false` turns it off. See `compression()`.
   */
  readonly compression?: CompressionOptions | false;
  /**
   * Serves JSON:API's Atomic Operations extension at `POST <prefix>/operations` (formats that have it);
   * off by default, when that path answers 404.
   */
  readonly atomic?: boolean;
  /** Most operations one atomic request may carry (default 100); more is 413. */
  readonly maxAtomicOperations?: number;
  /**
   * Prometheus metrics (request durations, requests in flight, 401/403 by reason) kept in this ApiMetrics;
   * `metrics.observe(database)` adds the pool's, statements' and retries'. Without it nothing is measured.
   */
  readonly metrics?: ApiMetrics;
  /**
   * Every write of an existing resource (PATCH, PUT, DELETE, a relationship change) without `If-Match` is
   * 428, so that no client can overwrite a version it has not read; a bulk update needs `If-Match: *`.
   * Creates are spared. Off by default.
   */
  readonly requireIfMatch?: boolean;
}
