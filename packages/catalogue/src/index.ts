export type {
  Catalogue,
  CatalogueColumn,
  CatalogueForeignKey,
  CatalogueReader,
  CatalogueTable,
  ColumnPrivileges,
  TablePrivileges,
} from './catalogue.js';
export type { CatalogueConfig, CollectionConfig, ColumnConfig, RelationshipConfig, TableConfig } from './config.js';
export { CatalogueConfigError } from './config-error.js';
export { CATALOGUE_READERS, mysqlCatalogue, postgresCatalogue, sqliteCatalogue } from './readers/index.js';
export { catalogueReader, readCatalogue, type ReadOptions } from './read-catalogue.js';
export { registryFromCatalogue, type CatalogueRegistry } from './registry-from-catalogue.js';
export { deriveRelationships, toOneName } from './derive-relationships.js';
export { joinTableKeys } from './join-table.js';
export { modelName, plural, withoutKeySuffix } from './naming.js';
export { postgresType } from './readers/postgres-types.js';
export { mysqlType } from './readers/mysql-types.js';
export { sqliteType } from './readers/sqlite-types.js';
