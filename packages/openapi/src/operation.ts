import type { HttpMethod } from '@colapi/schema';
import type { OpenApiObject, RouteEntry } from '@colapi/wire-format';
import { pathParameters, readFromParameter } from './parameters.js';

/** Builds one operation of a route: `id` and `summary`, the format's own parameters and responses, and `extra` (a requestBody). */
export type OperationBuilder = (
  id: string,
  summary: string,
  parameters: OpenApiObject[],
  responses: OpenApiObject,
  extra?: OpenApiObject,
) => OpenApiObject;

/**
 * The operation builder of `method` on `route`: the operationId is `<collection>.<id>`, the collection its
 * tag; the path parameters come first, then Colapi-Read-From on a GET, then the format's parameters; the
 * format's error responses (`errors`, built when the operation is) follow its own.
 */
export function operationBuilder(route: RouteEntry, method: HttpMethod, errors: () => OpenApiObject): OperationBuilder {
  const c = route.collection;
  return (id, summary, parameters, responses, extra = {}) => ({
    operationId: `${c.name}.${id}`,
    summary,
    tags: [c.name],
    parameters: [...pathParameters(route), ...(method === 'GET' ? [readFromParameter] : []), ...parameters],
    ...extra,
    responses: { ...responses, ...errors() },
  });
}
