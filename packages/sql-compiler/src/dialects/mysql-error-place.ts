import type { Knex } from 'knex';
import type { ErrorPlace } from '../dialect.js';

/** mysql2 answers `[rows, fields]`. */
async function rowsOf<T>(knex: Knex, sql: string, bindings: string[]): Promise<T[]> {
  return ((await knex.raw(sql, bindings)) as [T[], unknown])[0];
}

/** The columns of a unique index, by its name (and table, which MySQL 8 gives and MariaDB does not). */
async function indexPlace(knex: Knex, key: string): Promise<ErrorPlace | undefined> {
  const dot = key.indexOf('.');
  const [table, index] = dot > 0 ? [key.slice(0, dot), key.slice(dot + 1)] : [undefined, key];
  const found = await rowsOf<{ t: string; c: string }>(
    knex,
    `select table_name as t, column_name as c from information_schema.statistics
     where table_schema = database() and index_name = ?${table === undefined ? '' : ' and table_name = ?'} order by seq_in_index`,
    table === undefined ? [index] : [index, table],
  );
  const tables = new Set(found.map((r) => r.t));
  // PRIMARY names the key of every table: without the table it says nothing.
  return tables.size === 1 ? { table: found[0]!.t, columns: found.map((r) => r.c) } : undefined;
}

/**
 * A failed CHECK of MariaDB: `CONSTRAINT \`t.price\` failed for \`db\`.\`t\``. A check written on a column is
 * named after it (`t.price`); one written on the table by its own name, whose columns are the quoted names
 * in its clause (information_schema.check_constraints).
 */
async function checkPlace(knex: Knex, name: string, table: string): Promise<ErrorPlace> {
  if (name.startsWith(`${table}.`)) {
    const column = name.slice(table.length + 1);
    return { table, columns: [column], constraint: column };
  }
  const [row] = await rowsOf<{ clause: string }>(
    knex,
    `select check_clause as clause from information_schema.check_constraints
     where constraint_schema = database() and table_name = ? and constraint_name = ?`,
    [table, name],
  );
  const quoted = [...(row?.clause ?? '').matchAll(/`((?:[^`]|``)+)`/g)].map((m) => m[1]!.replace(/``/g, '`'));
  return { table, columns: [...new Set(quoted)], constraint: name };
}

/**
 * What a MariaDB/MySQL error message tells: the column of a value out of range or of a missing value, the
 * index of a duplicate (its columns are in the catalogue), the constraint of a failed CHECK.
 */
export function mysqlErrorPlace(knex: Knex, error: unknown): Promise<ErrorPlace | undefined> {
  return place(knex, error).catch(() => undefined);
}

async function place(knex: Knex, error: unknown): Promise<ErrorPlace | undefined> {
  const e = (error ?? {}) as { errno?: unknown; sqlMessage?: unknown };
  const message = String(e.sqlMessage ?? '');
  const column = (pattern: RegExp): ErrorPlace | undefined => {
    const name = pattern.exec(message)?.[1];
    return name === undefined ? undefined : { columns: [name] };
  };
  switch (e.errno) {
    case 1264: // `Out of range value for column 'age' at row 1`
      return column(/for column '(.+)' at row/);
    case 1048: // `Column 'title' cannot be null`
      return column(/^Column '(.+)' cannot be null/);
    case 1364: // `Field 'title' doesn't have a default value`
      return column(/^Field '(.+)' doesn't have a default value/);
    case 1062: {
      // `Duplicate entry 'news' for key 'tag_name_unique'` (MariaDB), `… for key 'tag.tag_name_unique'` (MySQL 8).
      const key = / for key '(.+)'$/.exec(message)?.[1];
      return key === undefined ? undefined : indexPlace(knex, key);
    }
    case 4025: {
      const m = /^CONSTRAINT `(.+)` failed for `(?:[^`]|``)+`\.`((?:[^`]|``)+)`$/.exec(message);
      return m ? checkPlace(knex, m[1]!, m[2]!.replace(/``/g, '`')) : undefined;
    }
    case 3819: {
      // MySQL 8: `Check constraint 'price_positive' is violated.`; its catalogue names no table to look in.
      const name = /^Check constraint '(.+)' is violated/.exec(message)?.[1];
      return name === undefined ? undefined : { columns: [], constraint: name };
    }
    default:
      return undefined;
  }
}
