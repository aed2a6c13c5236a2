/** Where in the request an error lies: a query parameter, a JSON pointer into the body, or a header. */
export interface ErrorSource {
  readonly parameter?: string;
  readonly pointer?: string;
  /** The request header at fault (`If-Match`), as JSON:API 1.1's `source.header`. */
  readonly header?: string;
}

/**
 * Stable reasons behind some errors, for wire formats that word or classify them their own way
 * (Format B answers several results of a `single` search with 400, Format A with 404; Format B answers the
 * integrity conflicts `unique-violation` and `still-referenced` with 400, Format A with 409).
 */
export type ErrorCode = 'no-result' | 'multiple-results' | 'unique-violation' | 'still-referenced';

/**
 * A failure that the client caused or may be told about. Every stage throws these; the wire format turns them
 * into its error document. Anything else that escapes is a bug and answers 500 with no details.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly source?: ErrorSource;
  /** Extra response headers, such as `Allow` for 405. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly code?: ErrorCode;

  constructor(
    status: number,
    title: string,
    detail: string,
    source?: ErrorSource,
    headers?: Record<string, string>,
    code?: ErrorCode,
  ) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.title = title;
    this.detail = detail;
    if (source) this.source = source;
    if (headers) this.headers = headers;
    if (code) this.code = code;
  }

  static badRequest(detail: string, source?: ErrorSource): ApiError {
    return new ApiError(400, 'Bad Request', detail, source);
  }

  static notFound(detail: string): ApiError {
    return new ApiError(404, 'Not Found', detail);
  }

  /** A search that expects exactly one resource found none. */
  static noResult(detail: string): ApiError {
    return new ApiError(404, 'Not Found', detail, undefined, undefined, 'no-result');
  }

  /** A search that expects exactly one resource found several: 404, as JSON:API's filter[single] asks. */
  static multipleResults(detail: string): ApiError {
    return new ApiError(404, 'Not Found', detail, undefined, undefined, 'multiple-results');
  }

  static forbidden(detail: string, source?: ErrorSource): ApiError {
    return new ApiError(403, 'Forbidden', detail, source);
  }

  static conflict(detail: string, source?: ErrorSource): ApiError {
    return new ApiError(409, 'Conflict', detail, source);
  }

  /** A write would repeat a unique value (a client id included): 409 unless the wire format says otherwise. */
  static uniqueViolation(detail: string, source?: ErrorSource): ApiError {
    return new ApiError(409, 'Conflict', detail, source, undefined, 'unique-violation');
  }

  /** A delete refused because other resources still refer to the resource: 409 unless the wire format says otherwise. */
  static stillReferenced(detail: string): ApiError {
    return new ApiError(409, 'Conflict', detail, undefined, undefined, 'still-referenced');
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}
