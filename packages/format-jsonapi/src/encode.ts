import { type ApiError, emptyReadQuery, type Operation, type OperationResult, type ReadQuery } from '@colapi/query-ast';
import { type DecodeContext, type HttpRequest, type HttpResponse, rfc3986Uri } from '@colapi/wire-format';
import { includedResources } from './compound-document.js';
import { linkageData, resourceObject } from './resource-object.js';
import { pagingLinks } from './paging-links.js';

export const JSONAPI_VERSION = { version: '1.0' } as const;

function queryOf(operation: Operation): ReadQuery {
  return 'query' in operation ? operation.query : emptyReadQuery();
}

function document(
  status: number,
  type: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): HttpResponse {
  return { status, headers: { 'content-type': type, ...headers }, body: { jsonapi: JSONAPI_VERSION, ...body } };
}

/** Shapes an operation result as a JSON:API document. */
export function encodeResult(
  request: HttpRequest,
  operation: Operation,
  result: OperationResult,
  ctx: DecodeContext,
  type: string,
): HttpResponse {
  const { registry } = ctx;
  const { base, url } = request;
  const query = queryOf(operation);
  switch (result.kind) {
    case 'collection': {
      if (query.single) {
        const node = result.resources[0]!;
        const body: Record<string, unknown> = {
          data: resourceObject(node, base, registry, query),
          links: { self: rfc3986Uri(url.href) },
        };
        if (query.include.length) body.included = includedResources([node], base, registry, query);
        return document(200, type, body);
      }
      const body: Record<string, unknown> = {
        data: result.resources.map((n) => resourceObject(n, base, registry, query)),
        links: pagingLinks(url, result.paging, result.total, result.resources.length),
        meta: result.total === undefined ? {} : { total: result.total },
      };
      if (query.include.length) body.included = includedResources(result.resources, base, registry, query);
      return document(200, type, body);
    }
    case 'resource': {
      const node = result.resource;
      const data = node ? resourceObject(node, base, registry, query) : null;
      const body: Record<string, unknown> = { data, links: { self: rfc3986Uri(url.href) } };
      if (node && query.include.length) body.included = includedResources([node], base, registry, query);
      if (result.created && data) {
        // The specification shows meta and jsonapi inside the created resource object too.
        const created = { ...data, meta: {}, jsonapi: JSONAPI_VERSION };
        return document(
          201,
          type,
          { ...body, data: created, links: { self: data.links.self } },
          { location: data.links.self },
        );
      }
      return document(200, type, body);
    }
    case 'linkage': {
      // A relationship changed exactly as asked: JSON:API's 204.
      if (operation.kind === 'update-linkage') return { status: 204, headers: {} };
      if (operation.kind !== 'fetch-linkage') throw new Error('linkage without a relationship');
      const self = `${base}/${operation.collection.name}/${encodeURIComponent(operation.id)}`;
      const body: Record<string, unknown> = {
        data: linkageData(registry, operation.collection, operation.relation, result.linkage),
        links: { self: `${self}/relationships/${operation.relation}`, related: `${self}/${operation.relation}` },
      };
      // The included resources hang off the owner, which is not in the document: the linkage leads to them.
      if (result.owner && query.include.length)
        body.included = includedResources([], base, registry, query, [result.owner]);
      return document(200, type, body);
    }
    case 'values':
      // The specification: "an object whose single member data is the list of results" (no jsonapi member).
      return { status: 200, headers: { 'content-type': type }, body: { data: result.values } };
    case 'count':
      return document(200, type, { meta: { modified: result.count } });
    case 'no-content':
      return { status: 204, headers: {} };
  }
}

/** The JSON:API error document. */
export function encodeErrorDocument(status: number, errors: readonly ApiError[], type: string): HttpResponse {
  const headers: Record<string, string> = { 'content-type': type };
  for (const e of errors) Object.assign(headers, e.headers ?? {});
  return {
    status,
    headers,
    body: {
      jsonapi: JSONAPI_VERSION,
      errors: errors.map((e) => ({
        status: String(e.status),
        title: e.title,
        detail: e.detail,
        ...(e.source ? { source: e.source } : {}),
      })),
    },
  };
}
