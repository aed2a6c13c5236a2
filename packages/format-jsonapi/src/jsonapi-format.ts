import type { HttpMethod } from '@colapi/schema';
import { routeKind, type HttpRequest, type RouteKind, type WireFormat } from '@colapi/wire-format';
import { decodeEvaluate } from './decode-evaluate.js';
import { decodeRead } from './decode-read.js';
import { decodeWrite } from './decode-write.js';
import { encodeErrorDocument, encodeResult } from './encode.js';
import { jsonApiJsonpPayload } from './jsonp-payload.js';
import { checkContentType, chooseResponseType, JSONAPI_MEDIA_TYPE } from './media-type.js';
import { JSONAPI_DESCRIPTION } from './openapi/description.js';
import { jsonApiAtomicCodec } from './atomic/atomic-codec.js';

const METHODS: Record<RouteKind, readonly HttpMethod[]> = {
  collection: ['GET', 'POST'],
  resource: ['GET', 'PATCH', 'DELETE'],
  related: ['GET'],
  'related-item': ['GET'],
  relationship: ['GET', 'PATCH', 'POST', 'DELETE'],
  evaluate: ['GET'],
};

/** The response type of a request; function evaluation also answers plain JSON, as the specification's samples ask. */
function responseType(request: HttpRequest): string {
  try {
    return chooseResponseType(request, routeKind(request.route) === 'evaluate');
  } catch {
    return JSONAPI_MEDIA_TYPE;
  }
}

/** Format A: JSON:API 1.0 documents under `application/vnd.api+json`. */
export function jsonApiFormat(): WireFormat {
  return {
    name: 'jsonapi',
    mediaType: JSONAPI_MEDIA_TYPE,
    bodyTypes: [JSONAPI_MEDIA_TYPE],
    methodsFor: (kind) => METHODS[kind],
    negotiate(request) {
      chooseResponseType(request, routeKind(request.route) === 'evaluate');
      checkContentType(request);
    },
    decode(request, collection, ctx) {
      if (request.route.evaluate) return decodeEvaluate(request, collection, ctx);
      if (request.method === 'GET' || request.method === 'HEAD') return decodeRead(request, collection, ctx);
      return decodeWrite(request, collection, ctx);
    },
    // Each answer carries Vary: Accept (encode.ts).
    encode: (request, operation, result, ctx) => encodeResult(request, operation, result, ctx, responseType(request)),
    encodeErrors: (request, status, errors) => encodeErrorDocument(status, errors, responseType(request)),
    // The specification applies JSONP to every answer with content in Format A, writes included.
    jsonpPayload: (_request, response) => jsonApiJsonpPayload(response),
    openApi: JSONAPI_DESCRIPTION,
    atomic: jsonApiAtomicCodec(),
  };
}
