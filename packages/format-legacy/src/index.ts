/** The factory every format package exports under one name, for tools that load a format by package name. */
export { legacyFormat as createWireFormat } from './legacy-format.js';
export { legacyFormat, type LegacyFormatOptions } from './legacy-format.js';
export { JSON_MEDIA_TYPE, checkContentType } from './media-type.js';
export { fieldValues, instanceObject, type InstanceObject } from './instance-object.js';
export {
  linkHeader,
  listObject,
  MAX_LINK_HEADER,
  pageCounts,
  type ListObject,
  type PageCounts,
} from './list-object.js';
export { legacyJsonpPayload, type LegacyJsonpPayload } from './jsonp-payload.js';
export { parseLinkHeader } from './parse-link-header.js';
export { conventionalHeaderName } from './header-name.js';
export {
  LEGACY_OPERATOR_SPELLINGS,
  SEARCH_MEMBERS,
  parseLegacyQuery,
  parseLegacySearch,
  type LegacyQueryOptions,
  type LegacySearch,
  type LegacySearchOptions,
} from './parse-query.js';
