import type { ColumnSchema, ColumnType } from '@colapi/schema';
import type { BinaryOperator, NowValue } from '@colapi/query-ast';
import type { Knex } from 'knex';

/** What a database error means to a client; the server turns each kind into a status. */
export type DatabaseErrorKind =
  | 'unique-violation'
  | 'not-null-violation'
  | 'foreign-key-missing'
  | 'foreign-key-referenced'
  | 'check-violation'
  | 'invalid-value'
  | 'out-of-range'
  | 'timeout'
  | 'serialization'
  | 'unavailable'
  | 'permission-denied'
  /** A materialized view read before its first REFRESH (PostgreSQL). */
  | 'not-populated';

/** The key types whose linkage `Dialect.keyList` aggregates. */
export type KeyListType = 'integer' | 'string';

/** Where the data at fault in a classified database error lies, as far as the database tells. */
/** A foreign key of one column: `table.column` holds values of `refTable.refColumn`, or null. */
export interface ForeignKey {
  readonly table: string;
  readonly column: string;
  readonly refTable: string;
  readonly refColumn: string;
}

export interface ErrorPlace {
  /** The table of the row at fault, where the database names it. */
  readonly table?: string;
  /**
   * The columns at fault: those of the unique key a duplicate repeats, the column of a value out of range or
   * of a missing value, those a failed CHECK covers.
   */
  readonly columns: readonly string[];
  /** The name of the CHECK constraint that failed (SQLite's unnamed ones: their expression). */
  readonly constraint?: string;
}

export type LikeMode = 'like' | 'ilike' | 'not_like';

/** What a statement run by `Dialect.execute` answered. */
export interface Executed {
  readonly rows: Record<string, unknown>[];
  /** The key generated for the row an insert wrote, where the driver tells it (MySQL's insertId). */
  readonly insertId?: unknown;
  /** How many rows an insert, update or delete changed, as the driver counts them. */
  readonly affected?: number;
}

/** Settings of every connection a dialect opens (`connect(url, options)` passes them on). */
export interface DialectOptions {
  /** Milliseconds a statement may run before the database cancels it; see ConnectOptions. */
  readonly statementTimeout?: number;
  /** False: no statement is prepared under a name a later one reuses; see ConnectOptions. */
  readonly preparedStatements?: boolean;
}

/**
 * Everything one SQL database does differently, as named hooks. The compiler calls only these; adding a
 * database is one object implementing this interface and one line in the registry.
 */
export interface Dialect {
  /** Registry name, also the scheme(s) of its URLs: `postgres`, `mysql`, `sqlite`. */
  readonly name: string;
  /** The database system as OpenTelemetry names it (`db.system`): `postgresql`, `mysql`, `sqlite`. */
  readonly dbSystem: string;
  /** URL schemes this dialect serves, e.g. `postgres:` and `postgresql:`. */
  readonly schemes: readonly string[];
  /** knex configuration (client, connection, pool set-up) for a database URL. */
  knexConfig(url: string, options?: DialectOptions): Knex.Config;
  /** The expression that reads a column in its wire form (an interval as seconds, say). */
  readColumn(knex: Knex, ref: string, column: ColumnSchema): Knex.Raw;
  /** The value (or SQL expression) that stores a checked wire value in a column. */
  writeValue(knex: Knex, column: ColumnSchema, value: unknown): unknown;
  /**
   * The SQL, with one `?` for the value, that stores a checked wire value in a column when a bare placeholder
   * does not (PostgreSQL's `make_interval(secs => ?)`); undefined otherwise. `writeValue` answers this
   * expression as a Raw; an insert compiled once per shape asks for the text alone.
   */
  writeExpression?(column: ColumnSchema, value: unknown): string | undefined;
  /** The binding (or SQL expression) that compares with `readColumn` of the column, when it differs from the wire value. */
  filterValue?(knex: Knex, column: ColumnSchema, value: unknown): unknown;
  /**
   * A checked wire value of the column as bound where a statement compares the column with it, or sets the
   * column to it, directly (keys and join values: `where key in (…)`, `set fk = ?`), where the driver needs
   * another value: a plain value, never SQL, so that a kept statement can be bound again (MySQL: a binary(16)
   * UUID's 16 bytes). Undefined where every such value binds as it is.
   */
  plainValue?(column: ColumnSchema, value: unknown): unknown;
  /** Turns what the driver returned for a column into the wire value. */
  decodeValue(column: ColumnSchema, raw: unknown): unknown;
  /** `like` case-sensitive, `ilike` case-insensitive, `not_like` the negation of `like`; `\` escapes. */
  like(knex: Knex, expr: Knex.Raw, pattern: string, mode: LikeMode): Knex.Raw;
  /**
   * A text expression as it is compared, sorted and grouped: exactly, by code point, whatever the collation
   * of the column (MySQL's default collations ignore case and accents). Undefined when already so.
   */
  exactText?(knex: Knex, expr: Knex.Raw): Knex.Raw;
  /** The argument of `avg`, when averaging the column's own type would answer with less precision than a double. */
  averageArgument?(knex: Knex, expr: Knex.Raw): Knex.Raw;
  /**
   * An ORDER BY term; nulls sort first ascending and last descending on every dialect. `nullable` false: the
   * expression is never NULL, and the term should be one a plain index serves (PostgreSQL's index order puts
   * nulls last ascending, so `nulls first` there would sort every row instead of reading the index).
   */
  orderTerm(knex: Knex, expr: Knex.Raw, descending: boolean, nullable?: boolean): Knex.Raw;
  /** A network-address comparison, or undefined when the database has no such operator. */
  networkCompare?(knex: Knex, expr: Knex.Raw, op: BinaryOperator, value: string): Knex.Raw;
  /**
   * `contains`, `contained_by` or `overlaps` of a list (array, set) or JSON column with a checked value of the
   * column's type (JSON text, or a set's text); undefined when the database has neither.
   */
  containment?(knex: Knex, expr: Knex.Raw, column: ColumnSchema, op: BinaryOperator, value: string): Knex.Raw;
  /**
   * The database's current date, time or timestamp, for a column of the given type; `column`, where there is
   * one, is the column it is written to or compared with (SQLite writes it in the column's `textForm`).
   */
  now(knex: Knex, value: NowValue, type: ColumnType, column?: ColumnSchema): Knex.Raw;
  /** The column type to create for a schema type (used by fixtures and the demo). */
  ddlType(type: ColumnType): string;
  /**
   * What the operator must change when an error comes from how the database is deployed rather than from
   * the request (a transaction-mode pooler refusing named statements); undefined for any other error.
   */
  misconfiguration?(error: unknown): string | undefined;
  /**
   * Classifies a driver error, or undefined when it is not one a client should hear about. `statement` is
   * the statement that failed, which the runner always gives: a dialect whose driver does not tell every
   * kind apart reads it (SQLite: which statement broke a foreign key). Errors without one (a COMMIT, a
   * connection refused) are classified from the error alone.
   */
  classifyError(error: unknown, statement?: { readonly sql: string }): DatabaseErrorKind | undefined;
  /**
   * The table and columns a classified error names (the key a unique violation repeats, the column of a
   * value out of range), where the database tells them; undefined otherwise. May ask the database: MySQL
   * names only the index of a duplicate. Never throws. `table` is the table the request writes, asked about
   * where the database names none (a PostgreSQL domain's check, a SQLite check).
   */
  errorPlace?(knex: Knex, error: unknown, table?: string): Promise<ErrorPlace | undefined>;
  /**
   * The statement that moves the key generator of a table past the keys it holds, after an insert with a
   * key the client chose, where the database does not do so itself (PostgreSQL's sequences). Built, not
   * run: the writer runs it in its transaction (awaiting the Raw runs it through knex, as fixtures do).
   */
  advanceKey?(knex: Knex, table: string, key: string): Knex.Raw;
  /**
   * One statement giving settings that last until the end of the transaction it runs in (PostgreSQL's
   * `set_config(name, value, true)`): the role to act as and the request's claims, for a database's own
   * grants and row-level security (access control's native mode). Undefined where the database has none.
   */
  localSettings?(knex: Knex, settings: ReadonlyArray<readonly [name: string, value: string]>): Knex.Raw;
  /**
   * One value holding the keys `from` selects (a query correlated to an owner row), as text in key order:
   * the linkage of a relationship read in the owner's own query instead of a query of its own. Undefined
   * where the database cannot aggregate so; linkage then takes one query per relationship. Integer keys
   * come as one comma-separated text (`integerKeys` reads it), which every driver hands over as a plain
   * string; text keys, which may hold commas, as the dialect's list of texts (`decodeKeyList`).
   */
  keyList?(knex: Knex, from: Knex.QueryBuilder, key: string, type: KeyListType): Knex.Raw;
  /** The text keys in what `keyList` gave for a `string` key. */
  decodeKeyList?(raw: unknown): string[];
  /**
   * Marks a correlated subquery that tests one row of another table by its key (an EXISTS) so that the
   * planner runs it for each outer row, probing the key's index, instead of flattening it into a join.
   * PostgreSQL flattens such an EXISTS into a semi-join and, for the few rows of a join table that link one
   * owner, hashes them and scans the whole target table: under row scopes the linkage through a join table
   * cost four times its unscoped read (docs/performance.md, fifteenth session). Undefined where the planner
   * already probes the key.
   */
  probeEachRow?(knex: Knex, subquery: Knex.QueryBuilder): Knex.QueryBuilder;
  /**
   * Empties the tables and restarts their generated keys, whatever foreign keys join them: for fixtures,
   * seeds and tests, never for a request.
   */
  emptyTables(knex: Knex, tables: readonly string[]): Promise<void>;
  /**
   * Creates, or drops, the database `name` on the server `admin` is connected to (`name` is a plain
   * identifier the caller chose). Absent where a database is a file (SQLite): a URL naming a new file makes one.
   */
  createDatabase?(admin: Knex, name: string): Promise<void>;
  dropDatabase?(admin: Knex, name: string): Promise<void>;
  /**
   * A query answering one row whose `n` is the planner's estimate of the rows of a table, for `total:
   * 'estimated'`; no row, or a negative or null `n`, when the planner has none.
   */
  estimateRows?(knex: Knex, table: string): Knex.Raw;
  /**
   * How far a read replica is behind its primary, in milliseconds (0 for a server that replicates from no
   * one). Undefined where the database cannot serve reads from replicas; `connect()` then refuses `replicas`.
   */
  replicaLag?(knex: Knex): Promise<number>;
  /**
   * Runs one compiled statement (`sql` with the driver's own placeholders) on a connection as knex hands
   * it out (pooled, or a transaction's): the rows it returned (none for a statement that returns none),
   * the rows it changed, and for an insert the key the database generated, where the driver tells it.
   * Only `runStatement`, the one runner, calls it. `planEach`: the statement's plan depends on its values
   * (Statement.planEach); a dialect that keeps plans per text plans it at this run.
   */
  execute(connection: unknown, sql: string, bindings: readonly unknown[], planEach?: boolean): Promise<Executed>;
  /**
   * The settings of a transaction the server opens for a write, where the database's default isolation takes
   * locks the writer does not need (InnoDB's gap locks under REPEATABLE READ); undefined keeps the default. The
   * writer relies on constraints and conditional statements, never on a snapshot, so READ COMMITTED is enough.
   */
  writeTransaction?(): Knex.TransactionConfig;
  /**
   * Locks the rows a read by key finds until its transaction ends (`FOR UPDATE`), so that a conditional write
   * checks the version it is about to replace with no other writer in between. Absent where the database
   * serialises writers itself (SQLite: a transaction that read a version another has since replaced fails to
   * write, as a serialization failure, and runs again).
   */
  lockRows?(query: Knex.QueryBuilder): Knex.QueryBuilder;
  /**
   * The single-column foreign keys the database checks on every write, among the tables the connection
   * sees by their plain names: what lets a row just inserted be known to have no has-many or join-table
   * linkage (newRowEmptyRelations) without a query. Undefined where writers may switch the checks off for
   * good (SQLite: each connection chooses), so that nothing is trusted there.
   */
  enforcedForeignKeys?(knex: Knex): Promise<readonly ForeignKey[]>;
  /** True when INSERT … RETURNING gives back the new key. */
  readonly returning: boolean;
  /**
   * An expression that fails the statement it is in unless `condition` (SQL, possibly with `?` placeholders)
   * is true, so that one statement can refuse its own write: an INSERT … RETURNING that must not leave a row
   * its caller's rules refuse, without a transaction around it. Undefined where no expression can fail a
   * statement; such writes then run in a transaction. Only used where the INSERT also returns its row
   * (`returning`, `returnsInsertedRows`).
   */
  refuseUnless?(condition: string): string;
  /** Whether a driver error is the failure of a `refuseUnless` expression. */
  refused?(error: unknown): boolean;
  /**
   * For a dialect whose servers differ in it: whether this server answers INSERT … RETURNING with the rows it
   * inserted (MariaDB 10.5 and later do; MySQL does not). Asked once, when the API starts; where it answers
   * true a bare create is one statement (compileInsertReturning), as where `returning` is true.
   */
  returnsInsertedRows?(knex: Knex): Promise<boolean>;
  /** How an INSERT that writes no column spells its values: `default values` unless given (MariaDB: `() values ()`). */
  readonly emptyInsertValues?: string;
  /**
   * True when a list read's count and a related collection's owner check ride in the page's own statement, as
   * a one-row head joined to the page (compileList); else they are a statement of their own, sent alongside.
   * PostgreSQL answers the joined form in less time than the two (a round trip saved); MariaDB and SQLite
   * materialise both derived tables and sort their join, which costs more than a second statement
   * (docs/performance.md).
   */
  readonly foldsHead?: boolean;
}
