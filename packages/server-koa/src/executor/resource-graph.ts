import type { CollectionSchema, Registry, RelationshipSchema } from '@colapi/schema';
import type { Linkage, ReadQuery, ResourceNode } from '@colapi/query-ast';
import { OWNER_COLUMN, type Row, type SqlCompiler } from '@colapi/sql-compiler';
import type { Knex } from 'knex';

interface MutableNode extends ResourceNode {
  /** The row as the driver gave it: it may carry linkage (`SqlCompiler.linkage`). */
  readonly raw: Row;
  readonly linkage: Map<string, Linkage>;
  readonly included: Map<string, ResourceNode | null | readonly ResourceNode[]>;
}

type IncludeTree = Map<string, IncludeTree>;

function includeTree(paths: readonly (readonly string[])[]): IncludeTree {
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
 * Builds resource nodes from rows and loads their relationships set-wise: one query per relationship
 * and include level, whatever the number of rows.
 */
export class ResourceGraph {
  constructor(
    readonly compiler: SqlCompiler,
    readonly registry: Registry,
  ) {}

  node(collection: CollectionSchema, raw: Row): MutableNode {
    const values = this.compiler.decode(collection.model, raw);
    for (const [name, v] of collection.virtualAttributes) values[name] = v.compute(values);
    return { collection, id: String(values[collection.model.key]), raw, values, linkage: new Map(), included: new Map() };
  }

  /**
   * The relationships whose linkage the query of the rows should carry, for a read of `collection` with
   * `query`: those shown and not included (an include reads the related rows anyway), except a foreign key
   * to the target's key, which is its own linkage.
   */
  links(collection: CollectionSchema, query: Pick<ReadQuery, 'fields' | 'include'>): RelationshipSchema[] {
    return this.linksOf(collection, query, includeTree(query.include));
  }

  private linksOf(collection: CollectionSchema, query: Pick<ReadQuery, 'fields'>, tree: IncludeTree): RelationshipSchema[] {
    const fieldset = query.fields[collection.name];
    const out: RelationshipSchema[] = [];
    for (const [name, rel] of collection.relationships) {
      if (tree.has(name) || (fieldset && !fieldset.includes(name))) continue;
      if (rel.join.kind === 'belongs-to' && rel.join.targetColumn === this.registry.target(rel).model.key) continue;
      if (this.compiler.canLink(rel)) out.push(rel);
    }
    return out;
  }

  /** Nodes for rows of `collection`, with linkage of the shown relationships and the requested includes. */
  async load(db: Knex, collection: CollectionSchema, rows: readonly Row[], query: Pick<ReadQuery, 'fields' | 'include'>): Promise<ResourceNode[]> {
    const nodes = rows.map((r) => this.node(collection, r));
    await this.attach(db, collection, nodes, query, includeTree(query.include));
    return nodes;
  }

  /** The linkage of one relationship of one resource. */
  async linkage(db: Knex, collection: CollectionSchema, row: Row, relation: string): Promise<Linkage> {
    return (await this.relationship(db, collection, row, relation, { fields: {}, include: [] })).linkage.get(relation)!;
  }

  /**
   * One resource with the linkage of one relationship and the resources `query` includes from it (paths
   * relative to this resource). Its own fieldset does not apply: the resource is not shown, its relationship is.
   */
  async relationship(db: Knex, collection: CollectionSchema, row: Row, relation: string, query: Pick<ReadQuery, 'fields' | 'include'>): Promise<ResourceNode> {
    const node = this.node(collection, row);
    const tree = includeTree(query.include);
    await this.attachNames(db, collection, [node], query, tree, [...new Set([relation, ...tree.keys()])]);
    return node;
  }

  /** The row links `relationship` needs: only the linkage of that relationship, and only when not included. */
  relationshipLinks(collection: CollectionSchema, relation: string, query: Pick<ReadQuery, 'include'>): RelationshipSchema[] {
    return this.links(collection, { fields: { [collection.name]: [relation] }, include: query.include });
  }

  private async attach(db: Knex, collection: CollectionSchema, nodes: MutableNode[], query: Pick<ReadQuery, 'fields'>, tree: IncludeTree): Promise<void> {
    if (nodes.length === 0) return;
    const fieldset = query.fields[collection.name];
    const names = [...collection.relationships.keys()].filter((n) => tree.has(n) || !fieldset || fieldset.includes(n));
    await this.attachNames(db, collection, nodes, query, tree, names);
  }

  /** Loads the relationships `names` of the nodes (linkage, and the resources of those in `tree`). */
  private async attachNames(db: Knex, collection: CollectionSchema, nodes: MutableNode[], query: Pick<ReadQuery, 'fields'>, tree: IncludeTree, names: readonly string[]): Promise<void> {
    // The loads are independent: run them at once. Placeholders set now keep the maps in relationship order,
    // whichever load finishes first, so documents list relationships and included resources the same way.
    for (const node of nodes) {
      for (const name of names) {
        node.linkage.set(name, null);
        if (tree.has(name)) node.included.set(name, null);
      }
    }
    await Promise.all(names.map((name) => this.attachOne(db, collection, nodes, query, tree, name)));
  }

  /** Linkage (and, when included, the resources) of one relationship for every node. */
  private async attachOne(db: Knex, collection: CollectionSchema, nodes: MutableNode[], query: Pick<ReadQuery, 'fields'>, tree: IncludeTree, name: string): Promise<void> {
    const rel = collection.relationships.get(name)!;
    const target = this.registry.target(rel);
    const subtree = tree.get(name);
    const join = rel.join;
    // A belongs-to to the target's key: the foreign key is the linkage, no query needed.
    if (!subtree && join.kind === 'belongs-to' && join.targetColumn === target.model.key) {
      for (const node of nodes) {
        const v = node.values[join.ownColumn];
        node.linkage.set(name, v === null || v === undefined ? null : String(v));
      }
      return;
    }
    if (!subtree) {
      // The rows' own query carried the linkage (`links`): no query of its own.
      const lists = nodes.map((n) => this.compiler.linkage(rel, n.raw));
      if (lists.every((ids) => ids !== undefined)) {
        nodes.forEach((node, i) => node.linkage.set(name, rel.cardinality === 'many' ? lists[i]! : (lists[i]![0] ?? null)));
        return;
      }
    }
    const owners = [...new Set(nodes.map((n) => n.values[join.ownColumn]).filter((v) => v !== null && v !== undefined))];
    const links = subtree ? this.linksOf(target, query, subtree) : [];
    const rows = owners.length ? await this.compiler.run(this.compiler.related(rel, owners, !!subtree, db, links), db) : [];
    const byOwner = new Map<string, Row[]>();
    for (const row of rows) {
      const k = String(row[OWNER_COLUMN]);
      let list = byOwner.get(k);
      if (!list) byOwner.set(k, (list = []));
      list.push(row);
    }
    const relatedNodes = new Map<string, MutableNode>();
    const key = target.model.key;
    if (subtree) for (const row of rows) if (!relatedNodes.has(String(row[key]))) relatedNodes.set(String(row[key]), this.node(target, row));
    for (const node of nodes) {
      const v = node.values[join.ownColumn];
      const list = v === null || v === undefined ? [] : (byOwner.get(String(v)) ?? []);
      const ids = list.map((r) => String(r[key]));
      node.linkage.set(name, rel.cardinality === 'many' ? ids : (ids[0] ?? null));
      if (subtree) {
        const related = ids.map((id) => relatedNodes.get(id)!);
        node.included.set(name, rel.cardinality === 'many' ? related : (related[0] ?? null));
      }
    }
    if (subtree) await this.attach(db, target, [...relatedNodes.values()], query, subtree);
  }
}
