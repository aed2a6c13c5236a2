import type { CollectionSchema, ModelSchema, Registry, RelationshipSchema } from '@colapi/schema';
import {
  ApiError,
  keyParts,
  parseKey,
  rowId,
  type Filter,
  type RelatedRef,
  type RelationshipWrite,
  type ResourceWrite,
  type ScalarValue,
} from '@colapi/query-ast';
import {
  errorKind,
  runStatement,
  singleJoin,
  type ResourceRow,
  type SqlCompiler,
  type Statement,
} from '@colapi/sql-compiler';
import type { Knex } from 'knex';
import { keyIn } from './key-filter.js';
import { keyValue } from './keys.js';

type Key = unknown;

/**
 * Applies writes inside a transaction the caller owns: rows, foreign keys, join rows. Related resources
 * are checked to exist first, set-wise, so a bad linkage is a 404 and the caller's rollback undoes all.
 * Every statement is the compiler's; this decides which to run, in what order, and what their answers mean.
 */
export class Writer {
  constructor(
    readonly compiler: SqlCompiler,
    readonly registry: Registry,
  ) {}

  private run<T>(trx: Knex, statement: Statement<T>): Promise<T> {
    return runStatement(trx, this.compiler.dialect, statement);
  }

  private model(rel: RelationshipSchema): ModelSchema {
    return this.registry.models.get(rel.target)!;
  }

  private row(trx: Knex, model: ModelSchema, key: Key): Promise<ResourceRow | undefined> {
    return this.run(trx, this.compiler.row(model, key as string | number));
  }

  /** Inserts a resource and applies its relationships; answers its key. */
  async create(trx: Knex, collection: CollectionSchema, write: ResourceWrite, id?: string): Promise<Key> {
    const model = collection.model;
    const values: Record<string, unknown> = { ...write.values };
    const composite = model.keyColumns.length > 1;
    let clientKey: Key;
    if (id !== undefined) {
      clientKey = this.clientKey(model, id);
      if (await this.row(trx, model, clientKey))
        throw ApiError.uniqueViolation(`${collection.name} ${id} exists already`, { pointer: '/data/id' });
      if (!composite) values[model.key] = clientKey;
    }
    const later: [string, RelationshipWrite][] = [];
    for (const [name, change] of Object.entries(write.relationships)) {
      const rel = model.relationships.get(name)!;
      // A foreign key on this row is part of the insert itself.
      if (rel.join.kind === 'belongs-to' && change.mode === 'set')
        values[rel.join.ownColumn] = await this.targetValue(trx, rel, change.target);
      else if (ownsCompositeKey(rel) && change.mode === 'set')
        Object.assign(values, await this.compositeTargetValues(trx, rel, change.target, write.values));
      else later.push([name, change]);
    }
    if (composite) this.compositeKeyValues(collection, values, clientKey);
    const inserted = await this.run(trx, this.compiler.insert(model, values));
    const advance = id === undefined ? undefined : this.compiler.advanceKey(model);
    if (advance) await this.run(trx, advance);
    const key = composite ? rowId(model, values) : id !== undefined ? values[model.key] : inserted;
    for (const [name, change] of later) await this.relate(trx, collection, key, name, change);
    return key;
  }

  /**
   * A composite key's columns in the values of a create: from the id when the client gave one (its parts
   * must agree with any of them also given as a field or relationship), else from those fields, all of
   * which must then be there: the database numbers no part of such a key.
   */
  private compositeKeyValues(collection: CollectionSchema, values: Record<string, unknown>, key: Key): void {
    const model = collection.model;
    if (key !== undefined) {
      const parts = keyParts(model, key);
      model.keyColumns.forEach((c, i) => {
        const given = values[c];
        if (given !== undefined && String(given) !== String(parts[i]))
          throw ApiError.badRequest(
            `the id's ${c} part is ${String(parts[i])}, but ${c} is given as ${String(given)}`,
            { pointer: '/data/id' },
          );
        values[c] = parts[i];
      });
      return;
    }
    const missing = model.keyColumns.filter((c) => values[c] === undefined || values[c] === null);
    if (missing.length > 0)
      throw ApiError.badRequest(
        `a new ${collection.name} needs its key: give its id, or ${missing.join(' and ')} (its key is ${model.keyColumns.join(', ')})`,
      );
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
      if (rel.join.kind === 'belongs-to' && change.mode === 'set')
        values[rel.join.ownColumn] = await this.targetValue(trx, rel, change.target);
      else if (ownsCompositeKey(rel) && change.mode === 'set')
        Object.assign(values, await this.compositeTargetValues(trx, rel, change.target, write.values));
      else later.push([name, change]);
    }
    this.keyUnchanged(collection, key, values);
    if (Object.keys(values).length) await this.run(trx, this.compiler.update(model, [key], values));
    for (const [name, change] of later) await this.relate(trx, collection, key, name, change);
  }

  /**
   * 400 when an update would change a column of a composite key (its id would name another row); writing
   * the value a part already has changes nothing and passes.
   */
  private keyUnchanged(collection: CollectionSchema, key: Key, values: Readonly<Record<string, unknown>>): void {
    const model = collection.model;
    if (model.keyColumns.length === 1) return;
    const parts = keyParts(model, key);
    model.keyColumns.forEach((c, i) => {
      if (values[c] !== undefined && String(values[c]) !== String(parts[i]))
        throw ApiError.badRequest(`${c} is part of the id of ${collection.name}, which does not change`);
    });
  }

  /**
   * Deletes a resource. Join rows of its many-to-many relationships go with it; resources that still
   * refer to it keep it alive: 409, nothing deleted.
   */
  async remove(trx: Knex, collection: CollectionSchema, key: Key, id: string): Promise<void> {
    const model = collection.model;
    const row = await this.row(trx, model, key);
    if (!row) throw ApiError.notFound(`${collection.name} ${id} does not exist`);
    for (const rel of model.relationships.values()) {
      if (rel.join.kind !== 'has') continue;
      const own = row.values[rel.join.ownColumn];
      // Nothing can refer to a null join value (and `where col = null` would read as `is null`).
      if (own === null || own === undefined) continue;
      if (await this.run(trx, this.compiler.referencing(rel, own))) {
        throw ApiError.stillReferenced(
          `${collection.name} ${id} cannot be deleted: its ${rel.name} still refer to it; delete or unlink them first`,
        );
      }
    }
    for (const rel of model.relationships.values()) {
      if (rel.join.kind === 'through')
        await this.run(trx, this.compiler.deleteJoinRows(rel, row.values[rel.join.ownColumn], 'all'));
    }
    try {
      await this.run(trx, this.compiler.delete(model, [key]));
    } catch (error) {
      // A foreign key no relationship declares: the database keeps the row.
      const kind = errorKind(this.compiler.dialect, error);
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
      const found = await this.run(trx, this.compiler.existingKeys(target.model, keys));
      const missing = existing.find((_r, i) => !found.has(String(keys[i])));
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

  /**
   * The owner's columns of a to-one relationship made by a foreign key of several columns, for a reference:
   * the parts of the target's key (the columns it refers to, in key order), or all null for none. A write
   * that also gives one of those columns (`given`) says it twice: 400.
   */
  private async compositeTargetValues(
    trx: Knex,
    rel: RelationshipSchema,
    ref: RelatedRef | null,
    given: Readonly<Record<string, unknown>>,
  ): Promise<Record<string, unknown>> {
    const join = rel.join;
    if (join.kind !== 'composite') throw new Error(`relationship ${rel.name} is not composite`);
    const twice = join.ownColumns.find((c) => c in given);
    if (twice !== undefined) throw ApiError.badRequest(`give "${twice}" or "${rel.name}", not both`);
    const parts = ref === null ? undefined : keyParts(this.model(rel), (await this.resolve(trx, rel, [ref]))[0]);
    return Object.fromEntries(join.ownColumns.map((c, i) => [c, parts ? parts[i] : null]));
  }

  /** The value of the join column on the target side for a to-one reference (usually its key). */
  private async targetValue(trx: Knex, rel: RelationshipSchema, ref: RelatedRef | null): Promise<unknown> {
    if (ref === null) return null;
    const [key] = await this.resolve(trx, rel, [ref]);
    return (await this.targetValues(trx, rel, [key]))[0];
  }

  private async targetValues(trx: Knex, rel: RelationshipSchema, keys: readonly Key[]): Promise<unknown[]> {
    if (singleJoin(rel).targetColumn === this.model(rel).key || keys.length === 0) return [...keys];
    const byKey = await this.run(trx, this.compiler.joinValues(rel, keys));
    return keys.map((k) => byKey.get(String(k)));
  }

  /**
   * Takes the resource with key `id` out of relationship `rel` of the resource with `key`, only if it is in it
   * now: the target is looked up by key, then one conditional statement changes the link, and its count of
   * changed rows says whether the target was related (404 when not).
   */
  private async unlink(
    trx: Knex,
    collection: CollectionSchema,
    key: Key,
    rel: RelationshipSchema,
    id: string,
  ): Promise<void> {
    const target = this.model(rel);
    const targetName = this.registry.target(rel).name;
    const notRelated = () =>
      ApiError.notFound(`${targetName} ${id} is not among the ${rel.name} of ${collection.name} ${String(key)}`);
    // Looked up by key first: a target that does not exist (or whose id no column could hold) is related to nothing.
    const found = await this.row(trx, target, keyValue(target, id, targetName));
    if (!found) throw notRelated();
    const join = singleJoin(rel);
    const value = found.values[join.targetColumn];
    // Nothing is related through a null join value.
    const own = join.kind === 'belongs-to' ? key : await this.ownValue(trx, collection, key, join.ownColumn);
    if (own === null || own === undefined || (join.kind !== 'has' && (value === null || value === undefined)))
      throw notRelated();
    const changed = await this.run(
      trx,
      this.compiler.unlink({ model: collection.model, key, own }, rel, { key: found.values[target.key], value }),
    );
    if (!changed) {
      // Under row scopes a `has` unlink changes the target's row only within its update scope, so 0 may
      // also mean a related row the caller reads but may not update: that is 403, not "not related".
      if (join.kind === 'has' && this.compiler.scopes) {
        const related = and(keyIn(target, 'in', [found.values[target.key]]), eq(join.targetColumn, own));
        if ((await this.run(trx, this.compiler.keys(target, related, 'read'))).length > 0) throw this.mayNotUpdate(rel);
      }
      throw notRelated();
    }
  }

  private mayNotUpdate(rel: RelationshipSchema): ApiError {
    const target = this.registry.target(rel).name;
    return new ApiError(403, 'Forbidden', `changing ${rel.name} updates ${target} the caller may not update`);
  }

  /**
   * Under row scopes, 403 when a `has` change (which writes the targets' foreign key) would change rows of
   * the target that the caller reads but may not update. The compiler's setForeignKeys/clearForeignKeys
   * change only rows within the target's update scope, so without this check such a write answered
   * success having changed nothing; a readable row outside the update scope is 403 on every other path
   * (Executor.permitted). Rows the caller cannot read are not counted: they stay as they are, unmentioned
   * (a replace replaces what the caller sees).
   */
  private async mayUpdateAll(trx: Knex, rel: RelationshipSchema, rows: Filter): Promise<void> {
    if (!this.compiler.scopes) return;
    const target = this.model(rel);
    const readable = await this.run(trx, this.compiler.keys(target, rows, 'read'));
    if (readable.length === 0) return;
    const updatable = await this.run(trx, this.compiler.keys(target, rows, 'update'));
    if (updatable.length < readable.length) throw this.mayNotUpdate(rel);
  }

  /**
   * A change of the to-many side of a foreign key of several columns (`order_line.shipment_items`): the
   * targets' columns are set to the owner's values (add, replace) or cleared (remove, replace, unlink), by
   * UPDATEs of the target by key; the rows to clear are read first (`keys`, within the update scope), as a
   * `has` change does with one column. Under row scopes a readable target outside the update scope is 403.
   */
  private async relateCompositeMany(
    trx: Knex,
    collection: CollectionSchema,
    key: Key,
    rel: RelationshipSchema,
    change: RelationshipWrite,
  ): Promise<void> {
    const join = rel.join;
    if (join.kind !== 'composite') throw new Error(`relationship ${rel.name} is not composite`);
    const target = this.model(rel);
    const targetCollection = this.registry.target(rel);
    const row = await this.row(trx, collection.model, key);
    const own = join.ownColumns.map((c) => row?.values[c]);
    const linked: Filter = and(...join.targetColumns.map((c, i) => eq(c, own[i])));
    const pointHere = Object.fromEntries(join.targetColumns.map((c, i) => [c, own[i]]));
    const clear = Object.fromEntries(join.targetColumns.map((c) => [c, null]));
    const nullable = join.targetColumns.every((c) => target.columns.get(c)?.nullable);
    // Nothing is related through a null join value, and a foreign key that cannot be null cannot be cleared.
    if (own.some((v) => v === null || v === undefined))
      throw ApiError.badRequest(`${rel.name}: this ${collection.name} relates to nothing`);
    const clearRows = async (rows: Filter) => {
      await this.mayUpdateAll(trx, rel, rows);
      const found = await this.run(trx, this.compiler.keys(target, rows, 'update'));
      if (found.length === 0) return;
      if (!nullable)
        throw ApiError.badRequest(
          `${rel.name}: ${join.targetColumns.join(', ')} of ${targetCollection.name} cannot be null`,
        );
      await this.run(trx, this.compiler.update(target, found, clear));
    };
    if (change.mode === 'unlink') {
      const id = keyValue(target, change.id, targetCollection.name);
      const related = and(keyIn(target, 'in', [id]), linked);
      if ((await this.run(trx, this.compiler.keys(target, related, 'read'))).length === 0)
        throw ApiError.notFound(
          `${targetCollection.name} ${change.id} is not among the ${rel.name} of ${collection.name} ${String(key)}`,
        );
      return clearRows(related);
    }
    const refs = change.mode === 'set' ? (change.target ? [change.target] : []) : change.targets;
    const mode = change.mode === 'set' ? 'replace' : change.mode;
    const doomed = change.mode === 'remove' ? change.targets.filter((r) => r.kind === 'existing' && r.delete) : [];
    const keys = await this.resolve(trx, rel, refs);
    if (mode === 'replace') await clearRows(keys.length ? and(linked, keyIn(target, 'not_in', keys)) : linked);
    if (mode === 'remove') {
      if (keys.length) await clearRows(and(linked, keyIn(target, 'in', keys)));
    } else if (keys.length) {
      await this.mayUpdateAll(trx, rel, keyIn(target, 'in', keys));
      await this.run(trx, this.compiler.update(target, keys, pointHere));
    }
    for (const ref of doomed) {
      if (ref.kind === 'existing')
        await this.remove(trx, targetCollection, keyValue(target, ref.id, targetCollection.name), ref.id);
    }
  }

  /** The value a relationship joins on, on the resource with `key`: the key itself (no query) unless it joins on another column. */
  private async ownValue(trx: Knex, collection: CollectionSchema, key: Key, column: string): Promise<unknown> {
    if (column === collection.model.key) return key;
    return (await this.row(trx, collection.model, key))?.values[column];
  }

  /** Applies one relationship change to the resource with `key`. */
  async relate(
    trx: Knex,
    collection: CollectionSchema,
    key: Key,
    name: string,
    change: RelationshipWrite,
  ): Promise<void> {
    const model = collection.model;
    const rel = model.relationships.get(name)!;
    if (ownsCompositeKey(rel)) {
      if (change.mode !== 'set') throw ApiError.badRequest(`${name} is to-one: give one resource or null`);
      const values = await this.compositeTargetValues(trx, rel, change.target, {});
      this.keyUnchanged(collection, key, values);
      await this.run(trx, this.compiler.update(model, [key], values));
      return;
    }
    if (rel.join.kind === 'composite') return this.relateCompositeMany(trx, collection, key, rel, change);
    const join = rel.join;
    if (change.mode === 'unlink') return this.unlink(trx, collection, key, rel, change.id);
    if (join.kind === 'belongs-to') {
      if (change.mode !== 'set') throw ApiError.badRequest(`${name} is to-one: give one resource or null`);
      const values = { [join.ownColumn]: await this.targetValue(trx, rel, change.target) };
      this.keyUnchanged(collection, key, values);
      await this.run(trx, this.compiler.update(model, [key], values));
      return;
    }
    const own = await this.ownValue(trx, collection, key, join.ownColumn);
    const refs = change.mode === 'set' ? (change.target ? [change.target] : []) : change.targets;
    const mode = change.mode === 'set' ? 'replace' : change.mode;
    const doomed = change.mode === 'remove' ? change.targets.filter((r) => r.kind === 'existing' && r.delete) : [];
    const keys = await this.resolve(trx, rel, refs);
    const values = await this.targetValues(trx, rel, keys);
    if (join.kind === 'has') {
      if (this.compiler.scopes) {
        // The rows the statements below change: those they unlink, and those they point here.
        const fk = join.targetColumn;
        const target = this.model(rel);
        const linked = eq(fk, own);
        if (mode === 'replace')
          await this.mayUpdateAll(trx, rel, keys.length ? and(linked, keyIn(target, 'not_in', keys)) : linked);
        if (mode === 'remove' && keys.length) await this.mayUpdateAll(trx, rel, and(linked, keyIn(target, 'in', keys)));
        if (mode !== 'remove' && keys.length) {
          const elsewhere: Filter = { kind: 'or', filters: [cmp(fk, 'ne', own), isNull(fk)] };
          await this.mayUpdateAll(trx, rel, and(keyIn(target, 'in', keys), elsewhere));
        }
      }
      if (mode === 'replace') await this.run(trx, this.compiler.clearForeignKeys(rel, own, { except: keys }));
      if (mode === 'remove') await this.run(trx, this.compiler.clearForeignKeys(rel, own, { only: keys }));
      else if (keys.length) await this.run(trx, this.compiler.setForeignKeys(rel, own, keys));
    } else {
      if (mode === 'replace') await this.run(trx, this.compiler.deleteJoinRows(rel, own, { except: values }));
      if (mode === 'remove') await this.run(trx, this.compiler.deleteJoinRows(rel, own, { only: values }));
      else if (values.length) {
        const present = await this.run(trx, this.compiler.joinedValues(rel, own, values));
        // Each missing value once, in the order given.
        const missing: unknown[] = [];
        for (const v of values) {
          if (!present.has(String(v))) missing.push(v);
          present.add(String(v));
        }
        if (missing.length) await this.run(trx, this.compiler.insertJoinRows(rel, own, missing));
      }
    }
    const targetCollection = this.registry.target(rel);
    for (const ref of doomed) {
      if (ref.kind === 'existing')
        await this.remove(trx, targetCollection, keyValue(this.model(rel), ref.id, targetCollection.name), ref.id);
    }
  }
}

/** Filters on a column of the model itself, for the checks of writes under row scopes. */
const cmp = (column: string, op: 'eq' | 'ne' | 'in' | 'not_in', value: unknown): Filter => ({
  kind: 'compare',
  field: { relations: [], column },
  op,
  value: value as ScalarValue | readonly ScalarValue[],
});
const eq = (column: string, value: unknown): Filter => cmp(column, 'eq', value);
const isNull = (column: string): Filter => ({ kind: 'null-check', field: { relations: [], column }, op: 'is_null' });
const and = (...filters: Filter[]): Filter => ({ kind: 'and', filters });

/** Whether the relationship is a to-one made by a foreign key of several columns on the owner, written as its columns. */
function ownsCompositeKey(rel: RelationshipSchema): boolean {
  return rel.join.kind === 'composite' && rel.join.on === 'owner';
}
