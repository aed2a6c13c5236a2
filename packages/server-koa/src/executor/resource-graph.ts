import type { CollectionSchema, Registry, RelationshipSchema } from '@colapi/schema';
import { joinValue, type Linkage, type ReadQuery, type ResourceNode } from '@colapi/query-ast';
import {
  runEach,
  runStatement,
  type Relations,
  type RelatedRow,
  type ResourceRow,
  type SqlCompiler,
} from '@colapi/sql-compiler';
import type { Knex } from 'knex';

interface MutableNode extends ResourceNode {
  /** The row it was built from, with the linkage its statement carried. */
  readonly row: ResourceRow;
  /** Its own, filled by attach; or the row's, never changed, when that already shows what the read shows. */
  readonly linkage: Map<string, Linkage>;
  readonly included: Map<string, ResourceNode | null | readonly ResourceNode[]>;
}

type IncludeTree = Map<string, IncludeTree>;

/** The tree of no include paths, shared: trees are only read once built. */
const NO_INCLUDES: IncludeTree = new Map();

/** What the graph reads of a request: fieldsets and include paths. */
export type Shape = Pick<ReadQuery, 'fields' | 'include'>;

/** Rows as one statement answered them, and the relationships whose linkage that statement carried. */
export interface Read {
  readonly rows: readonly ResourceRow[];
  readonly carried: ReadonlySet<string>;
}

function includeTree(paths: readonly (readonly string[])[]): IncludeTree {
  if (paths.length === 0) return NO_INCLUDES;
  const root: IncludeTree = new Map();
  for (const path of paths) {
    let node = root;
    for (const part of path) {
      let next = node.get(part);
      if (!next) node.set(part, (next = new Map()));
      node = next;
    }
  }
  return root;
}

/**
 * Whether the rows of a read carry the linkage of exactly the relationships `relations` shows, in its order,
 * and it includes none: the common read (rowLinkage decodes in that order), whose rows' linkage maps are
 * then the nodes' own, not copied into new ones. Every row of a read has its linkage in the same order.
 */
function showsAsRead(read: Read, relations: Relations): boolean {
  if (relations.included.size > 0 || read.rows.length === 0) return false;
  const linkage = read.rows[0]!.linkage;
  const { shown } = relations;
  if (linkage.size !== shown.length) return false;
  let i = 0;
  for (const name of linkage.keys()) if (shown[i++]!.name !== name || !read.carried.has(name)) return false;
  return true;
}

/**
 * Builds resource nodes from rows and loads the relationships their statements did not carry, set-wise:
 * one statement per relationship and include level, whatever the number of rows. Which relationships a
 * document shows is decided here (fieldsets, include paths); which of them come with the rows is the
 * compiler's decision, read from `carried`.
 */
/**
 * What a read that gives a collection no fieldset and includes nothing shows (all), once per collection: kept
 * outside any one graph, as a caller's view of the API makes a graph per request (access control), and the
 * statements' caches are keyed by these objects.
 */
const PLAIN = new WeakMap<CollectionSchema, Relations>();

export class ResourceGraph {
  constructor(
    readonly compiler: SqlCompiler,
    readonly registry: Registry,
  ) {}

  /** The relationships a read of `collection` shows (its fieldset's, or all) and those it includes. */
  relations(collection: CollectionSchema, query: Shape): Relations {
    if (query.include.length > 0 || query.fields[collection.name])
      return this.relationsOf(collection, query.fields, includeTree(query.include));
    // Most reads and writes: the same answer every time, so the same object (callers never change one).
    let relations = PLAIN.get(collection);
    if (!relations) PLAIN.set(collection, (relations = this.relationsOf(collection, {}, NO_INCLUDES)));
    return relations;
  }

  /**
   * For a relationship endpoint: the relationship itself and those the include paths start with (paths
   * relative to the resource). The resource's own fieldset does not apply: it is not shown, its relationship is.
   */
  relationshipRelations(collection: CollectionSchema, relation: string, query: Pick<ReadQuery, 'include'>): Relations {
    const tree = includeTree(query.include);
    const names = new Set([relation, ...tree.keys()]);
    const shown = [...names].map((n) => collection.relationships.get(n)!);
    return { shown, included: new Set(tree.keys()) };
  }

  private relationsOf(collection: CollectionSchema, fields: ReadQuery['fields'], tree: IncludeTree): Relations {
    const fieldset = fields[collection.name];
    const shown: RelationshipSchema[] = [];
    for (const [name, rel] of collection.relationships)
      if (tree.has(name) || !fieldset || fieldset.includes(name)) shown.push(rel);
    return { shown, included: new Set(tree.keys()) };
  }

  private node(collection: CollectionSchema, row: ResourceRow, linkage = new Map<string, Linkage>()): MutableNode {
    const values = row.values;
    for (const [name, v] of collection.virtualAttributes) values[name] = v.compute(values);
    return {
      collection,
      id: String(values[collection.model.key]),
      row,
      values,
      linkage,
      included: new Map(),
    };
  }

  /**
   * Nodes for rows read with `relations`, with the linkage they show and the resources `query` includes: at
   * once when the rows carried all of it (most reads), else once the loads are done. Not an async function,
   * so that a read with nothing to load costs no promise of its own.
   */
  load(
    db: Knex,
    collection: CollectionSchema,
    read: Read,
    relations: Relations,
    query: Shape,
  ): ResourceNode[] | Promise<ResourceNode[]> {
    // Built by push, not map: on V8 13.6 (Node 24) the callers reading map's array were deoptimised once map
    // itself was optimised (the array comes back with another map), and ran slower for thousands of requests more.
    const nodes: MutableNode[] = [];
    if (showsAsRead(read, relations)) {
      // Nothing to attach: each row's linkage is the node's (read-only from here on).
      for (const r of read.rows) nodes.push(this.node(collection, r, r.linkage as Map<string, Linkage>));
      return nodes;
    }
    for (const r of read.rows) nodes.push(this.node(collection, r));
    const loading = this.attach(db, nodes, read.carried, relations, query.fields, includeTree(query.include));
    return loading ? loading.then(() => nodes) : nodes;
  }

  /**
   * One resource with the linkage of one relationship and the resources `query` includes from it; `row` read
   * with relationshipRelations(collection, relation, query).
   */
  async relationship(
    db: Knex,
    collection: CollectionSchema,
    read: Read,
    relation: string,
    query: Shape,
  ): Promise<ResourceNode> {
    const [node] = await this.load(
      db,
      collection,
      read,
      this.relationshipRelations(collection, relation, query),
      query,
    );
    return node!;
  }

  /**
   * Linkage (and, when included, the resources) of every relationship `relations` shows, for every node: the
   * loads still to wait for, or undefined when the rows carried it all.
   */
  private attach(
    db: Knex,
    nodes: MutableNode[],
    carried: ReadonlySet<string>,
    relations: Relations,
    fields: ReadQuery['fields'],
    tree: IncludeTree,
  ): Promise<void> | undefined {
    if (nodes.length === 0) return undefined;
    // Placeholders set now keep the maps in relationship order, whichever load finishes first, so documents
    // list relationships and included resources the same way.
    for (const node of nodes) {
      for (const { name } of relations.shown) {
        node.linkage.set(name, carried.has(name) ? node.row.linkage.get(name)! : null);
        if (relations.included.has(name)) node.included.set(name, null);
      }
    }
    const loads = relations.shown.filter((rel) => !carried.has(rel.name));
    // Most reads carry all their linkage: nothing more to wait for.
    if (loads.length === 0) return undefined;
    // The loads are independent: at once on a pool, in turn on a transaction's one connection.
    return runEach(db, loads, (rel) => this.attachOne(db, nodes, rel, fields, tree.get(rel.name))).then(() => {});
  }

  /** Linkage (and, when `subtree` is given, the resources) of one relationship for every node: one statement. */
  private async attachOne(
    db: Knex,
    nodes: MutableNode[],
    rel: RelationshipSchema,
    fields: ReadQuery['fields'],
    subtree: IncludeTree | undefined,
  ): Promise<void> {
    const target = this.registry.target(rel);
    const owners = [
      ...new Set(nodes.map((n) => joinValue(rel.join, n.values)).filter((v) => v !== null && v !== undefined)),
    ];
    const relations = subtree && this.relationsOf(target, fields, subtree);
    const statement = this.compiler.related(rel, owners, relations);
    const rows = owners.length ? await runStatement(db, this.compiler.dialect, statement) : [];
    const byOwner = new Map<string, RelatedRow[]>();
    for (const row of rows) {
      let list = byOwner.get(row.owner);
      if (!list) byOwner.set(row.owner, (list = []));
      list.push(row);
    }
    const relatedNodes = new Map<string, MutableNode>();
    if (subtree)
      for (const row of rows) if (!relatedNodes.has(row.id)) relatedNodes.set(row.id, this.node(target, row.row!));
    for (const node of nodes) {
      const v = joinValue(rel.join, node.values);
      const ids = (v === null || v === undefined ? [] : (byOwner.get(String(v)) ?? [])).map((r) => r.id);
      node.linkage.set(rel.name, rel.cardinality === 'many' ? ids : (ids[0] ?? null));
      if (subtree) {
        const related = ids.map((id) => relatedNodes.get(id)!);
        node.included.set(rel.name, rel.cardinality === 'many' ? related : (related[0] ?? null));
      }
    }
    if (subtree) await this.attach(db, [...relatedNodes.values()], statement.carried, relations!, fields, subtree);
  }
}
