import type { RelationshipSchema } from '@colapi/schema';
import type { Knex } from 'knex';
import { targetModel, type CompileContext } from './field-expression.js';
import { resourceRowDecoder, type ResourceRow } from './resource-row.js';
import type { Row } from './row-decoder.js';
import { NO_RELATIONS, rowLinkage, type Relations } from './row-linkage.js';
import { selectColumns } from './select-columns.js';
import { statementOf, type RowsStatement } from './statement.js';

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

/**
 * The targets of a relationship for many owners at once, in key order, each tagged with its owner's join
 * value: one statement per relationship whatever the number of owners. Without `relations` only the target
 * keys are read (linkage); with them the targets are read in full, carrying the linkage of the
 * relationships `relations` shows as rowLinkage decides.
 */
export function compileRelated(
  ctx: CompileContext,
  rel: RelationshipSchema,
  ownerValues: readonly unknown[],
  relations?: Relations,
): RowsStatement<RelatedRow[]> {
  const { knex, dialect } = ctx;
  const target = targetModel(ctx, rel);
  const linkage = rowLinkage(ctx, relations ?? NO_RELATIONS, true);
  const t = ctx.aliases.next();
  const join = rel.join;
  const key = target.columns.get(target.key)!;
  const columns = relations
    ? [selectColumns(ctx, target, t), ...linkage.columns(t)]
    : [knex.raw('? as ??', [dialect.readColumn(knex, `${t}.${target.key}`, key), target.key])];
  const qb = knex.from({ [t]: target.table });
  if (join.kind === 'through') {
    const j = ctx.aliases.next();
    qb.join({ [j]: join.through.table }, `${j}.${join.through.targetColumn}`, `${t}.${join.targetColumn}`)
      .select(knex.raw('?? as ??', [`${j}.${join.through.ownColumn}`, OWNER_COLUMN]), ...columns)
      .whereIn(`${j}.${join.through.ownColumn}`, ownerValues as Knex.Value[]);
  } else {
    qb.select(knex.raw('?? as ??', [`${t}.${join.targetColumn}`, OWNER_COLUMN]), ...columns).whereIn(
      `${t}.${join.targetColumn}`,
      ownerValues as Knex.Value[],
    );
  }
  qb.orderBy(`${t}.${target.key}`, 'asc');
  let decode: (raw: Row) => RelatedRow;
  if (relations) {
    const full = resourceRowDecoder(dialect, target, linkage);
    decode = (raw) => {
      const row = full(raw);
      return { owner: String(raw[OWNER_COLUMN]), id: String(row.values[target.key]), row };
    };
  } else {
    decode = (raw) => ({ owner: String(raw[OWNER_COLUMN]), id: String(dialect.decodeValue(key, raw[target.key])) });
  }
  return { ...statementOf(qb, ({ rows }) => rows.map(decode)), carried: relations ? linkage.carried : new Set() };
}
