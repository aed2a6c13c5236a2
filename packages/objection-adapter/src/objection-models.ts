import {
  defineModel,
  type ColumnSchema,
  type ColumnType,
  type JoinPath,
  type ModelSchema,
  type RelationshipSchema,
  type VirtualAttribute,
} from '@colapi/schema';
import type { Knex } from 'knex';
import { Model } from 'objection';
import { typeFromDatabase, typeFromJsonSchema } from './column-types.js';

/** The static side of an Objection model class, as far as the adapter reads it. */
export type ObjectionModelClass = typeof Model;

export interface ObjectionAdapterOptions {
  /** Reads column types from the database for models without a `jsonSchema`. */
  knex?: Knex;
  /** Column types that neither the JSON Schema nor the database can tell, e.g. `{ task: { duration: 'interval' } }` by table. */
  types?: Record<string, Record<string, ColumnType>>;
}

interface RawMapping {
  relation: unknown;
  modelClass: unknown;
  join: {
    from: string | string[];
    to: string | string[];
    through?: { from: string | string[]; to: string | string[] };
  };
}

function single(ref: string | string[], where: string): { table: string; column: string } {
  if (Array.isArray(ref)) {
    if (ref.length !== 1) throw new Error(`${where}: composite join columns are not supported`);
    ref = ref[0]!;
  }
  const at = ref.lastIndexOf('.');
  if (at < 0) throw new Error(`${where}: join reference "${ref}" must be table.column`);
  return { table: ref.slice(0, at), column: ref.slice(at + 1) };
}

function joinPath(
  owner: ObjectionModelClass,
  name: string,
  mapping: RawMapping,
  kind: 'belongs-to' | 'has' | 'through',
): JoinPath {
  const where = `${owner.name}.${name}`;
  let from = single(mapping.join.from, where);
  let to = single(mapping.join.to, where);
  // Objection accepts from/to either way round; the side on the owner's table is "own".
  if (from.table !== owner.tableName && to.table === owner.tableName) [from, to] = [to, from];
  if (kind !== 'through') return { kind, ownColumn: from.column, targetColumn: to.column };
  const t = mapping.join.through!;
  let tFrom = single(t.from, where);
  let tTo = single(t.to, where);
  if (mapping.join.from !== undefined && single(mapping.join.from, where).table !== owner.tableName)
    [tFrom, tTo] = [tTo, tFrom];
  return {
    kind: 'through',
    ownColumn: from.column,
    targetColumn: to.column,
    through: { table: tFrom.table, ownColumn: tFrom.column, targetColumn: tTo.column },
  };
}

function relationships(modelClass: ObjectionModelClass): RelationshipSchema[] {
  const raw = (modelClass as unknown as { relationMappings?: unknown }).relationMappings;
  const mappings = (typeof raw === 'function' ? raw.call(modelClass) : (raw ?? {})) as Record<string, RawMapping>;
  return Object.entries(mappings).map(([name, m]) => {
    if (typeof m.modelClass !== 'function')
      throw new Error(`${modelClass.name}.${name}: modelClass must be a class, not a path`);
    const target = m.modelClass as ObjectionModelClass;
    const r = m.relation;
    let cardinality: 'one' | 'many';
    let kind: 'belongs-to' | 'has' | 'through';
    if (r === Model.BelongsToOneRelation) [cardinality, kind] = ['one', 'belongs-to'];
    else if (r === Model.HasOneRelation) [cardinality, kind] = ['one', 'has'];
    else if (r === Model.HasManyRelation) [cardinality, kind] = ['many', 'has'];
    else if (r === Model.ManyToManyRelation) [cardinality, kind] = ['many', 'through'];
    else if (r === Model.HasOneThroughRelation) [cardinality, kind] = ['one', 'through'];
    else throw new Error(`${modelClass.name}.${name}: unsupported relation class`);
    return { name, cardinality, target: target.name, join: joinPath(modelClass, name, m, kind) };
  });
}

async function columns(modelClass: ObjectionModelClass, options: ObjectionAdapterOptions): Promise<ColumnSchema[]> {
  const keys = keyColumns(modelClass);
  const overrides = options.types?.[modelClass.tableName] ?? {};
  const schema = modelClass.jsonSchema as
    | {
        properties?: Record<string, { type?: string | string[]; format?: string; maxLength?: number }>;
        required?: string[];
      }
    | undefined;
  let out: ColumnSchema[];
  if (schema?.properties) {
    const required = new Set(schema.required ?? []);
    out = Object.entries(schema.properties).map(([name, p]) => {
      const { type, nullable } = typeFromJsonSchema(p);
      return {
        name,
        type,
        nullable: nullable && !required.has(name),
        ...(type === 'string' && typeof p.maxLength === 'number' ? { maxLength: p.maxLength } : {}),
      };
    });
  } else if (options.knex) {
    const info = (await options.knex(modelClass.tableName).columnInfo()) as unknown as Record<
      string,
      { type: string; nullable: boolean }
    >;
    out = Object.entries(info).map(([name, c]) => ({ name, type: typeFromDatabase(c.type), nullable: c.nullable }));
    if (out.length === 0)
      throw new Error(`${modelClass.name}: table ${modelClass.tableName} has no columns or does not exist`);
  } else {
    throw new Error(
      `${modelClass.name}: give it a jsonSchema, or pass knex so its columns can be read from the database`,
    );
  }
  for (const key of [...keys].reverse())
    if (!out.some((c) => c.name === key)) out.unshift({ name: key, type: 'integer', nullable: false });
  // A part of a composite key is never numbered by the database: the client gives each.
  const generated = (c: ColumnSchema) => keys.length === 1 && c.type === 'integer';
  return out.map((c) => ({
    ...c,
    type: overrides[c.name] ?? c.type,
    ...(keys.includes(c.name) ? { nullable: false, generated: generated(c) } : {}),
  }));
}

/** The model's key columns, in key order: `idColumn`, or each column of an array `idColumn` (a composite key). */
function keyColumns(modelClass: ObjectionModelClass): readonly string[] {
  const id = modelClass.idColumn;
  return Array.isArray(id) ? id : [id];
}

function virtualAttributes(modelClass: ObjectionModelClass): VirtualAttribute[] {
  const names = (modelClass as unknown as { virtualAttributes?: string[] }).virtualAttributes ?? [];
  return names.map((name) => ({
    name,
    compute(row) {
      // The model's own getter (or method) computes it from an instance made of the row.
      const instance = modelClass.fromDatabaseJson(row as Record<string, unknown>) as unknown as Record<
        string,
        unknown
      >;
      const value = instance[name];
      return typeof value === 'function' ? (value as () => unknown).call(instance) : value;
    },
  }));
}

/** The ModelSchema of one Objection model class. */
export async function modelFromObjection(
  modelClass: ObjectionModelClass,
  options: ObjectionAdapterOptions = {},
): Promise<ModelSchema> {
  return defineModel({
    name: modelClass.name,
    table: modelClass.tableName,
    ...(keyColumns(modelClass).length === 1
      ? { key: keyColumns(modelClass)[0]! }
      : { key: 'id', keyColumns: keyColumns(modelClass) }),
    columns: await columns(modelClass, options),
    relationships: relationships(modelClass),
    virtualAttributes: virtualAttributes(modelClass),
  });
}

/** ModelSchemas of several Objection model classes, keyed by class name. */
export async function modelsFromObjection(
  classes: readonly ObjectionModelClass[],
  options: ObjectionAdapterOptions = {},
): Promise<Map<string, ModelSchema>> {
  const out = new Map<string, ModelSchema>();
  for (const c of classes) out.set(c.name, await modelFromObjection(c, options));
  return out;
}
