import { sqlColumn, type ColumnSchema } from './column.js';
import type { JoinPath, RelationshipSchema } from './relationship.js';

/** A value computed from a row; not a column, so it can be shown but never filtered or sorted on. */
export interface VirtualAttribute {
  readonly name: string;
  compute(row: Readonly<Record<string, unknown>>): unknown;
}

/** One database table as the API sees it, independent of any ORM. */
export interface ModelSchema {
  readonly name: string;
  readonly table: string;
  /**
   * The id's member name: the primary key column, or for a composite key (`keyColumns` holds several) a name
   * of no column, under which a read's row values carry the id its parts make (compositeId in query-ast).
   */
  readonly key: string;
  /** The primary key's columns in key order: `[key]` for a one-column key. */
  readonly keyColumns: readonly string[];
  readonly columns: ReadonlyMap<string, ColumnSchema>;
  readonly relationships: ReadonlyMap<string, RelationshipSchema>;
  readonly virtualAttributes: ReadonlyMap<string, VirtualAttribute>;
}

export interface ModelDefinition {
  name: string;
  table: string;
  key?: string;
  /** A composite primary key's columns, in key order (two or more); `key` then names the id member (default `id`). */
  keyColumns?: readonly string[];
  columns: ColumnSchema[];
  relationships?: RelationshipSchema[];
  virtualAttributes?: VirtualAttribute[];
}

/** Builds a frozen ModelSchema, checking that the key and every join column exist. */
export function defineModel(def: ModelDefinition): ModelSchema {
  const key = def.key ?? 'id';
  const columns = new Map(def.columns.map((c) => [c.name, Object.freeze({ ...c })]));
  const composite = def.keyColumns !== undefined && def.keyColumns.length > 1;
  const keyColumns = Object.freeze(composite ? [...def.keyColumns!] : [key]);
  if (composite && columns.has(key))
    throw new Error(`model ${def.name}: the id member "${key}" of a composite key is the name of a column`);
  for (const k of keyColumns) {
    if (!columns.has(k)) throw new Error(`model ${def.name}: key column "${k}" is not among its columns`);
    if (columns.get(k)!.column !== undefined)
      throw new Error(`model ${def.name}: the key column "${k}" cannot be renamed`);
  }
  const relationships = new Map((def.relationships ?? []).map((r) => [r.name, Object.freeze({ ...r })]));
  for (const r of relationships.values()) {
    if (columns.has(r.name)) throw new Error(`model ${def.name}: relationship "${r.name}" has the name of a column`);
    for (const own of ownColumns(r.join)) {
      if (!columns.has(own))
        throw new Error(`model ${def.name}: relationship "${r.name}" joins on unknown column "${own}"`);
      if (columns.get(own)!.column !== undefined)
        throw new Error(`model ${def.name}: relationship "${r.name}" joins on "${own}", a renamed column`);
    }
    if (r.join.kind === 'composite' && r.join.ownColumns.length !== r.join.targetColumns.length)
      throw new Error(
        `model ${def.name}: relationship "${r.name}" pairs ${r.join.ownColumns.length} columns with ${r.join.targetColumns.length}`,
      );
  }
  const virtualAttributes = new Map((def.virtualAttributes ?? []).map((v) => [v.name, v]));
  return Object.freeze({
    name: def.name,
    table: def.table,
    key,
    keyColumns,
    columns,
    relationships,
    virtualAttributes,
  });
}

/** The owner's columns a join path reads: its one `ownColumn`, or a composite one's `ownColumns`. */
export function ownColumns(join: JoinPath): readonly string[] {
  return join.kind === 'composite' ? join.ownColumns : [join.ownColumn];
}

/** Columns that hold a belongs-to foreign key: JSON:API shows them as relationships, not attributes. */
export function foreignKeyColumns(model: ModelSchema): Set<string> {
  const out = new Set<string>();
  for (const r of model.relationships.values()) if (r.join.kind === 'belongs-to') out.add(r.join.ownColumn);
  return out;
}

/** The model's name of a column the database names (a renamed column is known there by `sqlColumn`), if it has one. */
export function fieldOfColumn(model: ModelSchema, sqlName: string): string | undefined {
  for (const c of model.columns.values()) if (sqlColumn(c) === sqlName) return c.name;
  return undefined;
}

/** Whether the model's primary key has several columns: its id is then made of their values (compositeId). */
export function hasCompositeKey(model: ModelSchema): boolean {
  return model.keyColumns.length > 1;
}
