import type { Knex } from 'knex';

/** A UUID as colapi writes and answers it: lower-case hex with hyphens. */
const CANONICAL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Names that say a column holds an identifier: `id`, `uuid`, `guid`, or ending `_id`, `_uuid`, `_guid`, `Id`, `Uuid`, `Guid`. */
const CAMEL_ID = /[a-z0-9](?:Id|ID|Uuid|UUID|Guid|GUID)$/;
const SNAKE_ID = /(?:^|_)(?:id|uuid|guid)$/i;

/** A catalogue's name as a MariaDB/MySQL identifier (knex's `??` would read a dot in it as a qualifier). */
const quoted = (name: string): string => `\`${name.replace(/`/g, '``')}\``;

/** The first rows looked at, and the values among them, as the SQLite reader samples dates. */
const SCANNED_ROWS = 1000;
const SAMPLED_VALUES = 20;

/**
 * Whether a `char(36)` column is a candidate UUID by its name (Laravel's `uuid()` and Doctrine's `guid` columns
 * are `char(36)` named so); its rows then decide (`holdsUuids`).
 */
export function uuidCandidate(name: string, columnType: string): boolean {
  return /^char\(36\)$/i.test(columnType) && (SNAKE_ID.test(name) || CAMEL_ID.test(name));
}

/**
 * Whether a candidate column holds UUIDs in colapi's form: its first non-null values (at most 20 among its
 * first 1,000 rows, a bounded read) are each a lower-case UUID. An empty column counts as one (its name and
 * size are all there is to go by). A value in upper case or another form keeps the column text: colapi would
 * answer it in another spelling than the rows hold, and its linkage would not match.
 */
export async function holdsUuids(knex: Knex, table: string, column: string): Promise<boolean> {
  try {
    const [rows] = (await knex.raw(
      `select v from (select ${quoted(column)} as v from ${quoted(table)} limit ${SCANNED_ROWS}) s where v is not null limit ${SAMPLED_VALUES}`,
    )) as [{ v: unknown }[]];
    return rows.every((r) => CANONICAL.test(Buffer.isBuffer(r.v) ? r.v.toString('utf8') : String(r.v)));
  } catch {
    // A view whose table is gone cannot be read: it stays as the catalogue describes it.
    return false;
  }
}
