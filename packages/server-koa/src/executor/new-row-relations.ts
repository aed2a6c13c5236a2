import type { Linkage } from '@colapi/query-ast';
import type { ModelSchema, Registry, RelationshipSchema } from '@colapi/schema';
import { newRowEmptyRelations, type ForeignKey, type Relations, type SqlCompiler } from '@colapi/sql-compiler';
import type { Knex } from 'knex';
import type { Read } from './resource-graph.js';

const NONE: ReadonlySet<string> = new Set();

/**
 * Which relationships a row just inserted is known to have no linkage in (newRowEmptyRelations), from the
 * foreign keys the database enforces. They are read once, when the API starts, so that no request pays for
 * it (nor shows it in its statements); a read that fails is tried again at the next create, and until one
 * succeeds every linkage is read. A foreign key dropped while the server runs is still trusted until it
 * restarts: only a row written since, pointing at a key that did not exist yet, would go unseen.
 */
export class NewRowRelations {
  private keys: Promise<readonly ForeignKey[] | undefined> | undefined;
  /** Settles when the read made at start is over, whatever it found: what a server awaits before it listens. */
  readonly ready: Promise<void>;
  private readonly byModel = new Map<ModelSchema, ReadonlySet<string>>();

  constructor(
    private readonly compiler: SqlCompiler,
    private readonly registry: Registry,
    private readonly knex: Knex,
  ) {
    if (compiler.dialect.enforcedForeignKeys) this.keys = this.read();
    this.ready = this.keys ? this.keys.then(() => {}) : Promise.resolve();
  }

  private read(): Promise<readonly ForeignKey[] | undefined> {
    return this.compiler.dialect.enforcedForeignKeys!(this.knex).catch(() => undefined);
  }

  /** What `of` answers once it has answered it for `model` (after the first create): no promise to wait for. */
  known(model: ModelSchema): ReadonlySet<string> | undefined {
    return this.byModel.get(model) ?? (this.keys ? undefined : NONE);
  }

  /** The relationships of `model` a new row of it has no linkage in; none where the database proves nothing. */
  async of(model: ModelSchema): Promise<ReadonlySet<string>> {
    const known = this.known(model);
    if (known) return known;
    const keys = await this.keys;
    if (!keys) {
      this.keys = this.read();
      return NONE;
    }
    const empty = newRowEmptyRelations(this.registry, model, keys);
    this.byModel.set(model, empty);
    return empty;
  }
}

/**
 * A new row's read split: the relationships its statement must still read, and those shown (not included,
 * whose rows are loaded anyway) that it provably has no linkage in.
 */
export function newRowRead(relations: Relations, proven: ReadonlySet<string>): NewRowRead {
  // The same relations (ResourceGraph keeps the common ones) and proof give the same split: kept with them.
  const kept = splits.get(relations);
  if (kept?.proven === proven) return kept.split;
  const split = splitNewRowRead(relations, proven);
  splits.set(relations, { proven, split });
  return split;
}

interface NewRowRead {
  readonly fetched: Relations;
  readonly empty: readonly RelationshipSchema[];
}

const splits = new WeakMap<Relations, { readonly proven: ReadonlySet<string>; readonly split: NewRowRead }>();

function splitNewRowRead(relations: Relations, proven: ReadonlySet<string>): NewRowRead {
  if (proven.size === 0) return { fetched: relations, empty: [] };
  const empty = relations.shown.filter((r) => proven.has(r.name) && !relations.included.has(r.name));
  if (empty.length === 0) return { fetched: relations, empty };
  return { fetched: { ...relations, shown: relations.shown.filter((r) => !empty.includes(r)) }, empty };
}

/** The read with the empty linkage of `empty` added to each row, as if its statement had carried it. */
export function withEmptyLinkage(read: Read, empty: readonly RelationshipSchema[]): Read {
  const rows = read.rows.map((row) => {
    const linkage = new Map<string, Linkage>(row.linkage);
    for (const rel of empty) linkage.set(rel.name, rel.cardinality === 'many' ? [] : null);
    return { values: row.values, linkage };
  });
  return { rows, carried: carriedWith(read.carried, empty) };
}

/** `carried` and the names of `empty`, as a set kept per pair: both are kept per statement shape and model. */
function carriedWith(carried: ReadonlySet<string>, empty: readonly RelationshipSchema[]): ReadonlySet<string> {
  let byEmpty = unions.get(carried);
  if (!byEmpty) unions.set(carried, (byEmpty = new WeakMap()));
  let union = byEmpty.get(empty);
  if (!union) byEmpty.set(empty, (union = new Set([...carried, ...empty.map((r) => r.name)])));
  return union;
}

const unions = new WeakMap<ReadonlySet<string>, WeakMap<readonly RelationshipSchema[], ReadonlySet<string>>>();
