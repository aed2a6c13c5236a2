import type { Knex } from 'knex';
import { parsePgNodeTree, pgNode, type PgNode, type PgValue } from './pg-node-tree.js';

/** node-postgres answers `{ rows }`. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** The stored query of each view and materialized view of the schema (its `_RETURN` rule); reading it takes no lock. */
const VIEW_QUERIES = `
  select c.oid::text as oid, c.relname as name, r.ev_action::text as query
  from pg_catalog.pg_rewrite r
  join pg_catalog.pg_class c on c.oid = r.ev_class
  join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  where n.nspname = ? and c.relkind in ('v', 'm') and r.rulename = '_RETURN' and r.ev_type = '1'`;

/**
 * Which of the view columns found show a key of their base table: its one-column primary key, or a one-column
 * unique index without predicate over a not-null column. A table with inheritance children is not one table
 * (a read of it reads theirs too, which its key does not cover) unless read `only`; a partitioned table's key
 * covers its partitions.
 */
const KEYED = `
  select k.view, a.attname as column
  from unnest(?::text[], ?::oid[], ?::int[], ?::oid[], ?::int[], ?::bool[]) as k(view, view_oid, position, relid, attnum, inh)
  join pg_catalog.pg_attribute a on a.attrelid = k.view_oid and a.attnum = k.position and not a.attisdropped
  join pg_catalog.pg_class b on b.oid = k.relid
  join pg_catalog.pg_attribute ba on ba.attrelid = k.relid and ba.attnum = k.attnum
  where (not k.inh or b.relkind = 'p' or not exists (select 1 from pg_catalog.pg_inherits h where h.inhparent = b.oid))
    and exists (select 1 from pg_catalog.pg_index i
      where i.indrelid = k.relid and i.indisunique and i.indnkeyatts = 1 and i.indkey[0] = k.attnum
        and i.indpred is null and i.indexprs is null and (i.indisprimary or ba.attnotnull))
  order by k.view, a.attnum`;

/** A view column that shows a column of the one table the view reads. */
interface Source {
  readonly view: string;
  readonly viewOid: string;
  /** The view column's number: a view's columns are its query's output columns, in order. */
  readonly position: number;
  readonly relid: string;
  readonly attnum: number;
  /** Read with its inheritance children (not `from only`). */
  readonly inh: boolean;
}

const field = (node: PgNode, name: string): PgValue | undefined => node.fields.get(name);
const list = (v: PgValue | undefined): readonly PgValue[] => (Array.isArray(v) ? v : []);

/**
 * The columns of a view's query that are a plain column of the one table it reads, when its rows are that
 * table's rows, at most once each: one relation in FROM (no join, no second item, no subquery or function
 * there), no set operation (UNION…), no GROUP BY or aggregate, no set-returning function in the select list.
 * A filter (WHERE, LIMIT, DISTINCT) only drops rows, so a key of the table stays a key of the view.
 */
export function baseColumns(view: string, viewOid: string, text: string): Source[] {
  const query = pgNode(list(parsePgNodeTree(text))[0], 'QUERY');
  if (!query) return [];
  const empty = (name: string) => field(query, name) === null;
  if (!empty('setOperations') || !empty('groupClause') || !empty('groupingSets')) return [];
  if (field(query, 'hasAggs') !== 'false' || field(query, 'hasTargetSRFs') !== 'false') return [];
  const from = list(pgNode(field(query, 'jointree'), 'FROMEXPR')?.fields.get('fromlist'));
  const only = from.length === 1 ? pgNode(from[0], 'RANGETBLREF') : undefined;
  const index = Number(only?.fields.get('rtindex'));
  const entry = pgNode(list(field(query, 'rtable'))[index - 1], 'RANGETBLENTRY');
  if (!entry || field(entry, 'rtekind') !== '0' || !['r', 'p'].includes(String(field(entry, 'relkind')))) return [];
  const relid = String(field(entry, 'relid'));
  const inh = field(entry, 'inh') !== 'false';
  const out: Source[] = [];
  for (const item of list(field(query, 'targetList'))) {
    const target = pgNode(item, 'TARGETENTRY');
    const variable = target && pgNode(field(target, 'expr'), 'VAR');
    if (!target || !variable || field(target, 'resjunk') !== 'false') continue;
    if (Number(field(variable, 'varno')) !== index || field(variable, 'varlevelsup') !== '0') continue;
    out.push({
      view,
      viewOid,
      position: Number(field(target, 'resno')),
      relid,
      attnum: Number(field(variable, 'varattno')),
      inh,
    });
  }
  return out;
}

/**
 * PostgreSQL: the columns of each view and materialized view of a schema that show the key of the one table
 * it reads (`baseColumns`), by view name. A view whose stored query cannot be followed gets none.
 */
export async function postgresViewKeys(knex: Knex, schema: string): Promise<Map<string, string[]>> {
  const views = rowsOf<{ oid: string; name: string; query: string }>(await knex.raw(VIEW_QUERIES, [schema]));
  const sources = views.flatMap((v) => {
    try {
      return baseColumns(v.name, v.oid, v.query);
    } catch {
      return [];
    }
  });
  const out = new Map<string, string[]>();
  if (sources.length === 0) return out;
  const rows = rowsOf<{ view: string; column: string }>(
    await knex.raw(KEYED, [
      sources.map((s) => s.view),
      sources.map((s) => s.viewOid),
      sources.map((s) => s.position),
      sources.map((s) => s.relid),
      sources.map((s) => s.attnum),
      sources.map((s) => s.inh),
    ]),
  );
  for (const r of rows) out.set(r.view, [...(out.get(r.view) ?? []), r.column]);
  return out;
}
