import type { ColumnSchema, ColumnType } from '@colapi/schema';
import type { CatalogueColumn, CatalogueTable } from './catalogue.js';
import type { TableConfig } from './config.js';
import { CatalogueConfigError } from './config-error.js';

/** The columns of a table as a model holds them, and its key. */
export interface ServedColumns {
  readonly key: string;
  readonly columns: readonly ColumnSchema[];
}

/** Types a resource cannot be addressed by: an id is an integer, a text or a canonical date or time. */
const UNADDRESSABLE: ReadonlySet<ColumnType> = new Set(['number', 'boolean', 'json']);

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

/** The key column: the configured one, the primary key, a unique not-null column, or a view's `id`. */
function chooseKey(
  table: CatalogueTable,
  config: TableConfig,
  path: string,
  warn: (message: string) => void,
): string | undefined {
  const byName = new Map(table.columns.map((c) => [c.name, c]));
  if (config.key !== undefined) {
    if (!byName.has(config.key))
      throw new CatalogueConfigError(`${path}.key`, `"${config.key}" is not a column of ${table.name}`);
    return config.key;
  }
  if (table.primaryKey.length === 1) return table.primaryKey[0];
  if (table.primaryKey.length > 1) {
    warn(
      `composite primary key (${table.primaryKey.join(', ')}): colapi addresses a resource by one key column, so the table is left out (name a unique column as tables.${table.name}.key to serve it)`,
    );
    return undefined;
  }
  const unique = table.uniques.find((u) => u.length === 1 && byName.get(u[0]!)?.nullable === false);
  if (unique) return unique[0];
  if (table.kind === 'view') {
    // A view declares no key: a column named id, in any letter case (Sakila's views say ID), stands for one.
    if (byName.has('id')) return 'id';
    const ids = table.columns.filter((c) => c.name.toLowerCase() === 'id');
    if (ids.length === 1) return ids[0]!.name;
  }
  warn(
    `${table.kind === 'view' ? 'a view without an id column' : 'no primary key nor unique not-null column'}: left out (name a unique column as tables.${table.name}.key to serve it)`,
  );
  return undefined;
}

/**
 * The key and the columns a table is served with, following its configuration; undefined, with a warning,
 * when it cannot be served (no key it can be addressed by). Columns of a type the project lacks are left out
 * with a warning, as are computed columns of a table (they cannot be written).
 */
export function servedColumns(
  table: CatalogueTable,
  config: TableConfig,
  path: string,
  fixedNames: ReadonlySet<string>,
  warn: (message: string, column?: string) => void,
): ServedColumns | undefined {
  const key = chooseKey(table, config, path, (m) => warn(m));
  if (key === undefined) return undefined;
  for (const name of Object.keys(config.columns ?? {})) {
    if (!table.columns.some((c) => c.name === name))
      throw new CatalogueConfigError(`${path}.columns.${name}`, `${table.name} has no column "${name}"`);
  }
  const columns: ColumnSchema[] = [];
  for (const c of table.columns) {
    const settings = config.columns?.[c.name] ?? {};
    const at = `${path}.columns.${c.name}`;
    if (settings.hidden) {
      if (c.name === key) throw new CatalogueConfigError(`${at}.hidden`, `the key of ${table.name} cannot be hidden`);
      continue;
    }
    const type = settings.type ?? c.type;
    const leftOut =
      type === undefined
        ? `type ${c.sqlType} is not one colapi supports`
        : c.computed && table.kind === 'table'
          ? 'a computed column cannot be written'
          : undefined;
    if (leftOut !== undefined) {
      if (c.name === key) {
        warn(`the key column ${c.name}: ${leftOut}; the table is left out`);
        return undefined;
      }
      warn(`${leftOut}; the column is left out`, c.name);
      continue;
    }
    if (
      settings.name !== undefined &&
      settings.name !== c.name &&
      (c.name === key || fixedNames.has(`${table.name}.${c.name}`))
    ) {
      throw new CatalogueConfigError(
        `${at}.name`,
        `${c.name} is a key or foreign-key column and keeps its name; rename the relationship instead`,
      );
    }
    columns.push(column(c, type!, key, settings.name));
  }
  const keyColumn = columns.find((c) => c.name === key)!;
  if (UNADDRESSABLE.has(keyColumn.type)) {
    warn(`the key column ${key} is a ${keyColumn.type}, which cannot address a resource; the table is left out`);
    return undefined;
  }
  const names = new Set<string>();
  for (const c of columns) {
    if (names.has(c.name))
      throw new CatalogueConfigError(`${path}.columns`, `two columns of ${table.name} are named "${c.name}"`);
    names.add(c.name);
  }
  return { key, columns };
}

function column(c: CatalogueColumn, type: ColumnType, key: string, rename: string | undefined): ColumnSchema {
  const isKey = c.name === key;
  return {
    name: rename ?? c.name,
    type,
    nullable: c.nullable && !isKey,
    ...(isKey ? { generated: c.autoIncrement } : {}),
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
