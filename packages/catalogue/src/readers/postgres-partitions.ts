import type { Knex } from 'knex';
import type { CatalogueForeignKey } from '../catalogue.js';
import { columnNames } from './pg-column-names.js';

/** node-postgres answers `{ rows }`. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * The partitions of each partitioned table of the schema, at every level; in another schema, qualified. Walked
 * through pg_inherits, not pg_partition_tree(), which locks every partition: a reload must not wait behind a
 * migration's lock.
 */
const TREE = `
  with recursive tree as (
    select p.relname as "table", h.inhrelid as relid, p.relnamespace as namespace
    from pg_catalog.pg_class p
    join pg_catalog.pg_namespace n on n.oid = p.relnamespace
    join pg_catalog.pg_inherits h on h.inhparent = p.oid
    where n.nspname = ? and p.relkind = 'p' and not p.relispartition
    union all
    select t."table", h.inhrelid, t.namespace
    from tree t join pg_catalog.pg_inherits h on h.inhparent = t.relid
  )`;

/**
 * A row per partition, then for each leaf partition (the ones that hold rows) its primary key, its unique
 * indexes over not-null plain columns without a predicate, by their key columns, and its foreign keys to
 * tables of the schema.
 */
const PARTITIONS = `${TREE}
  select t."table", case when c.relnamespace = t.namespace then c.relname else cn.nspname || '.' || c.relname end as partition,
    t.relid::text as id, c.relkind <> 'p' as leaf, 'partition' as kind, null::json as columns, null::name as target, null::json as "references"
  from tree t
  join pg_catalog.pg_class c on c.oid = t.relid
  join pg_catalog.pg_namespace cn on cn.oid = c.relnamespace
  union all
  select t."table", null, t.relid::text, true, case when i.indisprimary then 'primary' else 'unique' end,
    ${columnNames('i.indrelid', 'i.indkey::int2[]', 'i.indnkeyatts')}, null, null
  from tree t
  join pg_catalog.pg_class c on c.oid = t.relid and c.relkind <> 'p'
  join pg_catalog.pg_index i on i.indrelid = t.relid
  where i.indisunique and i.indexprs is null and i.indpred is null
    and (i.indisprimary or not exists (select 1 from pg_catalog.pg_attribute a
      where a.attrelid = i.indrelid and a.attnum = any (i.indkey::int2[]) and not a.attnotnull))
  union all
  select t."table", null, t.relid::text, true, 'foreign', ${columnNames('con.conrelid', 'con.conkey')},
    fc.relname, ${columnNames('con.confrelid', 'con.confkey')}
  from tree t
  join pg_catalog.pg_class c on c.oid = t.relid and c.relkind <> 'p'
  join pg_catalog.pg_constraint con on con.conrelid = t.relid and con.contype = 'f'
  join pg_catalog.pg_class fc on fc.oid = con.confrelid
  where fc.relnamespace = t.namespace`;

/** A leaf's primary key before its unique indexes (kinds in name order): the first one-column key shared is the key. */
const ORDERED = `select * from (${PARTITIONS}) r order by r."table", r.id, r.kind, r.columns::text, r.target, r."references"::text`;

interface PartitionRow {
  readonly table: string;
  readonly partition: string | null;
  readonly id: string;
  readonly leaf: boolean;
  readonly kind: 'partition' | 'primary' | 'unique' | 'foreign';
  readonly columns: readonly string[] | null;
  readonly target: string | null;
  readonly references: readonly string[] | null;
}

/** What the partitions of one partitioned table say of it. */
export interface PartitionFacts {
  /** Its partitions, in name order. */
  readonly partitions: readonly string[];
  /**
   * Keys every leaf partition that declares keys declares (its primary key, or a unique index over not-null
   * columns). A partition that declares none (Pagila's catch-all `payment_p0000_default`) does not veto the
   * key the others share: the start-up line names it, as one where the database holds the key to nothing.
   */
  readonly keys: readonly (readonly string[])[];
  /** Leaf partitions that declare no key at all. */
  readonly unkeyed: readonly string[];
  /** Foreign keys every leaf partition that declares foreign keys declares. */
  readonly foreignKeys: readonly CatalogueForeignKey[];
}

/** What every one of the lists holds (compared as JSON), in the first list's order; none without lists. */
function shared<T>(lists: readonly (readonly T[])[]): T[] {
  if (lists.length === 0) return [];
  const [first, ...rest] = lists.map((l) => l.map((x) => JSON.stringify(x)));
  return first!.filter((x, i) => first!.indexOf(x) === i && rest.every((l) => l.includes(x))).map((x) => JSON.parse(x));
}

/** PostgreSQL: each partitioned table of a schema, with its partitions and the keys and foreign keys they share. */
export async function postgresPartitions(knex: Knex, schema: string): Promise<Map<string, PartitionFacts>> {
  const rows = rowsOf<PartitionRow>(await knex.raw(ORDERED, [schema]));
  const out = new Map<string, PartitionFacts>();
  for (const table of new Set(rows.map((r) => r.table))) {
    const own = rows.filter((r) => r.table === table);
    const leaves = own.filter((r) => r.kind === 'partition' && r.leaf).map((r) => r.id);
    // Per leaf, its rows of these kinds; leaves that declare none of them are not counted.
    const of = (kinds: readonly string[]) =>
      leaves.map((id) => own.filter((r) => r.id === id && kinds.includes(r.kind))).filter((l) => l.length > 0);
    const names = own.flatMap((r) => (r.kind === 'partition' && r.partition !== null ? [r.partition] : []));
    const nameOf = new Map(own.filter((r) => r.kind === 'partition').map((r) => [r.id, r.partition!]));
    const unkeyed = leaves.filter(
      (id) => !own.some((r) => r.id === id && (r.kind === 'primary' || r.kind === 'unique')),
    );
    out.set(table, {
      partitions: names.sort(),
      unkeyed: unkeyed.map((id) => nameOf.get(id)!).sort(),
      keys: shared(of(['primary', 'unique']).map((l) => l.map((r) => [...(r.columns ?? [])]))),
      foreignKeys: shared(
        of(['foreign']).map((l) =>
          l.map((r) => ({ columns: [...(r.columns ?? [])], table: r.target!, references: [...(r.references ?? [])] })),
        ),
      ),
    });
  }
  return out;
}
