import type { ModelSchema } from '@colapi/schema';
import type { KeyValue } from '@colapi/query-ast';
import { applyScope, type Scope } from './compile-scope.js';
import type { CompileContext } from './field-expression.js';
import { keyParts } from '@colapi/query-ast';
import { whereKey } from './key-columns.js';
import { resourceRowDecoder, type ResourceRow } from './resource-row.js';
import { NO_RELATIONS, rowLinkage, type Relations } from './row-linkage.js';
import { selectColumns } from './select-columns.js';
import { shapesOf, type ShapeCaches } from './shape-cache.js';
import { statementOf, type RowsStatement } from './statement.js';
import { tableSource } from './table-source.js';
import { keptScoped, type Traced } from './scope-trace.js';

/** Statements of reads by key, kept per dialect and model and reused with another key: see compileRow. */
const kept: ShapeCaches<RowsStatement<ResourceRow | undefined>> = new WeakMap();
/** Reads by key under row scopes, kept per shape and scopes' key (ScopeTrace). */
const keptScopedRows: ShapeCaches<Traced<RowsStatement<ResourceRow | undefined>>> = new WeakMap();
/** Shapes kept per model: the relationships a read shows are the client's choice (fieldsets, includes). */
const SHAPES_PER_MODEL = 100;

/**
 * One row of a model by its key, or none; within `scope` when given (`/person/1/articles/7`). It carries
 * the linkage of the relationships `relations` shows, as rowLinkage decides: a read by key computes its
 * select list for that row alone.
 *
 * A read by key outside a scope is the commonest request there is, and its text depends only on which
 * relationships it shows: the statement built for the first key of a shape is kept and bound again with the
 * next key, so knex builds and compiles it once. It is kept only when its one binding is the key itself, and
 * only outside row scopes: a scoped read is built each time, and never served a statement kept unscoped.
 */
export function compileRow(
  ctx: CompileContext,
  model: ModelSchema,
  key: KeyValue,
  relations: Relations = NO_RELATIONS,
  scope?: Scope,
): RowsStatement<ResourceRow | undefined> {
  if (scope) return buildRow(ctx, model, key, relations, scope);
  const shape = `${typeof key} ${relationsShape(relations)}`;
  if (ctx.scopes)
    return keptScoped(ctx, keptScopedRows, model, shape, SHAPES_PER_MODEL, keyParts(model, key), (c) =>
      buildRow(c, model, key, relations),
    );
  const statements = shapesOf(kept, ctx.dialect, model);
  const statement = statements.get(shape);
  if (statement) return { ...statement, bindings: [key] };
  const built = buildRow(ctx, model, key, relations);
  if (built.bindings.length === 1 && built.bindings[0] === key && statements.size < SHAPES_PER_MODEL)
    statements.set(shape, built);
  return built;
}

/** The relationships part of a shape, made once per Relations object (the resource graph reuses them per collection). */
const relationsShapes = new WeakMap<Relations, string>();
function relationsShape(relations: Relations): string {
  let shape = relationsShapes.get(relations);
  if (shape === undefined) {
    shape = `${relations.shown.map((r) => r.name).join(',')} ${[...relations.included].join(',')}`;
    relationsShapes.set(relations, shape);
  }
  return shape;
}

function buildRow(
  ctx: CompileContext,
  model: ModelSchema,
  key: KeyValue,
  relations: Relations,
  scope?: Scope,
): RowsStatement<ResourceRow | undefined> {
  const linkage = rowLinkage(ctx, relations, true);
  const t = ctx.aliases.next();
  const qb = whereKey(
    ctx,
    tableSource(ctx, model, t).select(selectColumns(ctx, model, t), ...linkage.columns(t)),
    model,
    t,
    key,
  );
  // The key is unique: no `limit`, which would only add a value to bind.
  if (scope) applyScope(ctx, qb, t, scope);
  const decode = resourceRowDecoder(ctx.dialect, model, linkage);
  return { ...statementOf(qb, ({ rows }) => (rows.length ? decode(rows[0]!) : undefined)), carried: linkage.carried };
}
