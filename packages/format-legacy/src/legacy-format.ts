import type { HttpMethod } from '@colapi/schema';
import type { OperatorSet } from '@colapi/query-ast';
import { routeKind, type HttpRequest, type Route, type RouteKind, type WireFormat } from '@colapi/wire-format';
import { decodeEvaluate, decodeRead } from './decode-read.js';
import { decodeWrite } from './decode-write.js';
import { encodeErrors, encodeResult } from './encode.js';
import { legacyJsonpPayload } from './jsonp-payload.js';
import { checkContentType, JSON_MEDIA_TYPE } from './media-type.js';
import { legacyDescription } from './openapi/description.js';
import { LEGACY_OPERATOR_SPELLINGS } from './parse-query.js';

export interface LegacyFormatOptions {
  /**
   * The operator spellings filters may use; default LEGACY_OPERATOR_SPELLINGS (the
   * specification's list for Format B, plus `ilike`). ALL_OPERATOR_SPELLINGS adds `not_like` and the
   * network address operators.
   */
  readonly operators?: OperatorSet;
}

/** The methods of Format B per kind of path; PUT is an alias of PATCH wherever PATCH is listed. */
const METHODS: Record<RouteKind, readonly HttpMethod[]> = {
  collection: ['GET', 'POST', 'PATCH', 'PUT'],
  resource: ['GET', 'PATCH', 'PUT', 'DELETE'],
  related: ['GET'],
  'related-item': ['GET', 'DELETE'],
  // Format B has no relationship paths: `/<c>/<id>/relationships/<x>` is item x of a relation named "relationships".
  relationship: ['GET', 'DELETE'],
  evaluate: ['GET'],
};

/** The route as Format B reads it. */
function legacyRoute(route: Route): Route {
  if (!route.relationships) return route;
  return { collection: route.collection, id: route.id!, relation: 'relationships', relatedId: route.relation! };
}

/** Format B: plain JSON objects under `application/json`, `q` search objects, list objects. */
export function legacyFormat(options: LegacyFormatOptions = {}): WireFormat {
  const { operators } = options;
  return {
    name: 'legacy',
    mediaType: JSON_MEDIA_TYPE,
    bodyTypes: [JSON_MEDIA_TYPE],
    methodsFor: (kind) => METHODS[kind],
    negotiate: checkContentType,
    decode(request, collection, ctx) {
      const legacy: HttpRequest = { ...request, route: legacyRoute(request.route) };
      const reading = request.method === 'GET' || request.method === 'HEAD';
      if (routeKind(legacy.route) === 'evaluate') return decodeEvaluate(legacy, collection, ctx, operators);
      return reading ? decodeRead(legacy, collection, ctx, operators) : decodeWrite(legacy, collection, ctx, operators);
    },
    encode: (request, operation, result) => encodeResult(request, operation, result),
    encodeErrors: (_request, status, errors) => encodeErrors(status, errors),
    // The specification applies JSONP to GET requests in Format B, function evaluation included.
    jsonpPayload: legacyJsonpPayload,
    openApi: legacyDescription(operators ?? LEGACY_OPERATOR_SPELLINGS),
  };
}
