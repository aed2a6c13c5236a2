import type { HttpMethod, Registry } from '@colapi/schema';
import { AGGREGATE_FUNCTIONS, DEFAULT_LIMITS, type QueryLimits } from '@colapi/query-ast';
import { ROUTE_KINDS, type DescriptionContext, type OpenApiObject, type WireFormat } from '@colapi/wire-format';
import { conditionalComponents } from './conditional-components.js';
import { withConditionalRequests } from './conditional-requests.js';
import { withJsonpAnswer } from './jsonp-answer.js';
import { enumerateRoutes } from './routes.js';
import { SchemaRegistry } from './schema-registry.js';

/** The part of a WireFormat the generator reads: the server's own format object fits, so both stay in step. */
export type DescribedFormat = Pick<WireFormat, 'name' | 'mediaType' | 'methodsFor' | 'openApi' | 'atomic'>;

export interface OpenApiOptions {
  /** The deployment's wire format: the WireFormat object given to createApi. */
  readonly format: DescribedFormat;
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
  /**
   * Under access control: the API asks for a JWT bearer token (`securitySchemes.bearer`), or takes requests
   * without one too when it has an anonymous role (`optional`).
   */
  readonly bearer?: { readonly optional: boolean };
  /** createApi's `atomic`: the document describes the atomic operations endpoint too. */
  readonly atomic?: boolean;
  /**
   * createApi's `requireIfMatch`: `If-Match` is a required parameter of every write of an existing resource,
   * and such writes document their 428.
   */
  readonly requireIfMatch?: boolean;
}

export type OpenApiDocument = OpenApiObject & { openapi: string; paths: Record<string, Record<string, unknown>> };

const METHOD_ORDER: readonly HttpMethod[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

/**
 * The OpenAPI 3.1 document of a deployment: every path the server routes for the registry, with the methods
 * the format routes there and the collection registered, each operation as the format describes it.
 */
export function openApiDocument(registry: Registry, options: OpenApiOptions): OpenApiDocument {
  const { format } = options;
  const prefix = (options.prefix ?? '/api').replace(/\/$/, '');
  const limits: QueryLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const schemas = new SchemaRegistry();
  const ctx: DescriptionContext = { registry, limits, schema: schemas.schema };

  const requireIfMatch = options.requireIfMatch === true;
  let errorContent: OpenApiObject | undefined;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of enumerateRoutes(registry, prefix)) {
    const offered = new Set(format.methodsFor(route.kind));
    const item: Record<string, unknown> = {};
    for (const method of METHOD_ORDER) {
      if (!offered.has(method) || !route.collection.methods.has(method)) continue;
      const operation = format.openApi.operation(route, method, ctx);
      if (!operation) continue;
      // The format's error body, which 412 and 428 carry too.
      errorContent ??= ((operation.responses as Record<string, OpenApiObject> | undefined)?.['4XX']?.content ??
        undefined) as OpenApiObject | undefined;
      item[method.toLowerCase()] = withConditionalRequests(withJsonpAnswer(operation), route, method, requireIfMatch);
    }
    if (Object.keys(item).length) paths[route.path] = item;
  }
  if (options.atomic && format.atomic) paths[`${prefix}/${format.atomic.path}`] = { post: format.atomic.describe(ctx) };

  const collections = [...registry.collections.values()];
  // A method the format routes nowhere (PUT in Format A) is not one the collection really offers.
  const formatMethods = new Set(ROUTE_KINDS.flatMap((k) => format.methodsFor(k)));
  const conditional = conditionalComponents(requireIfMatch, errorContent);
  return {
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'colapi',
      version: options.version ?? '1.0.0',
      description: [options.description, format.openApi.summary].filter(Boolean).join('\n\n'),
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl.replace(/\/$/, '') }] } : {}),
    tags: collections.map((c) => ({
      name: c.name,
      description: `The ${c.name} collection (model ${c.model.name}, table ${c.model.table}).`,
    })),
    paths,
    components: {
      schemas: schemas.sorted(),
      ...conditional,
      ...(options.bearer
        ? { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } }
        : {}),
    },
    ...(options.bearer ? { security: options.bearer.optional ? [{ bearer: [] }, {}] : [{ bearer: [] }] } : {}),
    // For tools that build requests (the browsable API): the deployment in a compact form.
    'x-colapi': {
      format: format.name,
      mediaType: format.mediaType,
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
        relationships: [...c.relationships.values()].map((r) => ({
          name: r.name,
          cardinality: r.cardinality,
          target: registry.target(r).name,
        })),
      })),
    },
  };
}
