import type { CatalogueColumn, CatalogueTable } from '../catalogue.js';

const BINARY_16 = /^binary\(16\)$/i;

/** A `binary(16)` column as a UUID kept as its 16 bytes. */
export function asBinaryUuid(c: CatalogueColumn): CatalogueColumn {
  return { ...c, type: 'uuid', detail: { ...c.detail, uuidBytes: true } };
}

/**
 * MariaDB/MySQL keep a UUID as `binary(16)` (MySQL's `UUID_TO_BIN`) where they do not have a uuid type: a
 * table's one-column `binary(16)` primary key is taken for one, and so is a one-column `binary(16)` foreign
 * key to such a column (through any chain of them). Other `binary(16)` columns stay bytes (base64) unless the
 * configuration says `"type": "uuid"`. A key of bytes could address no resource, so no table served before is
 * served otherwise, but for the foreign keys to these keys, which now show the UUIDs they hold.
 */
export function withBinaryUuids(tables: readonly CatalogueTable[]): CatalogueTable[] {
  const uuids = new Set<string>();
  const id = (table: string, column: string) => `${table}\u0000${column}`;
  const binary16 = (t: CatalogueTable, column: string) =>
    t.columns.some((c) => c.name === column && BINARY_16.test(c.sqlType));
  for (const t of tables) {
    if (t.primaryKey.length === 1 && binary16(t, t.primaryKey[0]!)) uuids.add(id(t.name, t.primaryKey[0]!));
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const t of tables) {
      for (const fk of t.foreignKeys) {
        const [own] = fk.columns;
        if (fk.columns.length !== 1 || uuids.has(id(t.name, own!)) || !binary16(t, own!)) continue;
        if (!uuids.has(id(fk.table, fk.references[0]!))) continue;
        uuids.add(id(t.name, own!));
        grew = true;
      }
    }
  }
  if (uuids.size === 0) return [...tables];
  return tables.map((t) => ({
    ...t,
    columns: t.columns.map((c) => (uuids.has(id(t.name, c.name)) ? asBinaryUuid(c) : c)),
  }));
}
