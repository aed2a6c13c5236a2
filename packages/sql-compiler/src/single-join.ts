import type { RelationshipSchema, SingleJoinPath } from '@colapi/schema';

/**
 * The join of a relationship written through one column on each side. The server writes a composite foreign
 * key's relationships as updates of its columns (Writer), never through these statements: reaching here
 * with one is a bug.
 */
export function singleJoin(rel: RelationshipSchema): SingleJoinPath {
  if (rel.join.kind === 'composite')
    throw new Error(`relationship ${rel.name} joins on several columns: the Writer writes it as columns`);
  return rel.join;
}
