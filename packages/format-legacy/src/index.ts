export { legacyFormat, type LegacyFormatOptions } from './legacy-format.js';
export { JSON_MEDIA_TYPE, checkContentType } from './media-type.js';
export { fieldValues, instanceObject, type InstanceObject } from './instance-object.js';
export { linkHeader, listObject, pageCounts, type ListObject, type PageCounts } from './list-object.js';
