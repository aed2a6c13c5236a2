import type { CollectionSchema } from '@colapi/schema';
import { ApiError, pathRelationship, type Operation } from '@colapi/query-ast';
import type { DecodeContext, HttpRequest } from '@colapi/wire-format';
import { cursorReadQuery, pagedByCursor } from './cursor-query.js';
import type { CursorSigner } from './cursor-signer.js';
import { parseJsonApiQuery } from './parse-query.js';

/** The query of a list read: paged by number, or by cursor (cursor-query.ts). */
function listQuery(request: HttpRequest, collection: CollectionSchema, ctx: DecodeContext, signer: CursorSigner) {
  return pagedByCursor(request, collection)
    ? cursorReadQuery(request, collection, ctx, signer)
    : parseJsonApiQuery(request.url.searchParams, collection, ctx, 'list');
}

/** Decodes a GET of Format A into a read operation. */
export function decodeRead(
  request: HttpRequest,
  collection: CollectionSchema,
  ctx: DecodeContext,
  signer: CursorSigner,
): Operation {
  const { route, url } = request;
  const params = url.searchParams;
  if (route.id === undefined) {
    return { kind: 'list', collection, query: listQuery(request, collection, ctx, signer) };
  }
  const id = route.id;
  if (route.relation === undefined) {
    return { kind: 'fetch', collection, id, query: parseJsonApiQuery(params, collection, ctx, 'single') };
  }
  const rel = pathRelationship(collection, route.relation);
  const target = ctx.registry.target(rel);
  const scope = { owner: collection, ownerId: id, relation: rel.name };
  if (route.relationships) {
    // JSON:API 1.0 resolves include from the owner (`/articles/1/relationships/comments?include=comments.author`).
    const query = parseJsonApiQuery(params, collection, ctx, 'single');
    for (const path of query.include) {
      // Full linkage: only what the linkage leads to can be identified in the document; the owner is not in it.
      if (path[0] !== rel.name) {
        throw ApiError.badRequest(
          `include "${path.join('.')}": on the relationship ${rel.name} of ${collection.name} an include path starts with ${rel.name}, so that every included resource is linked from the document`,
          { parameter: 'include' },
        );
      }
    }
    return { kind: 'fetch-linkage', collection, id, relation: rel.name, query };
  }
  if (route.relatedId !== undefined) {
    // As in Flask-Restless 1.0: only the members of a to-many relationship are addressed by id.
    if (rel.cardinality === 'one') {
      const related = `${request.base}/${collection.name}/${encodeURIComponent(id)}/${rel.name}`;
      throw ApiError.notFound(
        `${rel.name} is a to-one relationship of ${collection.name}: it has no member ids; its related resource is at ${related}, without an id`,
      );
    }
    return {
      kind: 'fetch',
      collection: target,
      id: route.relatedId,
      scope,
      query: parseJsonApiQuery(params, target, ctx, 'single'),
    };
  }
  if (rel.cardinality === 'one') {
    return {
      kind: 'fetch-related-one',
      collection: target,
      scope,
      query: parseJsonApiQuery(params, target, ctx, 'single'),
    };
  }
  return { kind: 'list', collection: target, scope, query: listQuery(request, target, ctx, signer) };
}
