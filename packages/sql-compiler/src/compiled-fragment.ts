import type { Knex } from 'knex';
import type { Dialect } from './dialect.js';

/** Compiled SQL fragments by dialect, then by the schema object they belong to (a model, a relationship). */
const fragments = new WeakMap<Dialect, WeakMap<object, Map<string, string>>>();

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
  let byOwner = fragments.get(dialect);
  if (!byOwner) fragments.set(dialect, (byOwner = new WeakMap()));
  let cache = byOwner.get(owner);
  if (!cache) byOwner.set(owner, (cache = new Map()));
  const cached = cache.get(key);
  if (cached !== undefined) return knex.raw(cached);
  const fragment = build();
  const compiled = fragment.toSQL();
  if (compiled.bindings.length > 0) return fragment;
  if (cache.size < limit) cache.set(key, compiled.sql);
  return knex.raw(compiled.sql);
}
