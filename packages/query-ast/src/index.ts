export { ApiError, isApiError, type ErrorCode, type ErrorSource } from './api-error.js';
export {
  ALL_OPERATOR_SPELLINGS,
  CONTAINMENT_OPERATORS,
  LIKE_OPERATORS,
  LIST_OPERATORS,
  NETWORK_OPERATORS,
  OPERATORS,
  type BinaryOperator,
  type Operator,
  type OperatorArity,
  type OperatorSet,
  type RelationOperator,
  type UnaryOperator,
} from './operators.js';
export { isNow, type FieldRef, type Filter, type NowValue, type ScalarValue } from './filter.js';
export { emptyReadQuery, type Paging, type ReadQuery, type RowWindow, type SortKey } from './read-query.js';
export {
  emptyWrite,
  type FunctionCall,
  type Operation,
  type OperationKind,
  type RelatedRef,
  type RelatedScope,
  type RelationshipWrite,
  type ResourceWrite,
} from './operations.js';
export { DEFAULT_LIMITS, type QueryLimits } from './limits.js';
export { coercePattern, coerceValue, shownValue, type ValueContext } from './values.js';
export { joinValue, keyParts, parseKey, rowId, type KeyValue, type ParsedKey } from './keys.js';
export {
  COMPOSITE_ID_SEPARATOR,
  compositeIdDescription,
  formatCompositeId,
  splitCompositeId,
} from './composite-id.js';
export { checkDecimal, checkTimestampTz, inInt64 } from './typed-values.js';
export { formatDateTime, formatTime, parseDate, parseDateTime, parseTime } from './temporal.js';
export { roundFraction } from './round-fraction.js';
export { parseFilterList, parseFilterObject, parseJsonParameter, type FilterContext } from './parse-filter.js';
export { pathRelationship, resolveFieldPath, resolveIncludePath, resolveSortPath } from './field-path.js';
export type { Linkage, OperationResult, ResourceNode } from './result.js';
export { decodeWriteValues, type WriteValuesOptions } from './write-values.js';
export { AGGREGATE_FUNCTIONS, parseFunctionCalls, type AggregateName } from './functions.js';
export {
  keysetFilter,
  reversedKeys,
  type CursorEnds,
  type CursorPaging,
  type KeysetKey,
} from './cursor-paging.js';
