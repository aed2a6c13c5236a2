import type { Dialect } from '../dialect.js';
import { mysql } from './mysql.js';
import { postgres } from './postgres.js';
import { sqlite } from './sqlite.js';

/** Every dialect this package ships; a new database is one file and one line here. */
export const dialects: Readonly<Record<string, Dialect>> = Object.freeze({ postgres, mysql, sqlite });

/** The dialect whose URL scheme matches, e.g. `postgres://…` → postgres. */
export function dialectForUrl(url: string): Dialect {
  const scheme = /^[a-z0-9+.-]+:/i.exec(url)?.[0].toLowerCase();
  const found = Object.values(dialects).find((d) => scheme && d.schemes.includes(scheme));
  if (!found) throw new Error(`no dialect serves the database URL scheme "${scheme ?? url}"`);
  return found;
}

export { mysql, postgres, sqlite };
