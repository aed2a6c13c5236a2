import { sqlColumn, type ColumnSchema } from './column.js';
import type { RelationshipSchema } from './relationship.js';

/** A value computed from a row; not a column, so it can be shown but never filtered or sorted on. */
export interface VirtualAttribute {
  readonly name: string;
  compute(row: Readonly<Record<string, unknown>>): unknown;
}

/** One database table as the API sees it, independent of any ORM. */
export interface ModelSchema {
  readonly name: string;
  readonly table: string;
  /** The primary key column. */
  readonly key: string;
  readonly columns: ReadonlyMap<string, ColumnSchema>;
  readonly relationships: ReadonlyMap<string, RelationshipSchema>;
  readonly virtualAttributes: ReadonlyMap<string, VirtualAttribute>;
}

export interface ModelDefinition {
  name: string;
  table: string;
  key?: string;
  columns: ColumnSchema[];
  relationships?: RelationshipSchema[];
  virtualAttributes?: VirtualAttribute[];
}

/** Builds a frozen ModelSchema, checking that the key and every join column exist. */
export function defineModel(def: ModelDefinition): ModelSchema {
  const key = def.key ?? 'id';
  const columns = new Map(def.columns.map((c) => [c.name, Object.freeze({ ...c })]));
  if (!columns.has(key)) throw new Error(`model ${def.name}: key column "${key}" is not among its columns`);
  if (columns.get(key)!.column !== undefined)
    throw new Error(`model ${def.name}: the key column "${key}" cannot be renamed`);
  const relationships = new Map((def.relationships ?? []).map((r) => [r.name, Object.freeze({ ...r })]));
  for (const r of relationships.values()) {
    if (columns.has(r.name)) throw new Error(`model ${def.name}: relationship "${r.name}" has the name of a column`);
    if (!columns.has(r.join.ownColumn)) {
      throw new Error(`model ${def.name}: relationship "${r.name}" joins on unknown column "${r.join.ownColumn}"`);
    }
    if (columns.get(r.join.ownColumn)!.column !== undefined) {
      throw new Error(`model ${def.name}: relationship "${r.name}" joins on "${r.join.ownColumn}", a renamed column`);
    }
  }
  const virtualAttributes = new Map((def.virtualAttributes ?? []).map((v) => [v.name, v]));
  return Object.freeze({ name: def.name, table: def.table, key, columns, relationships, virtualAttributes });
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
