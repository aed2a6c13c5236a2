export { compileRules, EVERY_COLLECTION } from './compile-rules.js';
export { AccessPolicy, type RoleFields } from './policy.js';
export {
  MISSING_CLAIM,
  type ActionScope,
  type CollectionScope,
  type ReadScope,
  type SetValue,
} from './scope.js';
export { allOf, FALSE, isFalse } from './false-filter.js';
export { AccessRulesError } from './rules-error.js';
export type { Identity } from './identity.js';
export type {
  AccessRules,
  ClaimJson,
  CollectionRules,
  CreateRule,
  DeleteRule,
  FilterJson,
  ReadRule,
  UpdateRule,
  WhereRule,
} from './rules-json.js';
