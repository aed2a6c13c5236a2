import type { HttpMethod, Registry } from '@colapi/schema';
import { AGGREGATE_FUNCTIONS, DEFAULT_LIMITS, type QueryLimits } from '@colapi/query-ast';
import type { RouteKind } from '@colapi/wire-format';
import { SchemaRegistry, type BuildContext, type FormatDescription, type OpenApiObject } from './build-context.js';
import { JSONAPI_DESCRIPTION } from './jsonapi-description.js';
import { LEGACY_DESCRIPTION } from './legacy-description.js';
import { enumerateRoutes } from './routes.js';

/** The formats this package can describe, by the name a WireFormat carries. */
export const FORMAT_DESCRIPTIONS: Readonly<Record<string, FormatDescription>> = Object.freeze({
  jsonapi: JSONAPI_DESCRIPTION,
  legacy: LEGACY_DESCRIPTION,
});

/** The part of a WireFormat the generator reads: passing the server's own format keeps both in step. */
export interface FormatLike {
  readonly name: string;
  methodsFor(kind: RouteKind): readonly HttpMethod[];
}

export interface OpenApiOptions {
  /** The deployment's wire format: `'jsonapi'`, `'legacy'`, or the WireFormat object given to createApi. */
  readonly format: 'jsonapi' | 'legacy' | FormatLike;
  /** `info.title`; default `colapi`. */
  readonly title?: string;
  /** `info.version` of the API (not of OpenAPI); default `1.0.0`. */
  readonly version?: string;
  readonly description?: string;
  /** The server's root URL, e.g. `http://127.0.0.1:8080`; the paths carry the prefix. Default: relative. */
  readonly serverUrl?: string;
  /** The path prefix of createApi; default `/api`. */
  readonly prefix?: string;
  /** The limits given to createApi, for page sizes and include depth. */
  readonly limits?: Partial<QueryLimits>;
}

export type OpenApiDocument = OpenApiObject & { openapi: string; paths: Record<string, Record<string, unknown>> };

const METHOD_ORDER: readonly HttpMethod[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

/** The OpenAPI 3.1 document of every collection, path, parameter and document shape of a deployment. */
export function openApiDocument(registry: Registry, options: OpenApiOptions): OpenApiDocument {
  const formatName = typeof options.format === 'string' ? options.format : options.format.name;
  const description = FORMAT_DESCRIPTIONS[formatName];
  if (!description) throw new Error(`no OpenAPI description for the wire format "${formatName}"; known: ${Object.keys(FORMAT_DESCRIPTIONS).join(', ')}`);
  const methodsFor = typeof options.format === 'string' ? description.methodsFor : (k: RouteKind) => (options.format as FormatLike).methodsFor(k);
  const prefix = (options.prefix ?? '/api').replace(/\/$/, '');
  const limits: QueryLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const schemas = new SchemaRegistry();
  const ctx: BuildContext = { registry, limits, schema: schemas.schema };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of enumerateRoutes(registry, prefix)) {
    const offered = new Set(methodsFor(route.kind));
    const item: Record<string, unknown> = {};
    for (const method of METHOD_ORDER) {
      if (!offered.has(method) || !route.collection.methods.has(method)) continue;
      const operation = description.operation(route, method, ctx);
      if (operation) item[method.toLowerCase()] = operation;
    }
    if (Object.keys(item).length) paths[route.path] = item;
  }

  const collections = [...registry.collections.values()];
  // A method the format routes nowhere (PUT in Format A) is not one the collection really offers.
  const kinds: RouteKind[] = ['collection', 'resource', 'related', 'related-item', 'relationship', 'evaluate'];
  const formatMethods = new Set(kinds.flatMap((k) => methodsFor(k)));
  return {
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'colapi',
      version: options.version ?? '1.0.0',
      description: [options.description, description.summary].filter(Boolean).join('\n\n'),
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl.replace(/\/$/, '') }] } : {}),
    tags: collections.map((c) => ({ name: c.name, description: `The ${c.name} collection (model ${c.model.name}, table ${c.model.table}).` })),
    paths,
    components: { schemas: schemas.sorted() },
    // For tools that build requests (the demo's browsable API): the deployment in a compact form.
    'x-colapi': {
      format: description.name,
      mediaType: description.mediaType,
      prefix,
      limits: { defaultPageSize: limits.defaultPageSize, maxPageSize: limits.maxPageSize },
      functions: Object.keys(AGGREGATE_FUNCTIONS),
      collections: collections.map((c) => ({
        name: c.name,
        key: c.model.key,
        methods: METHOD_ORDER.filter((m) => c.methods.has(m) && formatMethods.has(m)),
        functions: c.allowFunctions,
        fields: [...c.columns.values()].map((col) => ({ name: col.name, type: col.type, nullable: col.nullable })),
        virtual: [...c.virtualAttributes.keys()],
        relationships: [...c.relationships.values()].map((r) => ({ name: r.name, cardinality: r.cardinality, target: registry.target(r).name })),
      })),
    },
  };
}
