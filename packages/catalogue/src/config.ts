import type { CollectionOptions, ColumnType } from '@colapi/schema';

/** The registration options a collection of a table may set; the snake_case names are the specification's. */
export type CollectionConfig = Pick<
  CollectionOptions,
  | 'name'
  | 'methods'
  | 'allow_functions'
  | 'allow_client_generated_ids'
  | 'only'
  | 'exclude'
  | 'allow_to_many_replacement'
  | 'allow_to_many_removal'
  | 'total'
  | 'paging'
>;

export interface ColumnConfig {
  /** The field's name in the API; the column keeps its own in the database. Not for key or foreign-key columns. */
  readonly name?: string;
  /** Leaves the column out of every collection (and any relationship that joins on it). */
  readonly hidden?: boolean;
  /** The project's type, where the catalogue cannot tell it (SQLite text holding dates, seconds in a bigint). */
  readonly type?: ColumnType;
}

export interface RelationshipConfig {
  /** The relationship's name in the API instead of the derived one. */
  readonly name?: string;
  readonly hidden?: boolean;
}

export interface TableConfig {
  /** Leaves the table out: no collection; a join table hidden so takes its many-to-many relationships along. */
  readonly hidden?: boolean;
  /** The key column of a view or of a table without a primary key; it must hold unique values. */
  readonly key?: string;
  /** By column name in the database. */
  readonly columns?: Readonly<Record<string, ColumnConfig>>;
  /** By the derived relationship name (`author`, `articles`, `tags`). */
  readonly relationships?: Readonly<Record<string, RelationshipConfig>>;
  /**
   * The collections of the table, each with its registration options; default one named after the table. A
   * collection without a name takes the table's for the first, and must be named otherwise.
   */
  readonly collections?: readonly CollectionConfig[];
}

/** What `colapi.config.json` holds; every part is optional. */
export interface CatalogueConfig {
  /** PostgreSQL: the schema served; default `public`. */
  readonly schema?: string;
  /** The tables and views served; default every one of the schema (never a system table nor knex's migration tables). */
  readonly expose?: readonly string[];
  /** By table (or view) name in the database. */
  readonly tables?: Readonly<Record<string, TableConfig>>;
}
