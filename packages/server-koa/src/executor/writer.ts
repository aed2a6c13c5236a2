import type { CollectionSchema, ModelSchema, Registry, RelationshipSchema } from '@colapi/schema';
import { ApiError, parseKey, type RelatedRef, type RelationshipWrite, type ResourceWrite } from '@colapi/query-ast';
import { insertedKey, type Row, type SqlCompiler } from '@colapi/sql-compiler';
import type { Knex } from 'knex';
import { keyValue } from './keys.js';

type Key = unknown;

/**
 * Applies writes inside a transaction the caller owns: rows, foreign keys, join rows. Related resources
 * are checked to exist first, set-wise, so a bad linkage is a 404 and the caller's rollback undoes all.
 */
export class Writer {
  constructor(
    readonly compiler: SqlCompiler,
    readonly registry: Registry,
  ) {}

  private model(rel: RelationshipSchema): ModelSchema {
    return this.registry.models.get(rel.target)!;
  }

  async row(trx: Knex, collection: CollectionSchema, key: Key): Promise<Row | undefined> {
    return this.compiler.byKeys(collection.model, [key], undefined, trx).first();
  }

  /** Inserts a resource and applies its relationships; answers its key. */
  async create(trx: Knex, collection: CollectionSchema, write: ResourceWrite, id?: string): Promise<Key> {
    const model = collection.model;
    const values: Record<string, unknown> = { ...write.values };
    if (id !== undefined) {
      const key = this.clientKey(model, id);
      if (await this.row(trx, collection, key)) throw ApiError.uniqueViolation(`${collection.name} ${id} exists already`, { pointer: '/data/id' });
      values[model.key] = key;
    }
    const later: [string, RelationshipWrite][] = [];
    for (const [name, change] of Object.entries(write.relationships)) {
      const rel = model.relationships.get(name)!;
      // A foreign key on this row is part of the insert itself.
      if (rel.join.kind === 'belongs-to' && change.mode === 'set') values[rel.join.ownColumn] = await this.targetValue(trx, rel, change.target);
      else later.push([name, change]);
    }
    const result = await this.compiler.insert(model, values, trx);
    const { dialect } = this.compiler;
    if (id !== undefined && model.columns.get(model.key)?.generated) await dialect.advanceKey?.(trx, model.table, model.key);
    const key = id !== undefined ? values[model.key] : insertedKey(model, result);
    for (const [name, change] of later) await this.relate(trx, collection, key, name, change);
    return key;
  }

  /** The key a client-generated id stands for; the formats refuse a malformed one first, with its place in the body. */
  private clientKey(model: ModelSchema, id: string): Key {
    const parsed = parseKey(model, id);
    if (!parsed.ok) throw ApiError.badRequest(`"${id}" is not a valid id for ${model.name}: ${parsed.reason}`);
    return parsed.key;
  }

  async update(trx: Knex, collection: CollectionSchema, key: Key, write: ResourceWrite): Promise<void> {
    const model = collection.model;
    const values: Record<string, unknown> = { ...write.values };
    const later: [string, RelationshipWrite][] = [];
    for (const [name, change] of Object.entries(write.relationships)) {
      const rel = model.relationships.get(name)!;
      if (rel.join.kind === 'belongs-to' && change.mode === 'set') values[rel.join.ownColumn] = await this.targetValue(trx, rel, change.target);
      else later.push([name, change]);
    }
    if (Object.keys(values).length) await this.compiler.update(model, [key], values, trx);
    for (const [name, change] of later) await this.relate(trx, collection, key, name, change);
  }

  /**
   * Deletes a resource. Join rows of its many-to-many relationships go with it; resources that still
   * refer to it keep it alive: 409, nothing deleted.
   */
  async remove(trx: Knex, collection: CollectionSchema, key: Key, id: string): Promise<void> {
    const model = collection.model;
    const row = await this.row(trx, collection, key);
    if (!row) throw ApiError.notFound(`${collection.name} ${id} does not exist`);
    for (const rel of model.relationships.values()) {
      if (rel.join.kind !== 'has') continue;
      const own = row[rel.join.ownColumn];
      // Nothing can refer to a null join value (and knex would read `where col = null` as `is null`).
      if (own === null || own === undefined) continue;
      const target = this.model(rel);
      const found = await trx(target.table).where(rel.join.targetColumn, own as Knex.Value).first(target.key);
      if (found) {
        throw ApiError.stillReferenced(`${collection.name} ${id} cannot be deleted: its ${rel.name} still refer to it; delete or unlink them first`);
      }
    }
    for (const rel of model.relationships.values()) {
      if (rel.join.kind === 'through') await trx(rel.join.through.table).where(rel.join.through.ownColumn, row[rel.join.ownColumn] as Knex.Value).del();
    }
    try {
      await this.compiler.delete(model, [key], trx);
    } catch (error) {
      const kind = this.compiler.dialect.classifyError(error);
      if (kind === 'foreign-key-referenced' || kind === 'foreign-key-missing') {
        throw ApiError.stillReferenced(`${collection.name} ${id} cannot be deleted: other resources still refer to it`);
      }
      throw error;
    }
  }

  /** Resolves related references to keys: new ones are created, existing ones checked (404) and updated. */
  private async resolve(trx: Knex, rel: RelationshipSchema, refs: readonly RelatedRef[]): Promise<Key[]> {
    const target = this.registry.target(rel);
    const existing = refs.filter((r): r is Extract<RelatedRef, { kind: 'existing' }> => r.kind === 'existing');
    const keys = existing.map((r) => keyValue(target.model, r.id, target.name));
    if (keys.length) {
      const found = new Set(
        (await trx(target.model.table).whereIn(target.model.key, keys as Knex.Value[]).select(target.model.key)).map((r: Row) => String(r[target.model.key])),
      );
      const missing = existing.find((r, i) => !found.has(String(keys[i])));
      if (missing) throw ApiError.notFound(`${rel.name}: ${target.name} ${missing.id} does not exist`);
    }
    const out: Key[] = [];
    let i = 0;
    for (const ref of refs) {
      if (ref.kind === 'new') out.push(await this.create(trx, target, ref.write));
      else {
        const key = keys[i++];
        if (ref.write) await this.update(trx, target, key, ref.write);
        out.push(key);
      }
    }
    return out;
  }

  /** The value of the join column on the target side for a to-one reference (usually its key). */
  private async targetValue(trx: Knex, rel: RelationshipSchema, ref: RelatedRef | null): Promise<unknown> {
    if (ref === null) return null;
    const [key] = await this.resolve(trx, rel, [ref]);
    return (await this.targetValues(trx, rel, [key]))[0];
  }

  private async targetValues(trx: Knex, rel: RelationshipSchema, keys: readonly Key[]): Promise<unknown[]> {
    const target = this.model(rel);
    const column = rel.join.targetColumn;
    if (column === target.key || keys.length === 0) return [...keys];
    const rows: Row[] = await trx(target.table).whereIn(target.key, keys as Knex.Value[]).select(target.key, column);
    const byKey = new Map(rows.map((r) => [String(r[target.key]), r[column]]));
    return keys.map((k) => byKey.get(String(k)));
  }

  /**
   * Takes the resource with key `id` out of relationship `rel` of the resource with `key`, only if it is in it
   * now: the target is looked up by key, then one conditional statement changes the link, and its count of
   * changed rows says whether the target was related (404 when not).
   */
  private async unlink(trx: Knex, collection: CollectionSchema, key: Key, rel: RelationshipSchema, id: string): Promise<void> {
    const target = this.model(rel);
    const targetName = this.registry.target(rel).name;
    const notRelated = () => ApiError.notFound(`${targetName} ${id} is not among the ${rel.name} of ${collection.name} ${String(key)}`);
    // Looked up by key first: a target that does not exist (or whose id no column could hold) is related to nothing.
    const found: Row | undefined = await this.compiler.byKeys(target, [keyValue(target, id, targetName)], undefined, trx).first();
    if (!found) throw notRelated();
    const join = rel.join;
    const value = found[join.targetColumn] as Knex.Value;
    let changed = 0;
    if (join.kind === 'belongs-to') {
      if (value !== null) {
        changed = await trx(collection.model.table).where(collection.model.key, key as Knex.Value).where(join.ownColumn, value).update({ [join.ownColumn]: null });
      }
    } else {
      const own = await this.ownValue(trx, collection, key, join.ownColumn);
      if (own !== null && own !== undefined) {
        changed =
          join.kind === 'has'
            ? await trx(target.table).where(target.key, found[target.key] as Knex.Value).where(join.targetColumn, own).update({ [join.targetColumn]: null })
            : value === null
              ? 0
              : await trx(join.through.table).where(join.through.ownColumn, own).where(join.through.targetColumn, value).del();
      }
    }
    if (!changed) throw notRelated();
  }

  /** The value a relationship joins on, on the resource with `key`: the key itself (no query) unless it joins on another column. */
  private async ownValue(trx: Knex, collection: CollectionSchema, key: Key, column: string): Promise<Knex.Value | undefined> {
    if (column === collection.model.key) return key as Knex.Value;
    return (await this.row(trx, collection, key))?.[column] as Knex.Value | undefined;
  }

  /** Applies one relationship change to the resource with `key`. */
  async relate(trx: Knex, collection: CollectionSchema, key: Key, name: string, change: RelationshipWrite): Promise<void> {
    const model = collection.model;
    const rel = model.relationships.get(name)!;
    const join = rel.join;
    if (change.mode === 'unlink') return this.unlink(trx, collection, key, rel, change.id);
    if (join.kind === 'belongs-to') {
      if (change.mode !== 'set') throw ApiError.badRequest(`${name} is to-one: give one resource or null`);
      await this.compiler.update(model, [key], { [join.ownColumn]: await this.targetValue(trx, rel, change.target) }, trx);
      return;
    }
    const own = await this.ownValue(trx, collection, key, join.ownColumn);
    const refs = change.mode === 'set' ? (change.target ? [change.target] : []) : change.targets;
    const mode = change.mode === 'set' ? 'replace' : change.mode;
    const doomed = change.mode === 'remove' ? change.targets.filter((r) => r.kind === 'existing' && r.delete) : [];
    const keys = await this.resolve(trx, rel, refs);
    const values = await this.targetValues(trx, rel, keys);
    const target = this.model(rel);
    if (join.kind === 'has') {
      const fk = join.targetColumn;
      if (mode === 'replace') {
        await trx(target.table).where(fk, own).whereNotIn(target.key, keys as Knex.Value[]).update({ [fk]: null });
      }
      if (mode === 'remove') await trx(target.table).where(fk, own).whereIn(target.key, keys as Knex.Value[]).update({ [fk]: null });
      else if (keys.length) await trx(target.table).whereIn(target.key, keys as Knex.Value[]).update({ [fk]: own });
    } else {
      const t = join.through;
      if (mode === 'replace') await trx(t.table).where(t.ownColumn, own).whereNotIn(t.targetColumn, values as Knex.Value[]).del();
      if (mode === 'remove') await trx(t.table).where(t.ownColumn, own).whereIn(t.targetColumn, values as Knex.Value[]).del();
      else if (values.length) {
        const present = new Set(
          (await trx(t.table).where(t.ownColumn, own).whereIn(t.targetColumn, values as Knex.Value[]).select(t.targetColumn)).map((r: Row) => String(r[t.targetColumn])),
        );
        const missing = [...new Set(values.filter((v) => !present.has(String(v))).map(String))];
        const rows = values.filter((v, i) => missing.includes(String(v)) && values.findIndex((w) => String(w) === String(v)) === i);
        // A concurrent request may add the same row after the check above: appending stays idempotent.
        if (rows.length) {
          await trx(t.table)
            .insert(rows.map((v) => ({ [t.ownColumn]: own, [t.targetColumn]: v })))
            .onConflict([t.ownColumn, t.targetColumn])
            .merge([t.ownColumn]);
        }
      }
    }
    const targetCollection = this.registry.target(rel);
    for (const ref of doomed) {
      if (ref.kind === 'existing') await this.remove(trx, targetCollection, keyValue(target, ref.id, targetCollection.name), ref.id);
    }
  }
}
