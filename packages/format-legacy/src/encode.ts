import type { ApiError, ErrorCode, Operation, OperationResult } from '@colapi/query-ast';
import type { HttpRequest, HttpResponse } from '@colapi/wire-format';
import { instanceObject } from './instance-object.js';
import { linkHeader, listObject, pageCounts } from './list-object.js';
import { JSON_MEDIA_TYPE } from './media-type.js';

function json(status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return { status, headers: { 'content-type': JSON_MEDIA_TYPE, ...headers }, body };
}

/** Shapes an operation result as Format B: plain objects, list objects with `Link` headers, bare statuses. */
export function encodeResult(request: HttpRequest, operation: Operation, result: OperationResult): HttpResponse {
  switch (result.kind) {
    case 'collection': {
      if ('query' in operation && operation.query.single) return json(200, instanceObject(result.resources[0]!));
      const counts = pageCounts(result.paging, result.total, result.resources.length);
      const link = linkHeader(request.url, counts);
      return json(200, listObject(result.resources, counts), link === undefined ? {} : { link });
    }
    case 'resource': {
      const node = result.resource;
      if (!node) return encodeErrors(404, [], 'No result found');
      if (!result.created) return json(200, instanceObject(node));
      const location = `${request.base}/${node.collection.name}/${encodeURIComponent(node.id)}`;
      return json(201, instanceObject(node), { location });
    }
    case 'values': {
      // One member per function, `<name>__<field>`, in request order; none requested is the empty object.
      const body: Record<string, unknown> = {};
      if (operation.kind === 'evaluate')
        for (const [i, f] of operation.functions.entries()) body[`${f.name}__${f.column}`] = result.values[i];
      return json(200, body);
    }
    case 'count':
      // The specification documents 201 for a bulk update, odd as it is.
      return json(201, { num_modified: result.count });
    case 'linkage':
    case 'no-content':
      // Relationship changes (DELETE of a related instance) answer nothing in Format B.
      return { status: 204, headers: {} };
  }
}

/**
 * Integrity conflicts are 400 in Format B: Flask-Restless 0.17 answers every IntegrityError so, and its
 * clients check for 400. Format A keeps 409.
 */
const INTEGRITY_CODES: ReadonlySet<ErrorCode | undefined> = new Set<ErrorCode>([
  'unique-violation',
  'still-referenced',
]);

/**
 * The `{message}` error body of Format B. A `single` search that found several resources is 400 here,
 * with the specification's wording; one that found none is 404.
 */
export function encodeErrors(status: number, errors: readonly ApiError[], message?: string): HttpResponse {
  const headers: Record<string, string> = {};
  for (const e of errors) Object.assign(headers, e.headers ?? {});
  const code = errors[0]?.code;
  if (code === 'multiple-results') return json(400, { message: 'Multiple results found' }, headers);
  if (code === 'no-result') return json(404, { message: 'No result found' }, headers);
  return json(
    INTEGRITY_CODES.has(code) ? 400 : status,
    { message: message ?? errors.map((e) => e.detail).join('; ') },
    headers,
  );
}
