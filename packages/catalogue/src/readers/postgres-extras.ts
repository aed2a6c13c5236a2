import type { CatalogueForeignKey, CatalogueTable } from '../catalogue.js';
import type { PartitionFacts } from './postgres-partitions.js';

/**
 * Adds to the tables what PostgreSQL tells beyond their own constraints: a partitioned table's partitions, the
 * keys they all declare and the foreign keys they all hold (among the table's own, by the position of their
 * first column, as assembleTables orders them); a view's columns that show its base table's key.
 */
export function withPartitionsAndViewKeys(
  tables: readonly CatalogueTable[],
  partitions: ReadonlyMap<string, PartitionFacts>,
  viewKeys: ReadonlyMap<string, readonly string[]>,
): CatalogueTable[] {
  return tables.map((t) => {
    const facts = partitions.get(t.name);
    const baseKeys = t.kind === 'view' ? viewKeys.get(t.name) : undefined;
    if (facts) {
      const own = new Set(t.foreignKeys.map((fk) => JSON.stringify(fk)));
      const position = (fk: CatalogueForeignKey) => t.columns.findIndex((c) => c.name === fk.columns[0]);
      const added = facts.foreignKeys.filter((fk) => !own.has(JSON.stringify(fk)));
      return {
        ...t,
        foreignKeys: [...t.foreignKeys, ...added].sort((a, b) => position(a) - position(b)),
        partitions: facts.partitions,
        partitionKeys: facts.keys,
        unkeyedPartitions: facts.unkeyed,
      };
    }
    return baseKeys ? { ...t, baseKeys } : t;
  });
}
