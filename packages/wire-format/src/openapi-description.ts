import type { CollectionSchema, HttpMethod, Registry, RelationshipSchema } from '@colapi/schema';
import type { QueryLimits } from '@colapi/query-ast';
import type { RouteKind } from './route.js';

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1), kept loose: the document is plain JSON. */
export type JsonSchema = Record<string, unknown>;

/** An OpenAPI operation, parameter or response object; plain JSON. */
export type OpenApiObject = Record<string, unknown>;

/** One path of a deployment, with what it reaches. */
export interface RouteEntry {
  readonly kind: RouteKind;
  /** An OpenAPI path template, e.g. `/api/books/{id}/author`. */
  readonly path: string;
  readonly collection: CollectionSchema;
  readonly relationship?: RelationshipSchema;
  /** The collection behind the relationship. */
  readonly target?: CollectionSchema;
}

/** What a format reads while it describes its operations. */
export interface DescriptionContext {
  readonly registry: Registry;
  readonly limits: QueryLimits;
  /** Adds a named component schema once (built on first use) and answers a `$ref` to it. */
  schema(name: string, build: () => JsonSchema): JsonSchema;
}

/**
 * How a wire format describes itself in OpenAPI 3.1. The generator (@colapi/openapi) enumerates the paths,
 * keeps the methods the format routes (`methodsFor`) and the collection registered, and asks the format for
 * each operation: its parameters, request body and responses, with every media type it answers in.
 */
export interface OpenApiDescription {
  /** A sentence for the document's description. */
  readonly summary: string;
  /**
   * The operation object of `method` on a path, or undefined where the format does not offer it after all
   * (a path left with no operation is left out of the document).
   */
  operation(route: RouteEntry, method: HttpMethod, ctx: DescriptionContext): OpenApiObject | undefined;
}
