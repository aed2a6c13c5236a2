import type { Knex } from 'knex';
import type { Dialect } from './dialect.js';
import { shapesOf, type ShapeCaches } from './shape-cache.js';

/** Compiled SQL text by dialect, then by the schema object it belongs to (a model, a relationship). */
const texts: ShapeCaches<string> = new WeakMap();

/**
 * SQL text that depends only on `key` and on the schema object `owner`: built the first time, then reused.
 * `limit` bounds how many texts `owner` keeps, for keys that clients choose; past it, `build` runs each time.
 */
export function compiledText(
  dialect: Dialect,
  owner: object,
  key: string,
  build: () => string,
  limit = Number.POSITIVE_INFINITY,
): string {
  const cache = shapesOf(texts, dialect, owner);
  let text = cache.get(key);
  if (text === undefined) {
    text = build();
    if (cache.size < limit) cache.set(key, text);
  }
  return text;
}

/**
 * A fragment whose SQL text depends only on `key` (identifiers, no values): built and compiled by knex the
 * first time, then reused as one Raw, since knex would otherwise build and compile it on every request. A
 * fragment that binds a value is never cached. `limit` bounds how many fragments `owner` keeps, for keys
 * that clients choose.
 */
export function compiledFragment(
  knex: Knex,
  dialect: Dialect,
  owner: object,
  key: string,
  build: () => Knex.Raw,
  limit = Number.POSITIVE_INFINITY,
): Knex.Raw {
  const cache = shapesOf(texts, dialect, owner);
  const cached = cache.get(key);
  if (cached !== undefined) return knex.raw(cached);
  const fragment = build();
  const compiled = fragment.toSQL();
  if (compiled.bindings.length > 0) return fragment;
  if (cache.size < limit) cache.set(key, compiled.sql);
  return knex.raw(compiled.sql);
}
