import type { CollectionSchema, Registry, RelationshipSchema } from '@colapi/schema';
import { ApiError, type ErrorSource } from './api-error.js';
import type { FieldRef } from './filter.js';

/**
 * Resolves `author.name` (or `author__name` with that separator) to a column reached through to-one
 * relationships. Sorting and grouping take these: a to-many step would multiply rows.
 */
export function resolveFieldPath(
  text: string,
  collection: CollectionSchema,
  registry: Registry,
  separator: string,
  source: ErrorSource,
): FieldRef {
  const parts = text.split(separator);
  const relations: string[] = [];
  let current = collection;
  for (const [i, part] of parts.entries()) {
    const last = i === parts.length - 1;
    if (last) {
      if (current.columns.has(part)) return { relations, column: part };
      const why = current.virtualAttributes.has(part)
        ? 'is computed, not stored'
        : current.relationships.has(part)
          ? 'is a relationship, not a field'
          : `is not a field of ${current.name}`;
      throw ApiError.badRequest(`"${text}": "${part}" ${why}`, source);
    }
    const relationship = current.relationships.get(part);
    if (!relationship)
      throw ApiError.badRequest(`"${text}": "${part}" is not a relationship of ${current.name}`, source);
    if (relationship.cardinality !== 'one') {
      throw ApiError.badRequest(
        `"${text}": "${part}" is a to-many relationship; only to-one paths are allowed here`,
        source,
      );
    }
    relations.push(part);
    current = registry.target(relationship);
  }
  throw ApiError.badRequest(`"${text}" is empty`, source);
}

/**
 * A sort key's field path as the columns it orders by: one, or for the id of a composite key (`id`,
 * `order_line.id`) each of its columns in key order, which is how such ids are ordered.
 */
export function resolveSortPath(
  text: string,
  collection: CollectionSchema,
  registry: Registry,
  separator: string,
  source: ErrorSource,
): FieldRef[] {
  const parts = text.split(separator);
  const last = parts[parts.length - 1]!;
  let current = collection;
  const relations: string[] = [];
  for (const part of parts.slice(0, -1)) {
    const relationship = current.relationships.get(part);
    if (relationship?.cardinality !== 'one') break;
    relations.push(part);
    current = registry.target(relationship);
  }
  const model = current.model;
  if (relations.length === parts.length - 1 && last === model.key && model.keyColumns.length > 1)
    return model.keyColumns.map((column) => ({ relations, column }));
  return [resolveFieldPath(text, collection, registry, separator, source)];
}

/** Resolves a dotted include path into relationship names, checking each step. */
export function resolveIncludePath(
  text: string,
  collection: CollectionSchema,
  registry: Registry,
  source: ErrorSource,
): string[] {
  const parts = text.split('.');
  let current = collection;
  for (const part of parts) {
    const relationship = current.relationships.get(part);
    if (!relationship) {
      throw ApiError.badRequest(`include "${text}": "${part}" is not a relationship of ${current.name}`, source);
    }
    current = registry.target(relationship);
  }
  return parts;
}

/** The relationship a path segment names, or 404: a path that names nothing is not found. */
export function pathRelationship(collection: CollectionSchema, relation: string): RelationshipSchema {
  const rel = collection.relationships.get(relation);
  if (!rel) throw ApiError.notFound(`${collection.name} has no relationship "${relation}"`);
  return rel;
}
