import type { Database } from '@colapi/sql-compiler';
import type { Catalogue, CatalogueReader } from './catalogue.js';
import { CATALOGUE_READERS } from './readers/index.js';

/** The catalogue reader of a dialect, by its name; throws for a dialect without one. */
export function catalogueReader(dialect: string): CatalogueReader {
  const reader = CATALOGUE_READERS[dialect];
  if (!reader)
    throw new Error(
      `no catalogue reader for the ${dialect} dialect; known: ${Object.keys(CATALOGUE_READERS).join(', ')}`,
    );
  return reader;
}

export interface ReadOptions {
  /** PostgreSQL: the schema to read, `public` by default. Refused for a database without schemas to choose. */
  readonly schema?: string;
}

/** Reads the catalogue of an open database (`connect(url)` of @colapi/sql-compiler). */
export async function readCatalogue(
  database: Pick<Database, 'knex' | 'dialect'>,
  options: ReadOptions = {},
): Promise<Catalogue> {
  const reader = catalogueReader(database.dialect.name);
  if (options.schema !== undefined && reader.defaultSchema === undefined) {
    throw new Error(`a schema cannot be chosen on ${database.dialect.name}: the database in the URL is the one read`);
  }
  return reader.read(database.knex, options.schema ?? reader.defaultSchema);
}
