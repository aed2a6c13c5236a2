export {
  openApiDocument,
  type DescribedFormat,
  type OpenApiDocument,
  type OpenApiOptions,
} from './openapi-document.js';
export { enumerateRoutes } from './routes.js';
export { SchemaRegistry } from './schema-registry.js';
export { columnSchema, componentName, inputSchema, NOW_VALUES, ref } from './json-schema.js';
export { filterSchema, functionSchema, type FilterSchemaOptions } from './filter-schema.js';
export {
  callbackParameter,
  JSONP_MEDIA_TYPE,
  jsonQuery,
  jsonResponse,
  noContent,
  pathParameters,
  query,
  readFromParameter,
} from './parameters.js';
export { operationBuilder, type OperationBuilder } from './operation.js';
export { withJsonpAnswer } from './jsonp-answer.js';
export { CONDITIONAL, conditionalComponents, resourceTagWhenFound } from './conditional-components.js';
export { withConditionalRequests } from './conditional-requests.js';
