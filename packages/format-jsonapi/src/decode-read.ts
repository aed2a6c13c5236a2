import type { CollectionSchema } from '@colapi/schema';
import { parseJsonApiQuery, pathRelationship, type DecodeContext, type HttpRequest, type Operation } from '@colapi/query-ast';

/** Decodes a GET of Format A into a read operation. */
export function decodeRead(request: HttpRequest, collection: CollectionSchema, ctx: DecodeContext): Operation {
  const { route, url } = request;
  const params = url.searchParams;
  if (route.id === undefined) {
    return { kind: 'list', collection, query: parseJsonApiQuery(params, collection, ctx, 'list') };
  }
  const id = route.id;
  if (route.relation === undefined) {
    return { kind: 'fetch', collection, id, query: parseJsonApiQuery(params, collection, ctx, 'single') };
  }
  const rel = pathRelationship(collection, route.relation);
  const target = ctx.registry.target(rel);
  const scope = { owner: collection, ownerId: id, relation: rel.name };
  if (route.relationships) {
    parseJsonApiQuery(params, target, ctx, 'single');
    return { kind: 'fetch-linkage', collection, id, relation: rel.name };
  }
  if (route.relatedId !== undefined) {
    return { kind: 'fetch', collection: target, id: route.relatedId, scope, query: parseJsonApiQuery(params, target, ctx, 'single') };
  }
  if (rel.cardinality === 'one') {
    return { kind: 'fetch-related-one', collection: target, scope, query: parseJsonApiQuery(params, target, ctx, 'single') };
  }
  return { kind: 'list', collection: target, scope, query: parseJsonApiQuery(params, target, ctx, 'list') };
}
