import type { CollectionSchema } from '@colapi/schema';
import { ApiError, parseJsonApiQuery, pathRelationship, type DecodeContext, type HttpRequest, type Operation } from '@colapi/query-ast';

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
    // As in Flask-Restless 1.0: only the members of a to-many relationship are addressed by id.
    if (rel.cardinality === 'one') {
      const related = `${request.base}/${collection.name}/${encodeURIComponent(id)}/${rel.name}`;
      throw ApiError.notFound(`${rel.name} is a to-one relationship of ${collection.name}: it has no member ids; its related resource is at ${related}, without an id`);
    }
    return { kind: 'fetch', collection: target, id: route.relatedId, scope, query: parseJsonApiQuery(params, target, ctx, 'single') };
  }
  if (rel.cardinality === 'one') {
    return { kind: 'fetch-related-one', collection: target, scope, query: parseJsonApiQuery(params, target, ctx, 'single') };
  }
  return { kind: 'list', collection: target, scope, query: parseJsonApiQuery(params, target, ctx, 'list') };
}
