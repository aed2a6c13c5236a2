import type { RelationshipSchema, SingleJoinPath } from '@colapi/schema';

/**
 * The join of a relationship written through one column on each side. A composite foreign key's to-one is
 * written as an update of the owner's columns, and its to-many is refused before any statement, so reaching
 * here with one is a bug.
 */
export function singleJoin(rel: RelationshipSchema): SingleJoinPath {
  if (rel.join.kind === 'composite')
    throw new Error(`relationship ${rel.name} joins on several columns: it is read only`);
  return rel.join;
}
