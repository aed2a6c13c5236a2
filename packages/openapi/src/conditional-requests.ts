import type { HttpMethod } from '@colapi/schema';
import type { OpenApiObject, RouteEntry } from '@colapi/wire-format';
import { CONDITIONAL, headerRef, parameterRef, responseRef } from './conditional-components.js';

/** How a route and method take part in conditional requests (server-koa's conditional/). */
type Role = 'read' | 'write' | 'bulk' | 'none';

function roleOf(route: RouteEntry, method: HttpMethod): Role {
  if (method === 'GET') return 'read';
  if (method === 'POST' && route.kind === 'collection') return 'none'; // a create has no version to compare
  if (route.kind === 'collection') return 'bulk';
  if (route.kind === 'evaluate' || route.kind === 'related') return 'none';
  return 'write';
}

/**
 * Whether the 2xx answers of the operation are about one resource, so carry its Resource-ETag. A related
 * URL is left to the format: Format A answers a to-one relation's resource there, Format B a list.
 */
function tagsOneResource(route: RouteEntry, method: HttpMethod): boolean {
  switch (route.kind) {
    case 'collection':
      return method === 'POST';
    case 'resource':
      return method !== 'DELETE';
    case 'related-item':
    case 'relationship':
      return true;
    default:
      return false;
  }
}

/** Whether the response is a JSONP script and nothing else. */
const scriptOnly = (response: OpenApiObject): boolean => {
  const types = Object.keys((response.content as OpenApiObject | undefined) ?? {});
  return types.length > 0 && types.every((t) => t.includes('javascript'));
};

/** The response with `headers` added to those it has. */
function withResponseHeaders(response: OpenApiObject, headers: OpenApiObject): OpenApiObject {
  return { ...response, headers: { ...(response.headers as OpenApiObject | undefined), ...headers } };
}

/**
 * The operation with what server-koa does about conditional requests, whatever the format: on a GET the
 * ETag of every 200, If-None-Match (304) and If-Match (412); on a write of one resource If-Match (required and
 * 428 under requireIfMatch) and If-None-Match, 412; the Resource-ETag of every 2xx about one resource.
 * Said once here, as the JSONP answer is, so that no format can describe the server's answers without it;
 * applied after withJsonpAnswer, whose 200 of a write stands for its answer too.
 */
export function withConditionalRequests(
  operation: OpenApiObject,
  route: RouteEntry,
  method: HttpMethod,
  requireIfMatch: boolean,
): OpenApiObject {
  const role = roleOf(route, method);
  const responses = { ...(operation.responses as Record<string, OpenApiObject>) };
  const tagged = tagsOneResource(route, method);
  for (const [status, response] of Object.entries(responses)) {
    if (!/^2\d\d$/.test(status)) continue;
    const headers: OpenApiObject = {};
    if (role === 'read' && status === '200') headers.ETag = headerRef(CONDITIONAL.etag);
    // A 200 that only JSONP answers (a create's, whose own answer is 201) may wrap an error, which has no tag.
    if (tagged)
      headers['Resource-ETag'] = headerRef(
        scriptOnly(response) ? CONDITIONAL.resourceTagWhenFound : CONDITIONAL.resourceTag,
      );
    if (Object.keys(headers).length) responses[status] = withResponseHeaders(response, headers);
  }
  const parameters = [...((operation.parameters ?? []) as OpenApiObject[])];
  switch (role) {
    case 'read':
      parameters.push(parameterRef(CONDITIONAL.ifNoneMatchRead), parameterRef(CONDITIONAL.ifMatchRead));
      responses['304'] = responseRef(CONDITIONAL.notModified);
      responses['412'] = responseRef(CONDITIONAL.preconditionFailed);
      break;
    case 'write':
      parameters.push(parameterRef(CONDITIONAL.ifMatchWrite), parameterRef(CONDITIONAL.ifNoneMatchWrite));
      responses['412'] = responseRef(CONDITIONAL.preconditionFailed);
      if (requireIfMatch) responses['428'] = responseRef(CONDITIONAL.preconditionRequired);
      break;
    case 'bulk':
      parameters.push(parameterRef(CONDITIONAL.ifMatchBulk));
      responses['412'] = responseRef(CONDITIONAL.preconditionFailed);
      if (requireIfMatch) responses['428'] = responseRef(CONDITIONAL.preconditionRequired);
      break;
    case 'none':
      return { ...operation, responses };
  }
  return { ...operation, parameters, responses: sortedResponses(responses) };
}

/** Responses by status, ranges after the statuses they cover, for a document that reads in order. */
function sortedResponses(responses: Record<string, OpenApiObject>): Record<string, OpenApiObject> {
  const key = (status: string) => status.replace(/X/g, '9');
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => key(a).localeCompare(key(b))));
}
