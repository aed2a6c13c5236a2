import type { ColumnSchema, ColumnType } from '@colapi/schema';
import type { CatalogueColumn, CatalogueTable } from './catalogue.js';
import type { TableConfig } from './config.js';
import { CatalogueConfigError } from './config-error.js';

/** The columns of a table as a model holds them, and its key. */
export interface ServedColumns {
  readonly key: string;
  /** A composite primary key's columns, in key order; `key` is then its id's member name. */
  readonly keyColumns?: readonly string[];
  readonly columns: readonly ColumnSchema[];
}

/** Types a resource cannot be addressed by: an id is an integer, a text, a UUID or a canonical date or time. */
const UNADDRESSABLE: ReadonlySet<ColumnType> = new Set([
  'number',
  'decimal',
  'boolean',
  'json',
  'binary',
  'set',
  'array',
]);

/** What JSON:API 1.0 allows a member name to be, without the characters it calls not URL safe (space among them). */
const MEMBER_NAME = /^[a-zA-Z0-9](?:[-\w]*[a-zA-Z0-9])?$/;

/**
 * The name a column is served under when its own is no JSON:API member name (Pagila's `zip code`): each run of
 * other characters becomes `_`, and the ends are trimmed to a letter or digit. A key or foreign-key column
 * keeps its name (it is no attribute: an id or a relationship), as does one whose name nothing can mend.
 */
function memberName(name: string, fixed: boolean): string {
  if (fixed || MEMBER_NAME.test(name)) return name;
  const mended = name.replace(/[^-\w]+/g, '_').replace(/^[-_]+|[-_]+$/g, '');
  return MEMBER_NAME.test(mended) ? mended : name;
}

/** Columns that take part in a foreign key, on either side: they are used by their database names. */
export function joinColumns(tables: readonly CatalogueTable[]): Set<string> {
  const out = new Set<string>();
  for (const t of tables) {
    for (const fk of t.foreignKeys) {
      for (const c of fk.columns) out.add(`${t.name}.${c}`);
      for (const c of fk.references) out.add(`${fk.table}.${c}`);
    }
  }
  return out;
}

/** The member a composite key's id is known by in rows and Format B bodies: `id`, unless a column has that name. */
export const COMPOSITE_ID_MEMBER = 'id';

/**
 * The key column: the configured one, the primary key (several columns for a composite one), a unique not-null column; for a view, a one-column
 * unique index (a materialized view's), a column showing its base table's key, or a column named `id`; for a
 * partitioned table, a one-column key all its partitions declare.
 */
function chooseKey(
  table: CatalogueTable,
  config: TableConfig,
  path: string,
  warn: (message: string) => void,
): string | readonly string[] | undefined {
  const byName = new Map(table.columns.map((c) => [c.name, c]));
  if (config.key !== undefined) {
    if (!byName.has(config.key))
      throw new CatalogueConfigError(`${path}.key`, `"${config.key}" is not a column of ${table.name}`);
    return config.key;
  }
  if (table.primaryKey.length === 1) return table.primaryKey[0];
  if (table.primaryKey.length > 1) {
    if (!byName.has(COMPOSITE_ID_MEMBER)) return table.primaryKey;
    warn(
      `composite primary key (${table.primaryKey.join(', ')}) beside a column named ${COMPOSITE_ID_MEMBER}, the name its id would take: the table is left out (name a unique column as tables.${table.name}.key to serve it)`,
    );
    return undefined;
  }
  const unique = table.uniques.find((u) => u.length === 1 && byName.get(u[0]!)?.nullable === false);
  if (unique) return unique[0];
  if (table.kind === 'view') {
    // PostgreSQL holds no column of a view not null: a materialized view's unique index is its key all the same.
    const indexed = table.uniques.find((u) => u.length === 1);
    if (indexed) return indexed[0];
    const base = table.baseKeys?.[0];
    if (base !== undefined) return base;
    // Else a column named id, in any letter case (Sakila's views say ID), stands for one.
    if (byName.has('id')) return 'id';
    const ids = table.columns.filter((c) => c.name.toLowerCase() === 'id');
    if (ids.length === 1) return ids[0]!.name;
  }
  const shared = table.partitionKeys?.find((k) => k.length === 1);
  if (shared) return shared[0];
  warn(`${missingKey(table)}: left out (name a unique column as tables.${table.name}.key to serve it)`);
  return undefined;
}

function missingKey(table: CatalogueTable): string {
  if (table.kind === 'view')
    return 'a view without an id column, a unique index, or a column showing the key of the one table it reads';
  if (table.partitions !== undefined)
    return 'a partitioned table without a primary key or unique not-null column, whose partitions share no one-column key';
  return 'no primary key nor unique not-null column';
}

/**
 * The key and the columns a table is served with, following its configuration; undefined, with a warning,
 * when it cannot be served (no key it can be addressed by). Columns of a type the project lacks are left out
 * with a warning; computed columns of a table are served read-only.
 */
export function servedColumns(
  table: CatalogueTable,
  config: TableConfig,
  path: string,
  fixedNames: ReadonlySet<string>,
  warn: (message: string, column?: string) => void,
): ServedColumns | undefined {
  const chosen = chooseKey(table, config, path, (m) => warn(m));
  if (chosen === undefined) return undefined;
  const keyColumns: readonly string[] = typeof chosen === 'string' ? [chosen] : chosen;
  const key = typeof chosen === 'string' ? chosen : COMPOSITE_ID_MEMBER;
  const isKey = (name: string) => keyColumns.includes(name);
  for (const name of Object.keys(config.columns ?? {})) {
    if (!table.columns.some((c) => c.name === name))
      throw new CatalogueConfigError(`${path}.columns.${name}`, `${table.name} has no column "${name}"`);
  }
  const columns: ColumnSchema[] = [];
  for (const c of table.columns) {
    const settings = config.columns?.[c.name] ?? {};
    const at = `${path}.columns.${c.name}`;
    if (settings.hidden) {
      if (isKey(c.name)) throw new CatalogueConfigError(`${at}.hidden`, `the key of ${table.name} cannot be hidden`);
      continue;
    }
    const type = settings.type ?? c.type;
    // Bytes hold a UUID as its 16 bytes (MySQL's binary(16)); any other size cannot.
    if (settings.type === 'uuid' && c.type === 'binary' && !/^binary\(16\)$/i.test(c.sqlType))
      throw new CatalogueConfigError(`${at}.type`, `${c.sqlType} cannot hold a UUID's 16 bytes: only binary(16) can`);
    const leftOut = type === undefined ? `type ${c.sqlType} is not one colapi supports` : undefined;
    if (leftOut !== undefined) {
      if (isKey(c.name)) {
        warn(`the key column ${c.name}: ${leftOut}; the table is left out`);
        return undefined;
      }
      warn(`${leftOut}; the column is left out`, c.name);
      continue;
    }
    if (
      settings.name !== undefined &&
      settings.name !== c.name &&
      (isKey(c.name) || fixedNames.has(`${table.name}.${c.name}`))
    ) {
      throw new CatalogueConfigError(
        `${at}.name`,
        `${c.name} is a key or foreign-key column and keeps its name; rename the relationship instead`,
      );
    }
    const name = settings.name ?? memberName(c.name, isKey(c.name) || fixedNames.has(`${table.name}.${c.name}`));
    if (name !== c.name && settings.name === undefined)
      warn(
        `served as "${name}": a field name holds letters, digits, - and _ only, between a letter or digit at each end (JSON:API member names; tables.${table.name}.columns.${c.name}.name chooses another)`,
        c.name,
      );
    columns.push(column(c, type!, keyColumns, name, c.computed && table.kind === 'table'));
  }
  for (const k of keyColumns) {
    const keyColumn = columns.find((c) => c.name === k)!;
    if (UNADDRESSABLE.has(keyColumn.type)) {
      warn(`the key column ${k} is a ${keyColumn.type}, which cannot address a resource; the table is left out`);
      return undefined;
    }
  }
  const names = new Set<string>();
  for (const c of columns) {
    if (names.has(c.name))
      throw new CatalogueConfigError(`${path}.columns`, `two columns of ${table.name} are named "${c.name}"`);
    names.add(c.name);
  }
  return keyColumns.length > 1 ? { key, keyColumns, columns } : { key, columns };
}

function column(
  c: CatalogueColumn,
  type: ColumnType,
  keyColumns: readonly string[],
  rename: string | undefined,
  computed: boolean,
): ColumnSchema {
  const isKey = keyColumns.includes(c.name);
  // A configured type replaces the catalogue's, and the details of its type with it; bytes configured as a
  // UUID keep it as its bytes.
  const detail = type === c.type ? c.detail : type === 'uuid' && c.type === 'binary' ? { uuidBytes: true } : undefined;
  return {
    ...detail,
    ...(computed ? { readOnly: true } : {}),
    name: rename ?? c.name,
    type,
    nullable: c.nullable && !isKey,
    // A part of a composite key is never the one the database numbers: the client gives every part.
    ...(isKey ? { generated: keyColumns.length === 1 && c.autoIncrement } : {}),
    ...(type === 'string' && c.maxLength !== undefined ? { maxLength: c.maxLength } : {}),
    // A numeric column is a 'decimal' (a 'number' where configured so); an integer keeps to its declared size.
    ...((type === 'decimal' || type === 'number') && c.precision !== undefined
      ? { precision: c.precision, scale: c.scale ?? 0 }
      : {}),
    ...(type === 'integer' && c.minimum !== undefined && c.maximum !== undefined
      ? { minimum: c.minimum, maximum: c.maximum }
      : {}),
    ...(c.hasDefault || c.autoIncrement ? { hasDefault: true } : {}),
    ...(rename !== undefined && rename !== c.name ? { column: c.name } : {}),
  };
}
