import type { CollectionSchema, HttpMethod, Registry } from '@colapi/schema';
import type { ApiError, BinaryOperator, Operation, OperationResult, QueryLimits } from '@colapi/query-ast';
import type { HttpRequest, HttpResponse } from './http-message.js';
import type { OpenApiDescription } from './openapi-description.js';
import type { RouteKind } from './route.js';
import type { AtomicCodec } from './atomic-codec.js';

export interface DecodeContext {
  readonly registry: Registry;
  readonly limits: QueryLimits;
  /** Why the database cannot run an operator, or undefined when it can. */
  readonly unsupportedOperator: (op: BinaryOperator) => string | undefined;
}

/**
 * A wire format: how requests are read and documents written. The server calls only these; swapping the
 * format of a deployment swaps this one object.
 */
export interface WireFormat {
  readonly name: string;
  /** The media type of its documents. */
  readonly mediaType: string;
  /** Body media types the server should parse as JSON for this format. */
  readonly bodyTypes: readonly string[];
  /** The methods a kind of path answers to at all; the collection's own `methods` narrow them. */
  methodsFor(kind: RouteKind): readonly HttpMethod[];
  /** Checks Accept and Content-Type; throws an ApiError (406, 415) when they do not fit. */
  negotiate(request: HttpRequest): void;
  /** Reads a request into an operation; throws an ApiError when it is malformed. */
  decode(request: HttpRequest, collection: CollectionSchema, ctx: DecodeContext): Operation;
  /** Writes the result of an operation. */
  encode(request: HttpRequest, operation: Operation, result: OperationResult, ctx: DecodeContext): HttpResponse;
  /** Writes errors; `status` is the status of the response. */
  encodeErrors(request: HttpRequest, status: number, errors: readonly ApiError[]): HttpResponse;
  /**
   * The argument of the JSONP callback for a response with a body, when the request named a valid
   * `callback`; undefined when JSONP does not apply (the response then goes out as it is). The server
   * checks the callback name and writes the script, served with status 200 so that a script tag runs it:
   * the payload must carry the real status.
   */
  jsonpPayload(request: HttpRequest, response: HttpResponse): object | undefined;
  /** Its OpenAPI description, which @colapi/openapi composes into the deployment's document. */
  readonly openApi: OpenApiDescription;
  /** JSON:API's Atomic Operations extension, for a format that has it (served when the API opts in). */
  readonly atomic?: AtomicCodec;
}
