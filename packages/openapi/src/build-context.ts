import type { HttpMethod, Registry } from '@colapi/schema';
import type { QueryLimits } from '@colapi/query-ast';
import type { RouteKind } from '@colapi/wire-format';
import { ref, type JsonSchema } from './json-schema.js';
import type { RouteEntry } from './routes.js';

/** An OpenAPI operation or parameter object; plain JSON. */
export type OpenApiObject = Record<string, unknown>;

/** What a format description reads while it describes operations. */
export interface BuildContext {
  readonly registry: Registry;
  readonly limits: QueryLimits;
  /** Adds a named component schema once (built on first use) and answers a `$ref` to it. */
  schema(name: string, build: () => JsonSchema): JsonSchema;
}

/** How one wire format shapes requests and documents, for the generator. */
export interface FormatDescription {
  readonly name: 'jsonapi' | 'legacy';
  /** A sentence for the document's description. */
  readonly summary: string;
  readonly mediaType: string;
  /** The methods each kind of path answers to in this format, before the collection's own `methods`. */
  methodsFor(kind: RouteKind): readonly HttpMethod[];
  /** The operation of a method on a path, or undefined when the format does not offer it there after all. */
  operation(route: RouteEntry, method: HttpMethod, ctx: BuildContext): OpenApiObject | undefined;
}

/** Builds component schemas lazily, so only what some operation uses ends up in the document. */
export class SchemaRegistry {
  readonly schemas: Record<string, JsonSchema> = {};

  schema = (name: string, build: () => JsonSchema): JsonSchema => {
    if (!(name in this.schemas)) {
      // A placeholder first: recursive schemas (nested filters) refer to themselves while being built.
      this.schemas[name] = {};
      this.schemas[name] = build();
    }
    return ref(name);
  };

  /** The schemas sorted by name, for a stable document. */
  sorted(): Record<string, JsonSchema> {
    return Object.fromEntries(Object.entries(this.schemas).sort(([a], [b]) => a.localeCompare(b)));
  }
}
