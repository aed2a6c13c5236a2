import type { CollectionSchema } from '@colapi/schema';
import { hash } from 'node:crypto';

/**
 * The entity-tag of a row's own version: a digest of the values of every column the collection shows, in the
 * model's column order, as the server reads them (the same wire form on every dialect). Only what the
 * collection shows: under access control `collection` is the caller's view, and a tag that moved with a
 * field the caller may not read would tell it when that field changes. It is what `If-Match`
 * is compared with on a write, whatever representation the client read it from: a GET with `include` or
 * sparse fieldsets carries the same row tag (`Resource-ETag`) as one without. See docs/decisions.md for why a
 * hash rather than PostgreSQL's xmin or a version column.
 */
export function rowTag(collection: CollectionSchema, values: Readonly<Record<string, unknown>>): string {
  const parts: unknown[] = [collection.model.name];
  let big = false;
  for (const name of collection.columns.keys()) {
    const value = values[name] ?? null;
    if (typeof value === 'bigint') big = true;
    parts.push(value);
  }
  // The replacer only where it is needed: a function called per value costs more than the digest.
  return `"${hash('sha1', big ? JSON.stringify(parts, bigints) : JSON.stringify(parts), 'base64url')}"`;
}

/** A driver may answer a big integer as a BigInt, which JSON.stringify refuses. */
const bigints = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);
