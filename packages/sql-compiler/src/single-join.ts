import type { RelationshipSchema, SingleJoinPath } from '@colapi/schema';

/**
 * The join of a relationship written through one column on each side. A composite foreign key's relationship
 * is read only (its columns are written as fields): the server refuses its writes before any statement, so
 * reaching here with one is a bug.
 */
export function singleJoin(rel: RelationshipSchema): SingleJoinPath {
  if (rel.join.kind === 'composite')
    throw new Error(`relationship ${rel.name} joins on several columns: it is read only`);
  return rel.join;
}
