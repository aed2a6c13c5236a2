import type { ApiError, Operation, OperationResult } from '@colapi/query-ast';
import type { HttpRequest, HttpResponse } from './http-message.js';
import type { DescriptionContext, OpenApiObject } from './openapi-description.js';
import type { DecodeContext } from './wire-format.js';

/**
 * The ids the local ids (`lid`) of a request stand for, once the operations that assign them have run: by
 * type, then lid. Lives for one request.
 */
export type LocalIds = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** One operation of an atomic request, checked against everything that needs no database. */
export interface AtomicStep {
  /** Where the operation sits in the request, as an RFC 6901 pointer (`/atomic:operations/3`). */
  readonly pointer: string;
  /** The operation with the ids its lids stand for by now; throws an ApiError pointing into the request. */
  operation(ids: LocalIds, ctx: DecodeContext): Operation;
  /** The type and lid this operation assigns (an add whose resource carries `lid`), if any. */
  readonly assigns?: { readonly type: string; readonly lid: string };
}

/** The outcome of one step, for the answer: what it did, and for an update the resource as it was before. */
export interface AtomicOutcome {
  /** The operation as the client sent it (before any hook changed it). */
  readonly operation: Operation;
  readonly result: OperationResult;
  readonly before?: OperationResult;
}

/**
 * Several errors answered together (every malformed operation of an atomic request): `status` is the
 * response's.
 */
export class ApiErrors extends Error {
  constructor(
    readonly status: number,
    readonly errors: readonly ApiError[],
  ) {
    super(errors.map((e) => e.detail).join('; '));
    this.name = 'ApiErrors';
  }
}

/**
 * A format's side of JSON:API's Atomic Operations extension: the server serves it at `/operations` of its
 * prefix when the API opts in, and runs the steps in one transaction.
 */
export interface AtomicCodec {
  /** The path segment under the prefix, `operations`. */
  readonly path: string;
  /** Checks Accept and Content-Type for the extension; throws the 406 or 415. */
  negotiate(request: HttpRequest): void;
  /**
   * Reads the request into steps, checking every operation first: throws an ApiErrors with the errors of all
   * malformed operations together, or an ApiError for a malformed document.
   */
  plan(request: HttpRequest, ctx: DecodeContext, maxOperations: number): readonly AtomicStep[];
  /** The answer to steps that all ran: `atomic:results` in order, or 204 when each would be empty. */
  encode(
    request: HttpRequest,
    steps: readonly AtomicStep[],
    outcomes: readonly AtomicOutcome[],
    ctx: DecodeContext,
  ): HttpResponse;
  /** The error document of an atomic request. */
  encodeErrors(request: HttpRequest, status: number, errors: readonly ApiError[]): HttpResponse;
  /** An error of the step at `pointer`, pointing into the request. */
  locate(error: ApiError, pointer: string): ApiError;
  /** The OpenAPI operation of the endpoint's POST. */
  describe(ctx: DescriptionContext): OpenApiObject;
}
