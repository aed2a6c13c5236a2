export { FORMAT_DESCRIPTIONS, openApiDocument, type FormatLike, type OpenApiDocument, type OpenApiOptions } from './openapi-document.js';
export type { BuildContext, FormatDescription, OpenApiObject } from './build-context.js';
export { enumerateRoutes, type RouteEntry } from './routes.js';
export { columnSchema, inputSchema, type JsonSchema } from './json-schema.js';
