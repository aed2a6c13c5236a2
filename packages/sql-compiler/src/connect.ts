import knexFactory, { type Knex } from 'knex';
import type { Dialect } from './dialect.js';
import { dialectForUrl } from './dialects/index.js';

export interface Database {
  readonly knex: Knex;
  readonly dialect: Dialect;
}

/** Opens a knex pool for a database URL (postgres://, mysql://, sqlite:) with its dialect's settings. */
export function connect(url: string, overrides: Partial<Knex.Config> = {}): Database {
  const dialect = dialectForUrl(url);
  const knex = knexFactory({ ...dialect.knexConfig(url), ...overrides });
  return { knex, dialect };
}
