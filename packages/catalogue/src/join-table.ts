import type { CatalogueForeignKey, CatalogueTable } from './catalogue.js';

/**
 * The two foreign keys of a join table: a table whose primary key is exactly two columns, each of them alone a
 * foreign key. Undefined for any other table. Other columns it may have are not served.
 */
export function joinTableKeys(table: CatalogueTable): readonly [CatalogueForeignKey, CatalogueForeignKey] | undefined {
  if (table.kind !== 'table' || table.primaryKey.length !== 2) return undefined;
  const keys = table.primaryKey.map((column) =>
    table.foreignKeys.find((fk) => fk.columns.length === 1 && fk.columns[0] === column),
  );
  const [a, b] = keys;
  return a && b ? [a, b] : undefined;
}
