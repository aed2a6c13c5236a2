import type { ModelSchema } from '@colapi/schema';
import type { Linkage } from '@colapi/query-ast';
import type { Dialect } from './dialect.js';
import { rowDecoder, type Row } from './row-decoder.js';
import type { RowLinkage } from './row-linkage.js';

/** A row of a model as a read answers it: its values in wire form, and the linkage its statement carried. */
export interface ResourceRow {
  /** Wire values by column name; the row's own object, which the caller may extend (virtual attributes). */
  readonly values: Row;
  /** The linkage of each relationship the statement carried (its `carried`), and of no other. */
  readonly linkage: ReadonlyMap<string, Linkage>;
}

const NONE: ReadonlyMap<string, Linkage> = new Map();

/** Turns a driver row of `model` into a ResourceRow; built per statement shape, from no value of it. */
export function resourceRowDecoder(
  dialect: Dialect,
  model: ModelSchema,
  linkage: RowLinkage,
): (raw: Row) => ResourceRow {
  const values = rowDecoder(dialect, model);
  if (linkage.carried.size === 0) return (raw) => ({ values: values(raw), linkage: NONE });
  return (raw) => {
    const decoded = values(raw);
    return { values: decoded, linkage: linkage.decode(raw, decoded) };
  };
}
