import type { ModelSchema, RelationshipSchema } from '@colapi/schema';
import { formatCompositeId, splitCompositeId } from '@colapi/query-ast';
import type { Knex } from 'knex';
import { targetModel, type CompileContext } from './field-expression.js';
import { keyOfRow, keyRefs } from './key-columns.js';
import { resourceRowDecoder, type ResourceRow } from './resource-row.js';
import type { Row } from './row-decoder.js';
import { shapesOf, type ShapeCaches } from './shape-cache.js';
import { joinTableKeys, NO_RELATIONS, rowLinkage, type Relations } from './row-linkage.js';
import { selectColumns } from './select-columns.js';
import { statementOf, type RowsStatement } from './statement.js';
import { tableSource } from './table-source.js';
import { keptScoped, type Traced } from './scope-trace.js';
import { ownerJoinColumn, plainBindings } from './plain-binding.js';

/** One target of a relationship, for the owner whose join value is `owner`. */
export interface RelatedRow {
  /** The owner's join value, as text. */
  readonly owner: string;
  /** The target's id. */
  readonly id: string;
  /** The target in full, when it was read so. */
  readonly row?: ResourceRow;
}

const OWNER_COLUMN = '__colapi_owner';

/** Statements kept per dialect and relationship, bound again with other owners: see compileRelated. */
const kept: ShapeCaches<RowsStatement<RelatedRow[]>> = new WeakMap();
/** Related reads under row scopes, kept per shape and scopes' key (ScopeTrace). */
const keptScopedRelated: ShapeCaches<Traced<RowsStatement<RelatedRow[]>>> = new WeakMap();
/** Shapes kept per relationship: one per number of owners and set of relationships shown. */
const SHAPES_PER_RELATIONSHIP = 200;

/**
 * The targets of a relationship for many owners at once, in key order, each tagged with its owner's join
 * value: one statement per relationship whatever the number of owners. Without `relations` only the target
 * keys are read (linkage); with them the targets are read in full, carrying the linkage of the
 * relationships `relations` shows as rowLinkage decides.
 *
 * Its text depends only on the number of owners and the relationships shown, and its bindings are the owner
 * values: the statement built for the first request of a shape is kept and bound again, as compileRow does
 * (outside row scopes only: a scoped one is built each time).
 *
 * Under row scopes only targets the caller may read are answered: the target table is read within its scope,
 * also for linkage alone through a join table (which otherwise tells the keys by itself).
 */
export function compileRelated(
  ctx: CompileContext,
  rel: RelationshipSchema,
  ownerValues: readonly unknown[],
  relations?: Relations,
): RowsStatement<RelatedRow[]> {
  // Bound as the owner's join column binds (MySQL: a binary(16) UUID's bytes): the statement's bindings.
  const owners = plainBindings(ctx, ownerJoinColumn(ctx, rel), ownerValues);
  const shape = `${ownerValues.length} ${relations ? `${relations.shown.map((r) => r.name).join(',')} ${[...relations.included].join(',')}` : ''}`;
  if (ctx.scopes)
    return keptScoped(ctx, keptScopedRelated, rel, shape, SHAPES_PER_RELATIONSHIP, owners, (c) =>
      buildRelated(c, rel, owners, relations),
    );
  const statements = shapesOf(kept, ctx.dialect, rel);
  const statement = statements.get(shape);
  if (statement) return { ...statement, bindings: owners };
  const built = buildRelated(ctx, rel, owners, relations);
  const bindsOwners = built.bindings.length === owners.length && built.bindings.every((b, i) => b === owners[i]);
  if (bindsOwners && statements.size < SHAPES_PER_RELATIONSHIP) statements.set(shape, built);
  return built;
}

function buildRelated(
  ctx: CompileContext,
  rel: RelationshipSchema,
  ownerValues: readonly unknown[],
  relations?: Relations,
): RowsStatement<RelatedRow[]> {
  const join = rel.join;
  if (join.kind === 'composite') return buildCompositeRelated(ctx, rel, join, ownerValues, relations);
  const { knex, dialect } = ctx;
  const target = targetModel(ctx, rel);
  const linkage = rowLinkage(ctx, relations ?? NO_RELATIONS, true);
  const t = ctx.aliases.next();
  const composite = target.keyColumns.length > 1;
  const key = target.columns.get(target.keyColumns[0]!)!;
  // Where the owner's join value and the target's key are read.
  let qb: Knex.QueryBuilder;
  let ownerRef: string;
  let keyRef = `${t}.${target.key}`;
  if (join.kind === 'through' && !relations && join.targetColumn === target.key) {
    // Linkage only: the join table holds the keys (linkedKeys says why the target table is not read, and
    // how a scoped one is).
    qb = joinTableKeys(ctx, target, join.through, t);
    ownerRef = `${t}.${join.through.ownColumn}`;
    keyRef = `${t}.${join.through.targetColumn}`;
  } else if (join.kind === 'through') {
    const j = ctx.aliases.next();
    qb = tableSource(ctx, target, t).join(
      { [j]: join.through.table },
      `${j}.${join.through.targetColumn}`,
      `${t}.${join.targetColumn}`,
    );
    ownerRef = `${j}.${join.through.ownColumn}`;
  } else {
    qb = tableSource(ctx, target, t);
    ownerRef = `${t}.${join.targetColumn}`;
  }
  // A composite key's parts are read as they are, and its id made of them (keyOfRow).
  const keyColumns = composite ? keyRefs(target, t) : [];
  const columns = relations
    ? [selectColumns(ctx, target, t), ...linkage.columns(t)]
    : composite
      ? keyColumns
      : [knex.raw('? as ??', [dialect.readColumn(knex, keyRef, key), target.key])];
  qb.select(knex.raw('?? as ??', [ownerRef, OWNER_COLUMN]), ...columns).whereIn(ownerRef, ownerValues as Knex.Value[]);
  for (const ref of composite ? keyColumns : [keyRef]) qb.orderBy(ref, 'asc');
  // The owner's join value as the owner's row decoded it (a UUID in lower case), where its column is the
  // target's (the two ends of a foreign key share a type); a join table's own column is read as it comes.
  const ownerColumn = join.kind === 'through' ? undefined : target.columns.get(join.targetColumn);
  const owner = ownerColumn
    ? (raw: Row) => String(dialect.decodeValue(ownerColumn, raw[OWNER_COLUMN]))
    : (raw: Row) => String(raw[OWNER_COLUMN]);
  let decode: (raw: Row) => RelatedRow;
  if (relations) {
    const full = resourceRowDecoder(dialect, target, linkage);
    decode = (raw) => {
      const row = full(raw);
      return { owner: owner(raw), id: String(row.values[target.key]), row };
    };
  } else if (composite) {
    decode = (raw) => ({ owner: owner(raw), id: String(keyOfRow(ctx, target, raw)) });
  } else {
    decode = (raw) => ({ owner: owner(raw), id: String(dialect.decodeValue(key, raw[target.key])) });
  }
  return { ...statementOf(qb, ({ rows }) => rows.map(decode)), carried: relations ? linkage.carried : new Set() };
}

/**
 * buildRelated for a foreign key of several columns: the target rows whose join columns, as one row value,
 * are among the owners' (`(t.a, t.b) in ((?, ?), …)`), each tagged with that value as the owner's join value
 * (joinValue). Built each time: such relationships are rare, and their owner values are tuples.
 */
function buildCompositeRelated(
  ctx: CompileContext,
  rel: RelationshipSchema,
  join: Extract<RelationshipSchema['join'], { kind: 'composite' }>,
  ownerValues: readonly unknown[],
  relations?: Relations,
): RowsStatement<RelatedRow[]> {
  const { knex, dialect } = ctx;
  const target = targetModel(ctx, rel);
  const linkage = rowLinkage(ctx, relations ?? NO_RELATIONS, true);
  const t = ctx.aliases.next();
  const qb = tableSource(ctx, target, t);
  const owners = join.targetColumns.map((c, i) => knex.raw('?? as ??', [`${t}.${c}`, `${OWNER_COLUMN}${i}`]));
  const columns = relations ? [selectColumns(ctx, target, t), ...linkage.columns(t)] : keyRefs(target, t);
  qb.select(...owners, ...columns);
  const refs = join.targetColumns.map((c) => `${t}.${c}`);
  if (ownerValues.length === 0) qb.whereRaw('1 = 0');
  else {
    const tuple = `(${refs.map(() => '?').join(', ')})`;
    const parts = ownerValues.flatMap((v) => joinParts(target, join.targetColumns, v));
    qb.whereRaw(`(${refs.map(() => '??').join(', ')}) in (${ownerValues.map(() => tuple).join(', ')})`, [
      ...refs,
      ...parts,
    ]);
  }
  for (const ref of keyRefs(target, t)) qb.orderBy(ref, 'asc');
  const full = relations ? resourceRowDecoder(dialect, target, linkage) : undefined;
  const ownerOf = (raw: Row) =>
    formatCompositeId(
      join.targetColumns.map((c, i) => dialect.decodeValue(target.columns.get(c)!, raw[`${OWNER_COLUMN}${i}`])),
    );
  const decode = (raw: Row): RelatedRow => {
    if (!full) return { owner: ownerOf(raw), id: String(keyOfRow(ctx, target, raw)) };
    const row = full(raw);
    return { owner: ownerOf(raw), id: String(row.values[target.key]), row };
  };
  return { ...statementOf(qb, ({ rows }) => rows.map(decode)), carried: relations ? linkage.carried : new Set() };
}

/** The values of `columns` of `model` an owner's composite join value holds, an integer column's as a number. */
function joinParts(model: ModelSchema, columns: readonly string[], value: unknown): Knex.Value[] {
  const texts = splitCompositeId(String(value)) ?? [];
  return columns.map((c, i) => {
    const text = texts[i] ?? null;
    const n = Number(text);
    return model.columns.get(c)?.type === 'integer' && text !== null && Number.isSafeInteger(n) ? n : text;
  });
}
