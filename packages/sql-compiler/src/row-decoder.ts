import type { ColumnSchema, ModelSchema } from '@colapi/schema';
import type { Dialect } from './dialect.js';

export type Row = Record<string, unknown>;

type Decode = (raw: Row) => Row;

const cache = new WeakMap<Dialect, WeakMap<ModelSchema, Decode>>();

/**
 * A function turning a driver row of a model into wire values; built once per model and dialect.
 *
 * It is generated as straight-line code, one property per column (`{"id": d(c[0], raw["id"]), …}`), so that
 * each of its reads and the object it builds keep one shape per model: a loop over the columns reads and
 * writes every property at one site, which a server serving many models and statements makes megamorphic,
 * and the rows of every read pay for it. Column names enter the code only as JSON string literals. Where
 * code cannot be generated (`--disallow-code-generation-from-strings`) or a name would be a special one in
 * an object literal (`__proto__`), the loop is used.
 */
export function rowDecoder(dialect: Dialect, model: ModelSchema): Decode {
  let perModel = cache.get(dialect);
  if (!perModel) cache.set(dialect, (perModel = new WeakMap()));
  let decode = perModel.get(model);
  if (!decode) {
    const columns: ColumnSchema[] = [...model.columns.values()];
    decode = generatedDecoder(dialect, columns) ?? loopDecoder(dialect, columns);
    perModel.set(model, decode);
  }
  return decode;
}

function loopDecoder(dialect: Dialect, columns: readonly ColumnSchema[]): Decode {
  return (raw) => {
    const out: Row = {};
    for (const c of columns) out[c.name] = dialect.decodeValue(c, raw[c.name]);
    return out;
  };
}

function generatedDecoder(dialect: Dialect, columns: readonly ColumnSchema[]): Decode | undefined {
  const values = valuesLiteral(columns);
  if (values === undefined) return undefined;
  return generated<Decode>(['d', 'c'], `return function decodeRow(raw) { return ${values}; };`, [
    (column: ColumnSchema, raw: unknown) => dialect.decodeValue(column, raw),
    columns,
  ]);
}

/**
 * The source of an object literal of a row's wire values, `{"id": d(c[0], raw["id"]), …}`, for generated code
 * that binds `d` (the dialect's decodeValue), `c` (the columns) and `raw` (the driver row); undefined when a
 * column's name is special in an object literal (`__proto__`).
 */
export function valuesLiteral(columns: readonly ColumnSchema[]): string | undefined {
  if (columns.some((c) => c.name === '__proto__')) return undefined;
  return `{ ${columns.map((c, i) => `${JSON.stringify(c.name)}: d(c[${i}], raw[${JSON.stringify(c.name)}])`).join(', ')} }`;
}

/**
 * Factories of generated code by their source, so that a source is compiled once: a statement built per
 * request (under row scopes every statement is) asks for the same decoder each time, and a `new Function`
 * per request cost a compile and kept every copy cold. Bounded, as fieldsets make the sources clients' to
 * choose; past the bound a source is compiled on each call, as before.
 */
const factories = new Map<string, (...args: unknown[]) => unknown>();
const MAX_FACTORIES = 2_000;

/** `body` as a function of `params`, called with `args`; undefined where code cannot be generated. */
export function generated<T>(params: readonly string[], body: string, args: readonly unknown[]): T | undefined {
  const source = `${params.join(',')}\n${body}`;
  try {
    let factory = factories.get(source);
    if (!factory) {
      factory = new Function(...params, body) as (...args: unknown[]) => unknown;
      if (factories.size < MAX_FACTORIES) factories.set(source, factory);
    }
    return factory(...args) as T;
  } catch {
    return undefined;
  }
}
