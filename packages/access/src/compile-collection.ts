import { coerceValue, isApiError, type ScalarValue } from '@colapi/query-ast';
import type { CollectionSchema, ColumnSchema } from '@colapi/schema';
import { type ClaimRef, isPlainObject, parseClaim } from './claims.js';
import type { FilterCompiler, Template } from './filter-template.js';
import { indexPath, memberPath } from './json-path.js';
import type { Fail } from './rules-error.js';

export const ACTIONS = ['read', 'create', 'update', 'delete', 'evaluate'] as const;
export type Action = (typeof ACTIONS)[number];
export type WriteAction = 'create' | 'update' | 'delete';

/** What each action object may hold. */
const MEMBERS: Readonly<Record<Exclude<Action, 'evaluate'>, readonly string[]>> = Object.freeze({
  read: ['where', 'columns', 'exclude'],
  create: ['set', 'check', 'columns', 'exclude'],
  update: ['where', 'check', 'set', 'columns', 'exclude'],
  delete: ['where'],
});

/** A `set` field: a literal checked at start, or a claim read per request. */
export type SetSlot =
  | { readonly kind: 'literal'; readonly value: ScalarValue | null }
  | { readonly kind: 'claim'; readonly claim: ClaimRef; readonly column: ColumnSchema };

/** Which fields, as the action says: `columns` (an allow-list), `exclude`, or neither. */
type FieldChoice =
  | { readonly kind: 'all' }
  | { readonly kind: 'columns'; readonly names: readonly string[] }
  | { readonly kind: 'exclude'; readonly names: readonly string[] };

export interface ReadDraft {
  readonly where?: Template;
  readonly fields: FieldChoice;
}

export interface WriteDraft {
  readonly where?: Template;
  readonly check?: Template;
  readonly set: ReadonlyMap<string, SetSlot>;
  readonly fields: FieldChoice;
}

/** One role's rules on one collection, checked, before the role's other collections are known. */
export interface CollectionDraft {
  readonly collection: CollectionSchema;
  readonly read?: ReadDraft;
  readonly create?: WriteDraft;
  readonly update?: WriteDraft;
  readonly delete?: WriteDraft;
  readonly evaluate: boolean;
}

/** Every field name of a collection: columns, relationships, virtual attributes. */
export function fieldsOf(collection: CollectionSchema): string[] {
  return [...collection.columns.keys(), ...collection.relationships.keys(), ...collection.virtualAttributes.keys()];
}

/** Checks one `roles.<role>.<collection>` entry against `collection`. */
export function draftCollection(
  json: unknown,
  collection: CollectionSchema,
  path: string,
  filters: FilterCompiler,
  fail: Fail,
): CollectionDraft {
  if (!isPlainObject(json)) fail(path, `must be an object of actions: ${ACTIONS.join(', ')}`);
  for (const key of Object.keys(json)) {
    if (!(ACTIONS as readonly string[]).includes(key)) {
      fail(memberPath(path, key), `unknown action "${key}"; the actions are ${ACTIONS.join(', ')}`);
    }
  }
  const d = new Drafter(collection, filters, fail);
  const evaluate = json.evaluate ?? false;
  if (typeof evaluate !== 'boolean') fail(memberPath(path, 'evaluate'), 'must be true or false');
  const read = d.action(json.read, 'read', memberPath(path, 'read'));
  const draft: CollectionDraft = {
    collection,
    ...(read && { read: d.read(read, memberPath(path, 'read')) }),
    ...d.write(json, 'create', path),
    ...d.write(json, 'update', path),
    ...d.write(json, 'delete', path),
    evaluate,
  };
  if (!draft.read) {
    // What read hides does not exist for the role; without read, every row is hidden.
    for (const action of ['update', 'delete', 'evaluate'] as const) {
      if (draft[action]) {
        fail(memberPath(path, action), `${action} needs read: rows the role cannot read do not exist for it`);
      }
    }
  }
  return draft;
}

class Drafter {
  constructor(
    readonly collection: CollectionSchema,
    readonly filters: FilterCompiler,
    readonly fail: Fail,
  ) {}

  /** An action's object; `true` as an empty one; undefined for `false` or absent. */
  action(json: unknown, action: Exclude<Action, 'evaluate'>, path: string): Record<string, unknown> | undefined {
    if (json === undefined || json === false) return undefined;
    if (json === true) return {};
    if (!isPlainObject(json)) this.fail(path, `must be true, false or an object (${MEMBERS[action].join(', ')})`);
    for (const key of Object.keys(json)) {
      if (!MEMBERS[action].includes(key)) {
        this.fail(
          memberPath(path, key),
          `unknown member "${key}" of ${action}; expected ${MEMBERS[action].join(', ')}`,
        );
      }
    }
    return json;
  }

  read(json: Record<string, unknown>, path: string): ReadDraft {
    const fields = this.fields(json, path, 'read', new Map());
    return { ...this.where(json, path), fields };
  }

  write(
    rules: Record<string, unknown>,
    action: WriteAction,
    rulesPath: string,
  ): Partial<Record<WriteAction, WriteDraft>> {
    const path = memberPath(rulesPath, action);
    const json = this.action(rules[action], action, path);
    if (!json) return {};
    const set = this.set(json.set, memberPath(path, 'set'));
    const fields = this.fields(json, path, action, set);
    const check =
      json.check === undefined
        ? {}
        : { check: this.filters.compile(json.check, this.collection, memberPath(path, 'check')) };
    return { [action]: { ...this.where(json, path), ...check, set, fields } };
  }

  where(json: Record<string, unknown>, path: string): { where?: Template } {
    const where = json.where;
    if (where === undefined) return {};
    const wherePath = memberPath(path, 'where');
    if (typeof where === 'function') {
      const { collection, filters } = this;
      const fn = where as (identity: unknown) => unknown;
      const callPath = `${wherePath}(identity)`;
      return { where: { kind: 'function', fn, compile: (result) => filters.compile(result, collection, callPath) } };
    }
    return { where: this.filters.compile(where, this.collection, wherePath) };
  }

  /** `columns` or `exclude`, each naming fields of the collection. */
  fields(json: Record<string, unknown>, path: string, action: Action, set: ReadonlyMap<string, SetSlot>): FieldChoice {
    if (json.columns !== undefined && json.exclude !== undefined) {
      this.fail(memberPath(path, 'exclude'), 'give columns or exclude, not both');
    }
    const c = this.collection;
    if (json.columns !== undefined) {
      const names = this.names(json.columns, memberPath(path, 'columns'), (name, at) => {
        if (action === 'read' || action === 'delete') return;
        if (name === c.model.key) {
          this.fail(
            at,
            `"${name}" is the key; whether a client may choose it is the collection's allow_client_generated_ids`,
          );
        }
        if (c.virtualAttributes.has(name)) this.fail(at, `"${name}" is computed, not stored, and cannot be written`);
        if (set.has(name)) this.fail(at, `"${name}" is given by set; the client may not write it`);
      });
      return { kind: 'columns', names };
    }
    if (json.exclude !== undefined) {
      const names = this.names(json.exclude, memberPath(path, 'exclude'), (name, at) => {
        if (action === 'read' && name === c.model.key) this.fail(at, `"${name}" is the key, which is always shown`);
      });
      return { kind: 'exclude', names };
    }
    return { kind: 'all' };
  }

  names(json: unknown, path: string, check: (name: string, path: string) => void): readonly string[] {
    if (!Array.isArray(json)) this.fail(path, 'must be a list of field names');
    const known = new Set(fieldsOf(this.collection));
    return json.map((name, i) => {
      const at = indexPath(path, i);
      if (typeof name !== 'string') this.fail(at, 'must be a field name');
      if (!known.has(name)) this.fail(at, `"${name}" is not a field of ${this.collection.name}`);
      check(name, at);
      return name;
    });
  }

  /** `set`: columns of the collection, each a claim or a literal of the column's type. */
  set(json: unknown, path: string): ReadonlyMap<string, SetSlot> {
    const slots = new Map<string, SetSlot>();
    if (json === undefined) return slots;
    if (!isPlainObject(json)) this.fail(path, 'must be an object of field → value or { "claim": "<path>" }');
    const c = this.collection;
    for (const [name, value] of Object.entries(json)) {
      const at = memberPath(path, name);
      const column = c.columns.get(name);
      if (!column) {
        const why = c.relationships.has(name)
          ? 'is a relationship; set its foreign key column'
          : c.virtualAttributes.has(name)
            ? 'is computed, not stored'
            : `is not a field of ${c.name}`;
        this.fail(at, `"${name}" ${why}`);
      }
      if (isPlainObject(value)) {
        slots.set(name, { kind: 'claim', claim: parseClaim(value, at, this.fail), column });
      } else if (value === null) {
        if (!column.nullable) this.fail(at, `"${name}" cannot be null`);
        slots.set(name, { kind: 'literal', value: null });
      } else {
        slots.set(name, { kind: 'literal', value: this.literal(column, value, at) });
      }
    }
    return slots;
  }

  literal(column: ColumnSchema, value: unknown, path: string): ScalarValue {
    try {
      return coerceValue(column, value, { source: {}, path });
    } catch (e) {
      if (!isApiError(e)) throw e;
      return this.fail(path, e.detail.slice(e.detail.indexOf(': ') + 2));
    }
  }
}
