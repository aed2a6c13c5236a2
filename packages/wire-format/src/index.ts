export { ROUTE_KINDS, routeKind, type Route, type RouteKind } from './route.js';
export type { HttpRequest, HttpResponse } from './http-message.js';
export {
  documentOf,
  jsonTextOf,
  jsonTextResponse,
  readableResponse,
  sendableResponse,
  withHeaders,
} from './json-text-response.js';
export type { DecodeContext, WireFormat } from './wire-format.js';
export { rfc3986Uri } from './uri.js';
export type {
  DescriptionContext,
  JsonSchema,
  OpenApiDescription,
  OpenApiObject,
  RouteEntry,
} from './openapi-description.js';
export { ApiErrors, type AtomicCodec, type AtomicOutcome, type AtomicStep, type LocalIds } from './atomic-codec.js';
