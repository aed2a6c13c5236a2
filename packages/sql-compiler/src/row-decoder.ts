import type { ColumnSchema, ModelSchema } from '@colapi/schema';
import type { Dialect } from './dialect.js';

export type Row = Record<string, unknown>;

const cache = new WeakMap<Dialect, WeakMap<ModelSchema, (raw: Row) => Row>>();

/** A function turning a driver row of a model into wire values; built once per model and dialect. */
export function rowDecoder(dialect: Dialect, model: ModelSchema): (raw: Row) => Row {
  let perModel = cache.get(dialect);
  if (!perModel) cache.set(dialect, (perModel = new WeakMap()));
  let decode = perModel.get(model);
  if (!decode) {
    const columns: ColumnSchema[] = [...model.columns.values()];
    decode = (raw) => {
      const out: Row = {};
      for (const c of columns) out[c.name] = dialect.decodeValue(c, raw[c.name]);
      return out;
    };
    perModel.set(model, decode);
  }
  return decode;
}
