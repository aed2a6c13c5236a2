import type { ModelSchema, Registry } from '@colapi/schema';
import type { ForeignKey } from './dialect.js';

/**
 * The relationships of `model` that a row just inserted has no linkage in, as the database's own foreign
 * keys prove: those whose rows point at the owner's key (`has`, or a join table's column) through a
 * foreign key it enforces. The insert succeeded, so no row held that key before it; an enforced foreign
 * key lets no other row point at a key that does not exist; so nothing points at the new one. Reading the
 * linkage would only confirm it, at the cost of a subquery per relationship in every create.
 *
 * A join on any column but the key, or a foreign key the database does not enforce (or does not have),
 * proves nothing: that linkage is read.
 */
export function newRowEmptyRelations(
  registry: Registry,
  model: ModelSchema,
  keys: readonly ForeignKey[],
): ReadonlySet<string> {
  const enforced = (table: string, column: string) =>
    keys.some(
      (k) => k.table === table && k.column === column && k.refTable === model.table && k.refColumn === model.key,
    );
  const empty = new Set<string>();
  for (const rel of model.relationships.values()) {
    const join = rel.join;
    if (join.kind === 'belongs-to' || join.kind === 'composite' || join.ownColumn !== model.key) continue;
    const table = join.kind === 'through' ? join.through.table : registry.models.get(rel.target)?.table;
    const column = join.kind === 'through' ? join.through.ownColumn : join.targetColumn;
    if (table !== undefined && enforced(table, column)) empty.add(rel.name);
  }
  return empty;
}
