/** The factory every format package exports under one name, for tools that load a format by package name. */
export { jsonApiFormat as createWireFormat } from './jsonapi-format.js';
export { jsonApiFormat } from './jsonapi-format.js';
export { JSONAPI_MEDIA_TYPE, checkContentType, chooseResponseType } from './media-type.js';
export { attributeNames, resourceObject, type ResourceIdentifier, type ResourceObject } from './resource-object.js';
export { pagingLinks, type PagingLinks } from './paging-links.js';
export { jsonApiJsonpPayload } from './jsonp-payload.js';
export { parseJsonApiQuery, type QueryShape } from './parse-query.js';
export {
  appliedMediaType,
  jsonApi11,
  negotiate11,
  requestedProfiles,
  type MediaTypeSupport,
  type Negotiated,
} from './negotiation.js';
export { ATOMIC_EXT, jsonApiAtomicCodec } from './atomic/atomic-codec.js';
export { varyOnAccept } from './vary-on-accept.js';
