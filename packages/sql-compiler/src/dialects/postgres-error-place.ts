import type { Knex } from 'knex';
import type { ErrorPlace } from '../dialect.js';

/** The fields node-postgres copies from the server's error report. */
interface PgError {
  readonly code?: unknown;
  readonly table?: unknown;
  readonly column?: unknown;
  readonly constraint?: unknown;
  readonly dataType?: unknown;
  readonly detail?: unknown;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The columns a table's CHECK constraint covers (`conkey`), in their order; tables the search path finds. */
const CHECK_COLUMNS = `select a.attname as c from pg_catalog.pg_constraint con
  join pg_catalog.pg_class t on t.oid = con.conrelid
  join pg_catalog.pg_attribute a on a.attrelid = t.oid and a.attnum = any(con.conkey)
  where con.contype = 'c' and con.conname = ? and t.relname = ? and pg_catalog.pg_table_is_visible(t.oid)
  order by a.attnum`;

/** The columns of a table whose type is a domain. */
const DOMAIN_COLUMNS = `select a.attname as c from pg_catalog.pg_attribute a
  join pg_catalog.pg_class t on t.oid = a.attrelid
  join pg_catalog.pg_type d on d.oid = a.atttypid
  where t.relname = ? and pg_catalog.pg_table_is_visible(t.oid) and d.typname = ? and d.typtype = 'd'
    and a.attnum > 0 and not a.attisdropped`;

async function columnsOf(knex: Knex, sql: string, bindings: string[]): Promise<string[]> {
  const result = (await knex.raw(sql, bindings)) as { rows: { c: string }[] };
  return result.rows.map((r) => r.c);
}

/** The one column of the request's table whose type is the domain an error names, if there is one. */
async function domainColumn(knex: Knex, e: PgError, table: string | undefined): Promise<ErrorPlace | undefined> {
  const domain = text(e.dataType);
  if (domain === undefined || table === undefined) return undefined;
  const columns = await columnsOf(knex, DOMAIN_COLUMNS, [table, domain]);
  return columns.length === 1 ? { table, columns } : undefined;
}

/**
 * What PostgreSQL's error report tells: a duplicate its key (`Key (name)=(news) already exists.`), a null
 * its table and column, a failed CHECK its table and constraint, whose columns the catalogue holds. A
 * domain's CHECK or NOT NULL names only the domain: the one column of that domain in the request's table is
 * at fault.
 */
export function postgresErrorPlace(knex: Knex, error: unknown, table?: string): Promise<ErrorPlace | undefined> {
  return place(knex, error, table).catch(() => undefined);
}

async function place(knex: Knex, error: unknown, table?: string): Promise<ErrorPlace | undefined> {
  const e = (error ?? {}) as PgError;
  const own = text(e.table);
  const at = own === undefined ? {} : { table: own };
  switch (e.code) {
    case '23505': {
      // An expression index names no column of ours.
      const columns = /^Key \((.+?)\)=\(/.exec(String(e.detail ?? ''))?.[1]?.split(', ');
      return columns ? { ...at, columns } : undefined;
    }
    case '23502': {
      // A domain declared NOT NULL names only the domain (`domain d does not allow null values`).
      const column = text(e.column);
      return column === undefined ? domainColumn(knex, e, table) : { ...at, columns: [column] };
    }
    case '23514': {
      const constraint = text(e.constraint);
      if (constraint === undefined) return undefined;
      if (own !== undefined)
        return { ...at, columns: await columnsOf(knex, CHECK_COLUMNS, [constraint, own]), constraint };
      const domain = await domainColumn(knex, e, table);
      return domain ? { ...domain, constraint } : { columns: [], constraint };
    }
    default:
      return undefined;
  }
}
