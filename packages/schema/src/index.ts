export { COLUMN_TYPES, sqlColumn, type ColumnSchema, type ColumnType } from './column.js';
export type { JoinPath, RelationshipSchema, SingleJoinPath } from './relationship.js';
export {
  defineModel,
  fieldOfColumn,
  hasCompositeKey,
  ownColumns,
  foreignKeyColumns,
  type ModelDefinition,
  type ModelSchema,
  type VirtualAttribute,
} from './model.js';
export {
  defineCollection,
  HTTP_METHODS,
  type CollectionOptions,
  type CollectionSchema,
  type HttpMethod,
  type PagingMode,
  type TotalMode,
} from './collection.js';
export { Registry, type CollectionRegistration } from './registry.js';
export { narrowRegistry, registrationOf, type FieldsShown } from './narrow-registry.js';
