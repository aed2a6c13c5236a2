import type { CatalogueReader } from '../catalogue.js';
import { mysqlCatalogue } from './mysql.js';
import { postgresCatalogue } from './postgres.js';
import { sqliteCatalogue } from './sqlite.js';

/** The catalogue reader of each dialect, by the dialect's registry name; a new database is one line here. */
export const CATALOGUE_READERS: Readonly<Record<string, CatalogueReader>> = Object.freeze({
  postgres: postgresCatalogue,
  mysql: mysqlCatalogue,
  sqlite: sqliteCatalogue,
});

export { mysqlCatalogue, postgresCatalogue, sqliteCatalogue };
