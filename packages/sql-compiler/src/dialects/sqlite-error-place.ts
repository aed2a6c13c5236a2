import type { Knex } from 'knex';
import type { ErrorPlace } from '../dialect.js';
import { ValueOutOfRange } from '../value-out-of-range.js';

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An identifier as SQLite reads it: bare, or quoted in one of its three ways. */
const identifier = (name: string) =>
  `(?:"${literal(name.replace(/"/g, '""'))}"|\`${literal(name)}\`|\\[${literal(name)}\\]|${literal(name)}\\b)`;

/** The text inside the parenthesis that opens at `start`, or undefined when it does not close. */
function parenthesised(sql: string, start: number): string | undefined {
  let depth = 0;
  let quote: string | undefined;
  for (let i = start; i < sql.length; i++) {
    const ch = sql[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return sql.slice(start + 1, i);
  }
  return undefined;
}

/**
 * The expression of a failed CHECK: SQLite names a check by its name when it has one (`CONSTRAINT pos CHECK
 * (…)`), by its expression otherwise; a named one is looked up in the table's own SQL. Empty when the table
 * has no such check.
 */
function checkExpression(tableSql: string, failed: string): string {
  const named = new RegExp(`\\bconstraint\\s+${identifier(failed)}\\s*check\\s*\\(`, 'i').exec(tableSql);
  if (named) return parenthesised(tableSql, named.index + named[0].length - 1) ?? '';
  // An unnamed check is quoted as written: one of another table is not this table's.
  return tableSql.includes(failed) ? failed : '';
}

/** The columns of a table an expression reads: its identifiers, string literals left out. */
function columnsIn(expression: string, columns: readonly string[]): string[] {
  const bare = expression.replace(/'(?:[^']|'')*'/g, "''");
  return columns.filter((c) => new RegExp(`(?:^|[^\\w$])${identifier(c)}`, 'i').test(bare));
}

/**
 * What SQLite's message tells (knex puts the statement before it): `UNIQUE constraint failed: tag.name` (one
 * `table.column` per column of the key), `NOT NULL constraint failed: t.title`, `CHECK constraint failed:
 * <name or expression>`. A check names no table: it is looked for in the request's table.
 */
export function sqliteErrorPlace(knex: Knex, error: unknown, table?: string): Promise<ErrorPlace | undefined> {
  return place(knex, error, table).catch(() => undefined);
}

async function place(knex: Knex, error: unknown, table?: string): Promise<ErrorPlace | undefined> {
  if (error instanceof ValueOutOfRange) return { columns: [error.column] };
  const code = String((error as { code?: unknown })?.code ?? '');
  const message = String((error as { message?: unknown })?.message ?? '');
  if (
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === 'SQLITE_CONSTRAINT_NOTNULL'
  ) {
    const list = /(?:UNIQUE|PRIMARY KEY|NOT NULL) constraint failed: (.+)$/.exec(message)?.[1];
    const names = list?.split(', ').map((n) => n.split('.'));
    if (!names?.length || names.some((n) => n.length !== 2)) return undefined;
    return { table: names[0]![0]!, columns: names.map((n) => n[1]!) };
  }
  if (code !== 'SQLITE_CONSTRAINT_CHECK') return undefined;
  const failed = /CHECK constraint failed: (.+)$/.exec(message)?.[1];
  if (failed === undefined) return undefined;
  if (table === undefined) return { columns: [], constraint: failed };
  const [row] = (await knex.raw("select sql from sqlite_schema where type = 'table' and name = ?", [table])) as {
    sql: string;
  }[];
  const names = ((await knex.raw('select name from pragma_table_xinfo(?)', [table])) as { name: string }[]).map(
    (c) => c.name,
  );
  const expression = row ? checkExpression(row.sql, failed) : '';
  const columns = columnsIn(expression, names);
  return columns.length ? { table, columns, constraint: failed } : { columns: [], constraint: failed };
}
