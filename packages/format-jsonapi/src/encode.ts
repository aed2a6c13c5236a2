import {
  type ApiError,
  emptyReadQuery,
  type Operation,
  type OperationResult,
  type ReadQuery,
  type ResourceNode,
} from '@colapi/query-ast';
import {
  type DecodeContext,
  type HttpRequest,
  type HttpResponse,
  jsonTextResponse,
  rfc3986Uri,
} from '@colapi/wire-format';
import { includedText } from './compound-document.js';
import { jsonContent, jsonString, jsonValue } from './json-text.js';
import { pagingLinksText } from './paging-links.js';
import { linkageData, resourceLink, resourceText } from './resource-object.js';

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
  return {
    status,
    headers: { 'content-type': type, vary: 'Accept', ...headers },
    body: { jsonapi: JSONAPI_VERSION, ...body },
  };
}

/** The opening of every document but the function evaluation's: its `jsonapi` member. */
const OPENING = `{"jsonapi":${JSON.stringify(JSONAPI_VERSION)}`;

/** A document of resources, written as text (resource-object.ts): members in the order they are given. */
function textDocument(status: number, type: string, members: string, headers: Record<string, string> = {}) {
  return jsonTextResponse(status, { 'content-type': type, vary: 'Accept', ...headers }, `${OPENING}${members}}`);
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
  const { url } = request;
  const query = queryOf(operation);
  // Escaped once: every link of the document starts with it.
  const base = jsonContent(request.base);
  const included = (primary: readonly ResourceNode[]) =>
    query.include.length ? `,"included":${includedText(primary, base, registry, query)}` : '';
  switch (result.kind) {
    case 'collection': {
      if (query.single) {
        const node = result.resources[0]!;
        const self = jsonString(rfc3986Uri(url.href));
        return textDocument(
          200,
          type,
          `,"data":${resourceText(node, base, registry, query)},"links":{"self":${self}}${included([node])}`,
        );
      }
      let data = '';
      for (const node of result.resources) data += `${data ? ',' : ''}${resourceText(node, base, registry, query)}`;
      const links = pagingLinksText(url, result.paging, result.total, result.resources.length);
      const meta = result.total === undefined ? '{}' : `{"total":${jsonValue(result.total)}}`;
      return textDocument(200, type, `,"data":[${data}],"links":${links},"meta":${meta}${included(result.resources)}`);
    }
    case 'resource': {
      const node = result.resource;
      if (!node) return textDocument(200, type, `,"data":null,"links":{"self":${jsonString(rfc3986Uri(url.href))}}`);
      if (result.created) {
        // The specification shows meta and jsonapi inside the created resource object too.
        const self = resourceLink(request.base, node);
        const data = resourceText(
          node,
          base,
          registry,
          query,
          `,"meta":{},"jsonapi":${JSON.stringify(JSONAPI_VERSION)}`,
        );
        return textDocument(201, type, `,"data":${data},"links":{"self":${jsonString(self)}}${included([node])}`, {
          location: self,
        });
      }
      const self = jsonString(rfc3986Uri(url.href));
      return textDocument(
        200,
        type,
        `,"data":${resourceText(node, base, registry, query)},"links":{"self":${self}}${included([node])}`,
      );
    }
    case 'linkage': {
      // A relationship changed exactly as asked: JSON:API's 204.
      if (operation.kind === 'update-linkage') return { status: 204, headers: { vary: 'Accept' } };
      if (operation.kind !== 'fetch-linkage') throw new Error('linkage without a relationship');
      const self = `${request.base}/${operation.collection.name}/${encodeURIComponent(operation.id)}`;
      const data = linkageData(registry, operation.collection, operation.relation, result.linkage);
      const links = { self: `${self}/relationships/${operation.relation}`, related: `${self}/${operation.relation}` };
      // The included resources hang off the owner, which is not in the document: the linkage leads to them.
      const fromOwner =
        result.owner && query.include.length
          ? `,"included":${includedText([], base, registry, query, [result.owner])}`
          : '';
      return textDocument(200, type, `,"data":${JSON.stringify(data)},"links":${JSON.stringify(links)}${fromOwner}`);
    }
    case 'values':
      // The specification: "an object whose single member data is the list of results" (no jsonapi member).
      return { status: 200, headers: { 'content-type': type, vary: 'Accept' }, body: { data: result.values } };
    case 'count':
      return document(200, type, { meta: { modified: result.count } });
    case 'no-content':
      return { status: 204, headers: { vary: 'Accept' } };
  }
}

/** The JSON:API error document. */
export function encodeErrorDocument(status: number, errors: readonly ApiError[], type: string): HttpResponse {
  // Every answer depends on Accept (its type, a 406): caches must key on it.
  const headers: Record<string, string> = { 'content-type': type, vary: 'Accept' };
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
