import type { ColumnSchema, ColumnType } from '@colapi/schema';
import type { Knex } from 'knex';

/**
 * What a type needs besides its kind: an enum's or a set's values, a decimal's precision and scale, an array's
 * element type, PostgreSQL's own type name for values that travel as text, whether it can be written, the
 * fraction digits of a second a date and time column keeps, SQLite's text form of its dates, and whether a
 * UUID is kept as bytes.
 */
export type TypeDetail = Pick<
  ColumnSchema,
  'values' | 'precision' | 'scale' | 'items' | 'readOnly' | 'sqlType' | 'fractionDigits' | 'textForm' | 'uuidBytes'
>;

/** A column's type as a reader maps it. */
export interface MappedType {
  readonly type: ColumnType | undefined;
  readonly maxLength?: number;
  readonly detail?: TypeDetail;
}

/** One column as the database's catalogue describes it. */
export interface CatalogueColumn {
  readonly name: string;
  /** The type as the database names it, e.g. `character varying(100)`, `tinyint(1)`, `TEXT`. */
  readonly sqlType: string;
  /** The project's type for it; undefined when the project has none (bytea, arrays, geometry…). */
  readonly type: ColumnType | undefined;
  readonly nullable: boolean;
  /**
   * The database fills it on insert when no value is given (a default). Only whether: PostgreSQL would take a
   * lock on the table to print the expression, and a reload must not wait behind a migration's lock.
   */
  readonly hasDefault: boolean;
  /** The database numbers it on insert: serial, identity, auto_increment, SQLite's INTEGER PRIMARY KEY. */
  readonly autoIncrement: boolean;
  /** Computed by the database from other columns (GENERATED ALWAYS AS …): it cannot be written. */
  readonly computed: boolean;
  /** Most characters it holds, from varchar(n) or char(n). */
  readonly maxLength?: number;
  /** What its type needs besides its kind (values, precision, element type…). */
  readonly detail?: TypeDetail;
  /** numeric(p,s) and decimal(p,s): the digits it holds in all and after the point, as declared. */
  readonly precision?: number;
  readonly scale?: number;
  /** A whole-number type: the least and greatest values its size holds (smallint, int unsigned…). */
  readonly minimum?: number;
  readonly maximum?: number;
  /** What the connecting role may do with it; absent where the database has no privileges (SQLite). */
  readonly privileges?: ColumnPrivileges;
}

/** A column's privileges of the role colapi connects as. */
export interface ColumnPrivileges {
  readonly select: boolean;
  /** May give it a value on insert; on PostgreSQL also draw its default from the sequence of a serial column. */
  readonly insert: boolean;
  readonly update: boolean;
}

/** A table's privileges of the role colapi connects as. */
export interface TablePrivileges {
  /**
   * Which of its columns the role may read: `all`, `some` (a grant on columns only, or columns the database
   * hides from the role), or `none`. A list read selects every column of a row (`t0.*`): only `all` is served.
   */
  readonly select: 'all' | 'some' | 'none';
  readonly delete: boolean;
}

/** A foreign key: `columns` of the owning table refer to `references` of `table`. */
export interface CatalogueForeignKey {
  readonly columns: readonly string[];
  readonly table: string;
  readonly references: readonly string[];
}

export interface CatalogueTable {
  readonly name: string;
  /** A partitioned table is a table; a materialized view is a view (read-only). */
  readonly kind: 'table' | 'view';
  readonly columns: readonly CatalogueColumn[];
  /** Columns of the primary key in key order; empty when there is none (always for a view). */
  readonly primaryKey: readonly string[];
  /** Unique constraints and unique indexes over plain columns, primary key excluded (a materialized view's too). */
  readonly uniques: readonly (readonly string[])[];
  readonly foreignKeys: readonly CatalogueForeignKey[];
  /**
   * A view's columns that show a key of the one table it reads, where the database tells (PostgreSQL): a
   * column no row of the view repeats. Absent where none is known.
   */
  readonly baseKeys?: readonly string[];
  /** A partitioned table (PostgreSQL): its partitions, served through it and not as tables of their own. */
  readonly partitions?: readonly string[];
  /**
   * A partitioned table: keys every one of its partitions declares (a primary key, or a unique index over
   * not-null columns). Each holds within a partition; the database does not hold it across them.
   */
  readonly partitionKeys?: readonly (readonly string[])[];
  /** PostgreSQL, a partitioned table: its leaf partitions that declare no key (they do not veto `partitionKeys`). */
  readonly unkeyedPartitions?: readonly string[];
  /** Absent where the database has no privileges (SQLite): everything is allowed. */
  readonly privileges?: TablePrivileges;
}

/** What one schema of a database holds, independent of the database: the input of `registryFromCatalogue`. */
export interface Catalogue {
  /** The dialect that read it: `postgres`, `mysql`, `sqlite`. */
  readonly dialect: string;
  /** The schema read (PostgreSQL), or the database's name (MariaDB/MySQL); undefined for SQLite. */
  readonly schema?: string;
  /** Tables and views in name order; system tables are never listed. */
  readonly tables: readonly CatalogueTable[];
  /** The role (user) the privileges were read for, where the database has privileges. */
  readonly role?: string;
}

/** Reads the catalogue of one kind of database; one object per dialect, registered in `CATALOGUE_READERS`. */
export interface CatalogueReader {
  /** The schema read when none is chosen (PostgreSQL's `public`); undefined where a database has no schemas to choose. */
  readonly defaultSchema?: string;
  /** Reads every table and view of the schema, with their columns, keys, unique constraints and foreign keys. */
  read(knex: Knex, schema: string | undefined): Promise<Catalogue>;
}
