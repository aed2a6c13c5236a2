import type { ColumnSchema, ModelSchema } from '@colapi/schema';
import { rowId, type Linkage } from '@colapi/query-ast';
import type { Dialect } from './dialect.js';
import { generated, rowDecoder, valuesLiteral, type Row } from './row-decoder.js';
import type { RowLinkage } from './row-linkage.js';

/** A row of a model as a read answers it: its values in wire form, and the linkage its statement carried. */
export interface ResourceRow {
  /** Wire values by column name; the row's own object, which the caller may extend (virtual attributes). */
  readonly values: Row;
  /** The linkage of each relationship the statement carried (its `carried`), and of no other. */
  readonly linkage: ReadonlyMap<string, Linkage>;
}

const NONE: ReadonlyMap<string, Linkage> = new Map();

/**
 * Turns a driver row of `model` into a ResourceRow; built per statement shape, from no value of it.
 *
 * Generated as straight-line code for the statement (values as rowDecoder writes them, then each carried
 * relationship's linkage), so that its reads of the driver's rows, whose shape is the statement's, stay
 * monomorphic: decoding every statement's rows through the same few closures made their reads megamorphic
 * on a server with many shapes of statement, and slowed every read. Names enter the code only as JSON string
 * literals. Where code cannot be generated, or a column is named `__proto__`, the closures are used.
 */
export function resourceRowDecoder(
  dialect: Dialect,
  model: ModelSchema,
  linkage: RowLinkage,
): (raw: Row) => ResourceRow {
  const decode = columnsDecoder(dialect, model, linkage);
  if (model.keyColumns.length === 1) return decode;
  // A composite key's id joins the row's values under the key's name, where every reader of an id looks.
  return (raw) => {
    const row = decode(raw);
    row.values[model.key] = rowId(model, row.values);
    return row;
  };
}

function columnsDecoder(dialect: Dialect, model: ModelSchema, linkage: RowLinkage): (raw: Row) => ResourceRow {
  const generated = generatedDecoder(dialect, model, linkage);
  if (generated) return generated;
  const values = rowDecoder(dialect, model);
  if (linkage.carried.size === 0) return (raw) => ({ values: values(raw), linkage: NONE });
  return (raw) => {
    const decoded = values(raw);
    return { values: decoded, linkage: linkage.decode(raw, decoded) };
  };
}

function generatedDecoder(
  dialect: Dialect,
  model: ModelSchema,
  linkage: RowLinkage,
): ((raw: Row) => ResourceRow) | undefined {
  const columns: ColumnSchema[] = [...model.columns.values()];
  const values = valuesLiteral(columns);
  if (values === undefined) return undefined;
  const q = JSON.stringify;
  const lines = [`const values = ${values};`];
  if (linkage.reads.length === 0) lines.push('return { values, linkage: NONE };');
  else {
    lines.push('const linkage = new Map(); let v, ids;');
    linkage.reads.forEach(({ rel, own, readable, column, keys }, i) => {
      if (keys === undefined || column === undefined) {
        lines.push(`v = values[${q(own!)}];`);
        const hidden = readable === undefined ? '' : ` || !raw[${q(readable)}]`;
        lines.push(`linkage.set(${q(rel.name)}, v === null || v === undefined${hidden} ? null : String(v));`);
      } else {
        lines.push(`ids = k[${i}](raw[${q(column)}]);`);
        lines.push(`linkage.set(${q(rel.name)}, ${rel.cardinality === 'many' ? 'ids' : '(ids[0] ?? null)'});`);
      }
    });
    lines.push('return { values, linkage };');
  }
  return generated<(raw: Row) => ResourceRow>(
    ['d', 'c', 'k', 'NONE'],
    `return function decodeResourceRow(raw) { ${lines.join(' ')} };`,
    [
      (column: ColumnSchema, raw: unknown) => dialect.decodeValue(column, raw),
      columns,
      linkage.reads.map((r) => r.keys),
      NONE,
    ],
  );
}
