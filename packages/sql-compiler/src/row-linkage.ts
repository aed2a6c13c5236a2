import type { JoinPath, ModelSchema, RelationshipSchema } from '@colapi/schema';
import type { Linkage } from '@colapi/query-ast';
import type { Knex } from 'knex';
import { Aliases } from './aliases.js';
import { compiledFragment } from './compiled-fragment.js';
import { correlatedTarget, targetModel, type CompileContext } from './field-expression.js';
import type { KeyListType } from './dialect.js';
import type { Row } from './row-decoder.js';
import { isScoped, tableSource } from './table-source.js';

/**
 * The relationships of a model a read shows the linkage of, in the order documents list them, and those
 * of them it includes in full (whose linkage comes with the related rows instead).
 */
export interface Relations {
  readonly shown: readonly RelationshipSchema[];
  readonly included: ReadonlySet<string>;
}

/** A read that shows no relationship: a writer's own reads. */
export const NO_RELATIONS: Relations = Object.freeze({ shown: [], included: new Set<string>() });

/** What a statement's rows carry of their relationships' linkage, and how to read it from them. */
export interface RowLinkage {
  /** The relationships whose linkage every row carries. */
  readonly carried: ReadonlySet<string>;
  /** The columns to select for rows of `alias`: one key list per relationship that needs one. */
  columns(alias: string): Knex.Raw[];
  /** The linkage of every carried relationship, in the order the read shows them, from a driver row and its decoded values. */
  decode(raw: Row, values: Row): Map<string, Linkage>;
  /** How `decode` reads each carried relationship, in order: for code that decodes rows itself (resource-row.ts). */
  readonly reads: readonly LinkageRead[];
}

/**
 * Where a row carries one relationship's linkage: its foreign key (`values[ownColumn]`), the same when a
 * probe column says its target is readable, or a key list column.
 */
export interface LinkageRead {
  readonly rel: RelationshipSchema;
  /** The row's foreign-key column, when the linkage is its value. */
  readonly own?: string;
  /** With `own`, under row scopes on the target: the driver row's column that is true when the caller may read the row `own` names; else the linkage is null. */
  readonly readable?: string;
  /** The key-list column of the driver row; absent when the linkage is the foreign key. */
  readonly column?: string;
  /** Splits the key list into the ids. */
  readonly keys?: KeyDecoder;
}

/** The column of a row that carries the key list of one of its relationships. */
function linkColumn(relationship: string): string {
  return `__colapi_link_${relationship}`;
}

/**
 * The one rule for which linkage comes with the rows of a statement. A relationship shown and not
 * included comes:
 * - for nothing when it is a belongs-to to the target's key: the row's foreign key is the linkage;
 * - under row scopes on such a target (a key of a row the caller cannot read must not show), as the foreign
 *   key again, with one more column that probes the target's row by that key within its scope, when the
 *   statement computes its select list for just the rows it answers (`inline`): a probe by key, where a key
 *   list would aggregate and sort the one key;
 * - as one more column holding the related keys (Dialect.keyList) when the statement computes its select
 *   list for just the rows it answers (`inline`: a read by key, related rows, a first page in key order)
 *   and the dialect aggregates the target's key type (integer or text, whose text form is the id);
 * - otherwise not: the caller loads it, one statement per relationship for all the rows.
 *
 * Why not on every page: past the first, PostgreSQL computes the select list of the rows an offset skips
 * too, and with a sort MariaDB and SQLite compute it for every matching row before sorting.
 */
export function rowLinkage(ctx: CompileContext, relations: Relations, inline: boolean): RowLinkage {
  const keyLists: RelationshipSchema[] = [];
  const probes: RelationshipSchema[] = [];
  // In the order the read shows them, so that a row's linkage lists its relationships as documents do.
  const read: LinkageRead[] = [];
  for (const rel of relations.shown) {
    if (relations.included.has(rel.name)) continue;
    const target = targetModel(ctx, rel);
    if (rel.join.kind === 'belongs-to' && rel.join.targetColumn === target.key) {
      if (!isScoped(ctx, target)) read.push({ rel, own: rel.join.ownColumn });
      else if (inline) {
        probes.push(rel);
        read.push({ rel, own: rel.join.ownColumn, readable: linkColumn(rel.name) });
      }
    } else if (inline && ctx.dialect.keyList && keyListType(ctx, rel)) {
      keyLists.push(rel);
      const keys = keyListType(ctx, rel) === 'integer' ? integerKeys : ctx.dialect.decodeKeyList!.bind(ctx.dialect);
      read.push({ rel, column: linkColumn(rel.name), keys });
    }
  }
  const carried = new Set(read.map((r) => r.rel.name));
  return {
    carried,
    reads: read,
    columns: (alias) => [
      ...keyLists.map((rel) => keyListColumn(ctx, rel, alias)),
      ...probes.map((rel) => readableColumn(ctx, rel, alias)),
    ],
    decode(raw, values) {
      const linkage = new Map<string, Linkage>();
      for (const { rel, own, readable, column, keys } of read) {
        if (keys === undefined) {
          const v = values[own!];
          const hidden = readable !== undefined && !raw[readable];
          linkage.set(rel.name, v === null || v === undefined || hidden ? null : String(v));
        } else {
          const ids = keys(raw[column!]);
          linkage.set(rel.name, rel.cardinality === 'many' ? ids : (ids[0] ?? null));
        }
      }
      return linkage;
    },
  };
}

export type KeyDecoder = (raw: unknown) => string[];

/** How a relationship's target keys aggregate into a key list, if they do (integer or text, whose text form is the id). */
function keyListType(ctx: CompileContext, rel: RelationshipSchema): KeyListType | undefined {
  const target = targetModel(ctx, rel);
  const type = target.columns.get(target.key)?.type;
  return type === 'integer' || type === 'string' ? type : undefined;
}

/** The keys of an integer key list: comma-separated digits; empty or null when there are none. */
export function integerKeys(raw: unknown): string[] {
  if (raw === null || raw === undefined) return [];
  const text = String(raw);
  return text === '' ? [] : text.split(',');
}

/**
 * The keys of the targets related to the owner row `ownerAlias`: a query and the column that holds them.
 * Through a join table whose column holds the target's key, the join table alone tells them, as a
 * belongs-to's foreign key does: reading the target table too would only confirm what the foreign key
 * constraint already guarantees, and would cost a probe of that table per key (under heavy churn of the
 * target table, most of a related collection's time). Under row scopes on the target, whose rows the join
 * table cannot tell apart, each key is then kept only when its target row is in scope (readableKey).
 */
export function linkedKeys(
  ctx: CompileContext,
  rel: RelationshipSchema,
  ownerAlias: string,
): { qb: Knex.QueryBuilder; key: string } {
  const target = targetModel(ctx, rel);
  const join = rel.join;
  if (join.kind === 'through' && join.targetColumn === target.key) {
    const j = ctx.aliases.next();
    const qb = joinTableKeys(ctx, target, join.through, j).whereRaw('?? = ??', [
      `${j}.${join.through.ownColumn}`,
      `${ownerAlias}.${join.ownColumn}`,
    ]);
    return { qb, key: `${j}.${join.through.targetColumn}` };
  }
  const { qb, alias } = correlatedTarget(ctx, rel, ownerAlias);
  return { qb, key: `${alias}.${target.key}` };
}

type ThroughJoin = Extract<JoinPath, { readonly kind: 'through' }>;

/**
 * The rows of a join table whose target column holds the keys of `target`, named `alias`: under row scopes
 * on the target only those whose target row the caller may read (readableKey), so that no key of a hidden
 * row is linked. The one place both linkage reads through a join table (linkedKeys, and a related read of
 * linkage alone) take their rows from.
 */
export function joinTableKeys(
  ctx: CompileContext,
  target: ModelSchema,
  through: ThroughJoin['through'],
  alias: string,
): Knex.QueryBuilder {
  const qb = ctx.knex.from({ [alias]: through.table });
  if (isScoped(ctx, target)) qb.whereRaw('?', [readableKey(ctx, target, `${alias}.${through.targetColumn}`)]);
  return qb;
}

/**
 * Whether the row of `model` whose key `keyRef` holds is in the caller's read scope: an EXISTS probing the
 * key, run for each key (Dialect.probeEachRow). A join of the target table instead let PostgreSQL hash the
 * few join rows of an owner and scan the whole target for them, once per owner.
 */
function readableKey(ctx: CompileContext, model: ModelSchema, keyRef: string): Knex.Raw {
  const { knex, dialect } = ctx;
  const t = ctx.aliases.next();
  const probe = tableSource(ctx, model, t)
    .select(knex.raw('1'))
    .whereRaw('?? = ??', [`${t}.${model.key}`, keyRef]);
  return knex.raw('exists ?', [dialect.probeEachRow ? dialect.probeEachRow(knex, probe) : probe]);
}

/**
 * Whether the caller may read the row that the foreign key of a belongs-to names, for rows of `alias`: true
 * or false (1 or 0 where the database has no booleans), false for a null key. Under row scopes only, so built
 * each time, as a scoped key list is.
 */
function readableColumn(ctx: CompileContext, rel: RelationshipSchema, alias: string): Knex.Raw {
  const join = rel.join as Extract<JoinPath, { readonly kind: 'belongs-to' }>;
  const probe = readableKey(
    { ...ctx, aliases: new Aliases(`${alias}l`) },
    targetModel(ctx, rel),
    `${alias}.${join.ownColumn}`,
  );
  return ctx.knex.raw('? as ??', [probe, linkColumn(rel.name)]);
}

/**
 * The key-list column of one relationship for rows of `alias`, compiled once per dialect, target and alias;
 * under row scopes built each time (its text then holds the target's scope, never kept or taken from the cache).
 */
function keyListColumn(ctx: CompileContext, rel: RelationshipSchema, alias: string): Knex.Raw {
  const { knex, dialect } = ctx;
  const target = targetModel(ctx, rel);
  const build = () => {
    // Aliases of their own (t0l0, …): the same text fits any query in which `alias` names the owner rows.
    const { qb: from, key } = linkedKeys({ ...ctx, aliases: new Aliases(`${alias}l`) }, rel, alias);
    return knex.raw('? as ??', [dialect.keyList!(knex, from, key, keyListType(ctx, rel)!), linkColumn(rel.name)]);
  };
  if (ctx.scopes) return build();
  return compiledFragment(knex, dialect, rel, `link ${alias} ${target.table}.${target.key}`, build);
}
