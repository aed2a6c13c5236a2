import type { CollectionSchema, HttpMethod, Registry } from '@colapi/schema';
import type { ApiError } from './api-error.js';
import type { QueryLimits } from './limits.js';
import type { Operation } from './operations.js';
import type { BinaryOperator } from './operators.js';
import type { OperationResult } from './result.js';

/** The parts of a path under the prefix: `/api/<collection>/<id>/<relation>/<relatedId>` and the like. */
export interface Route {
  readonly collection: string;
  readonly id?: string;
  readonly relation?: string;
  readonly relatedId?: string;
  /** `/<collection>/<id>/relationships/<relation>` */
  readonly relationships?: boolean;
  /** `/eval/<collection>` */
  readonly evaluate?: boolean;
}

export type RouteKind = 'collection' | 'resource' | 'related' | 'related-item' | 'relationship' | 'evaluate';

export function routeKind(route: Route): RouteKind {
  if (route.evaluate) return 'evaluate';
  if (route.relationships) return 'relationship';
  if (route.relatedId !== undefined) return 'related-item';
  if (route.relation !== undefined) return 'related';
  if (route.id !== undefined) return 'resource';
  return 'collection';
}

/** An HTTP request as a wire format sees it: no framework types. */
export interface HttpRequest {
  readonly method: string;
  /** The absolute URL of the request, for links. */
  readonly url: URL;
  /** The absolute URL of the API prefix, e.g. `http://host/api`. */
  readonly base: string;
  readonly route: Route;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The parsed JSON body, when there is one. */
  readonly body?: unknown;
  readonly hasBody: boolean;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** A JSON value, or undefined for no body. */
  readonly body?: unknown;
}

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
}
