import { sqlColumn, type ColumnSchema, type HttpMethod } from '@colapi/schema';
import type { CatalogueColumn, CatalogueTable } from './catalogue.js';

/** How warnings name the role the privileges are of. */
export const roleName = (role: string | undefined): string =>
  role === undefined ? 'the connecting role' : `role ${role}`;

/** Whether the role may read a column; true where the database has no privileges. */
const readable = (c: CatalogueColumn | undefined): boolean => c !== undefined && c.privileges?.select !== false;

/**
 * Why a table cannot be served to the role, or undefined when it may read every column: a list read selects
 * every column of its rows (`t0.*`), so a table read through a grant on some columns would answer 500.
 */
export function unreadable(table: CatalogueTable, role: string | undefined): string | undefined {
  const select = table.privileges?.select ?? 'all';
  if (select === 'all') return undefined;
  if (select === 'none') return `${roleName(role)} has no SELECT privilege on it; the table is left out`;
  const hidden = table.columns.filter((c) => !readable(c)).map((c) => c.name);
  return `${roleName(role)} may read only some of its columns${hidden.length ? ` (not ${hidden.join(', ')})` : ''}, and colapi reads every column of a row; the table is left out (grant SELECT on the table, or serve a view of the columns it may read)`;
}

/** Whether the role may read the two key columns of a join table, by which its rows are read. */
export function joinReadable(table: CatalogueTable, columns: readonly string[]): boolean {
  return columns.every((name) => readable(table.columns.find((c) => c.name === name)));
}

/** The methods the role's privileges allow on a table, and what it lacks, e.g. `INSERT (columns born)`, `DELETE`. */
export interface Allowed {
  readonly methods: ReadonlySet<HttpMethod>;
  /** Privileges on the table itself. */
  readonly lacking: readonly string[];
  /** Join tables whose rows a DELETE would delete, and which the role may not delete from. */
  readonly joins: readonly string[];
}

/**
 * POST needs INSERT on every column served, PATCH and PUT UPDATE on every column served but the key's, DELETE
 * the table's DELETE and that of its join tables (deleting a row deletes its join rows first); GET is what
 * serving it means. Everything where the database has no privileges.
 */
export function allowedMethods(
  table: CatalogueTable,
  served: readonly ColumnSchema[],
  keyColumns: readonly string[],
  joinTables: readonly CatalogueTable[],
): Allowed {
  const methods = new Set<HttpMethod>(['GET']);
  const lacking: string[] = [];
  const byName = new Map(table.columns.map((c) => [c.name, c]));
  const check = (privilege: 'insert' | 'update', columns: readonly ColumnSchema[], grants: readonly HttpMethod[]) => {
    const refused = columns.map(sqlColumn).filter((c) => byName.get(c)?.privileges?.[privilege] === false);
    if (refused.length === 0) for (const m of grants) methods.add(m);
    else
      lacking.push(
        `${privilege.toUpperCase()}${refused.length < columns.length ? ` (columns ${refused.join(', ')})` : ''}`,
      );
  };
  check('insert', served, ['POST']);
  check(
    'update',
    served.filter((c) => !keyColumns.includes(c.name)),
    ['PATCH', 'PUT'],
  );
  if (table.privileges?.delete === false) lacking.push('DELETE');
  const joins = [...new Set(joinTables.filter((t) => t.privileges?.delete === false).map((t) => t.name))];
  if (table.privileges?.delete !== false && joins.length === 0) methods.add('DELETE');
  return { methods, lacking, joins };
}

/** What an Allowed lacks, in words: `INSERT, DELETE on it and DELETE on book_tag`. */
export function lackingText(allowed: Allowed): string {
  const own = allowed.lacking.length ? `${allowed.lacking.join(', ')} on it` : '';
  const joins = allowed.joins.length ? `DELETE on ${allowed.joins.join(', ')}` : '';
  return [own, joins].filter(Boolean).join(' and ');
}
