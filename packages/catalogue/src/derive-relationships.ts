import type { JoinPath, RelationshipSchema } from '@colapi/schema';
import type { CatalogueForeignKey, CatalogueTable } from './catalogue.js';
import { joinTableKeys } from './join-table.js';
import { plural, withoutKeySuffix } from './naming.js';

/** A table that has a model: its model name and the names of its columns in the model. */
export interface ModelTable {
  readonly table: CatalogueTable;
  readonly model: string;
  readonly columns: ReadonlySet<string>;
}

/** A relationship of one table, with the words its name is made of (for the collision rule). */
interface Candidate {
  readonly owner: string;
  name: string;
  /** What tells it apart from another of the same name and kind: the to-one name, or the join table. */
  readonly qualifier: string;
  readonly kind: 'to-one' | 'inverse' | 'many-to-many';
  readonly schema: Omit<RelationshipSchema, 'name'>;
}

/** The to-one name of a foreign-key column: `author_id` → `author`; a column without a key suffix, `home` → team, gives `home_team`. */
export function toOneName(column: string, target: string): string {
  return withoutKeySuffix(column) ?? `${column}_${target}`;
}

/**
 * The relationships of every served table, derived from foreign keys:
 *
 * - a foreign key gives a to-one relationship on its table, named after its column (`author_id` → `author`),
 *   and the inverse on the table it refers to, named after the referencing table: to-many in the plural
 *   (`articles`), or to-one in the singular when the column is unique (`profile`);
 * - a join table (primary key made of two foreign keys) gives a many-to-many relationship on each end,
 *   named after the other end's table in the plural (`article.tags`, `tag.articles`); on a table joined to
 *   itself, after the other column (`followee_id` → `followees`).
 *
 * Collisions: when two relationships of the same kind on one table derive the same name, each takes a
 * qualifier — `_by_<to-one name>` for inverses (two foreign keys of `message` to `person` give
 * `messages_by_sender` and `messages_by_recipient`), `_via_<join table>` for many-to-many. A name still taken
 * (by a column, or by a relationship derived before it: to-one first, then inverses, then many-to-many) gets
 * `_2`, `_3`…, with a warning. A foreign key of several columns to the whole primary key of a served table gives a `composite` to-one
 * relationship named after that table, and its inverse (compositeCandidates); one to other columns gives
 * none (a warning says so).
 */
export function deriveRelationships(
  served: ReadonlyMap<string, ModelTable>,
  all: readonly CatalogueTable[],
  hiddenTables: ReadonlySet<string>,
  warn: (table: string, message: string) => void,
): Map<string, RelationshipSchema[]> {
  const candidates: Candidate[] = [];
  const uniqueColumns = (t: CatalogueTable, columns: readonly string[]) =>
    [t.primaryKey, ...t.uniques].some((u) => u.length === columns.length && u.every((c) => columns.includes(c)));
  const uniqueColumn = (t: CatalogueTable, c: string) =>
    (t.primaryKey.length === 1 && t.primaryKey[0] === c) || t.uniques.some((u) => u.length === 1 && u[0] === c);

  for (const own of served.values()) {
    for (const fk of own.table.foreignKeys) {
      if (fk.columns.length !== 1) {
        const composite = compositeCandidates(own, fk, served, uniqueColumns);
        if (composite) candidates.push(...composite);
        else
          warn(
            own.table.name,
            `foreign key (${fk.columns.join(', ')}) → ${fk.table}: a key of several columns gives a relationship only when it refers to the primary key of a served table`,
          );
        continue;
      }
      const target = served.get(fk.table);
      const [column, reference] = [fk.columns[0]!, fk.references[0]!];
      if (!target || !own.columns.has(column) || !target.columns.has(reference)) continue;
      const name = toOneName(column, fk.table);
      candidates.push(
        ...foreignKeyPair(own, target, name, uniqueColumn(own.table, column), {
          toOne: { kind: 'belongs-to', ownColumn: column, targetColumn: reference },
          inverse: { kind: 'has', ownColumn: reference, targetColumn: column },
        }),
      );
    }
  }

  for (const join of all) {
    if (served.has(join.name) || hiddenTables.has(join.name)) continue;
    const keys = joinTableKeys(join);
    if (!keys) continue;
    const [a, b] = keys;
    const [endA, endB] = [served.get(a.table), served.get(b.table)];
    if (!endA || !endB || !endA.columns.has(a.references[0]!) || !endB.columns.has(b.references[0]!)) continue;
    const self = a.table === b.table;
    for (const [from, to, fromEnd, toEnd] of [
      [a, b, endA, endB],
      [b, a, endB, endA],
    ] as const) {
      const name = self ? plural(withoutKeySuffix(to.columns[0]!) ?? to.columns[0]!) : plural(toEnd.table.name);
      candidates.push({
        owner: fromEnd.table.name,
        name,
        qualifier: join.name,
        kind: 'many-to-many',
        schema: {
          cardinality: 'many',
          target: toEnd.model,
          join: {
            kind: 'through',
            ownColumn: from.references[0]!,
            targetColumn: to.references[0]!,
            through: { table: join.name, ownColumn: from.columns[0]!, targetColumn: to.columns[0]! },
          },
        },
      });
    }
  }

  qualifyCollisions(candidates);
  const out = new Map<string, RelationshipSchema[]>();
  const order = { 'to-one': 0, inverse: 1, 'many-to-many': 2 };
  for (const own of served.values()) {
    const taken = new Set(own.columns);
    const list: RelationshipSchema[] = [];
    const mine = candidates.filter((c) => c.owner === own.table.name).sort((x, y) => order[x.kind] - order[y.kind]);
    for (const c of mine) {
      let name = c.name;
      for (let n = 2; taken.has(name); n++) name = `${c.name}_${n}`;
      if (name !== c.name)
        warn(
          own.table.name,
          `relationship "${c.name}" is named "${name}": "${c.name}" is taken (rename it in tables.${own.table.name}.relationships)`,
        );
      taken.add(name);
      list.push({ name, ...c.schema });
    }
    out.set(own.table.name, list);
  }
  return out;
}

/** Relationships of one kind on one table that share a name each take their qualifier. */
function qualifyCollisions(candidates: Candidate[]): void {
  const groups = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const id = `${c.owner}\u0000${c.kind}\u0000${c.name}`;
    groups.set(id, [...(groups.get(id) ?? []), c]);
  }
  for (const group of groups.values()) {
    if (group.length < 2 || group[0]!.kind === 'to-one') continue;
    for (const c of group) c.name = `${c.name}_${c.kind === 'inverse' ? 'by' : 'via'}_${c.qualifier}`;
  }
}

/**
 * The to-one relationship and its inverse of a foreign key of several columns that refers to the whole
 * primary key of a served table (so the target's id is the referenced columns' values): named after the
 * target table (`shipment_item` → order_line gives `order_line`) and after the referencing table
 * (`shipment_items`, singular when the columns are unique there). The pairs follow the target's key order.
 * Undefined for any other such key.
 */
function compositeCandidates(
  own: ModelTable,
  fk: CatalogueForeignKey,
  served: ReadonlyMap<string, ModelTable>,
  unique: (t: CatalogueTable, columns: readonly string[]) => boolean,
): Candidate[] | undefined {
  const target = served.get(fk.table);
  if (!target) return undefined;
  const key = target.table.primaryKey;
  if (key.length !== fk.references.length || !key.every((c) => fk.references.includes(c))) return undefined;
  const ownColumns = key.map((c) => fk.columns[fk.references.indexOf(c)]!);
  if (!ownColumns.every((c) => own.columns.has(c)) || !key.every((c) => target.columns.has(c))) return undefined;
  return foreignKeyPair(own, target, fk.table, unique(own.table, ownColumns), {
    toOne: { kind: 'composite', on: 'owner', ownColumns, targetColumns: key },
    inverse: { kind: 'composite', on: 'target', ownColumns: key, targetColumns: ownColumns },
  });
}

/**
 * The two relationships a foreign key gives: `name`, to-one on the referencing table, and its inverse on the
 * referenced one, named after the referencing table (singular when the key's columns are unique there).
 */
function foreignKeyPair(
  own: ModelTable,
  target: ModelTable,
  name: string,
  single: boolean,
  joins: { readonly toOne: JoinPath; readonly inverse: JoinPath },
): Candidate[] {
  return [
    {
      owner: own.table.name,
      name,
      qualifier: name,
      kind: 'to-one',
      schema: { cardinality: 'one', target: target.model, join: joins.toOne },
    },
    {
      owner: target.table.name,
      name: single ? own.table.name : plural(own.table.name),
      qualifier: name,
      kind: 'inverse',
      schema: { cardinality: single ? 'one' : 'many', target: own.model, join: joins.inverse },
    },
  ];
}
