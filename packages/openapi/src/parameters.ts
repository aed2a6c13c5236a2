import type { JsonSchema, OpenApiObject, RouteEntry } from '@colapi/wire-format';
import { compositeIdDescription } from '@colapi/query-ast';

/** A query parameter whose value is a plain string or number. */
export function query(name: string, description: string, schema: JsonSchema, extra: OpenApiObject = {}): OpenApiObject {
  return { name, in: 'query', description, schema, ...extra };
}

/** A query parameter whose value is JSON text (`filter[objects]`, `q`): described by its parsed schema. */
export function jsonQuery(name: string, description: string, schema: JsonSchema, example?: unknown): OpenApiObject {
  return {
    name,
    in: 'query',
    description,
    content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
  };
}

/** The path id's description: for a composite key, how its parts are spelled too. */
function idDescription(route: RouteEntry): string {
  const { keyColumns } = route.collection.model;
  const own = `The id of a resource of ${route.collection.name}.`;
  return keyColumns.length > 1 ? `${own} ${compositeIdDescription(keyColumns)}` : own;
}

export function pathParameters(route: RouteEntry): OpenApiObject[] {
  const out: OpenApiObject[] = [];
  if (route.kind !== 'collection' && route.kind !== 'evaluate') {
    out.push({
      name: 'id',
      in: 'path',
      required: true,
      description: idDescription(route),
      schema: { type: 'string' },
    });
  }
  if (route.kind === 'related-item') {
    out.push({
      name: 'related_id',
      in: 'path',
      required: true,
      description: `The id of one of its ${route.relationship!.name}.`,
      schema: { type: 'string' },
    });
  }
  return out;
}

/** The header that sends a read to the primary where the server has read replicas (server-koa's READ_FROM_HEADER). */
export const readFromParameter: OpenApiObject = {
  name: 'Colapi-Read-From',
  in: 'header',
  description:
    'Where read replicas serve reads: primary reads from the primary, to see a write of your own at once; any (the default) lets a replica answer. Another value is 400.',
  schema: { type: 'string', enum: ['primary', 'any'] },
};

/** The media type of a JSONP answer (server-koa adds `; charset=utf-8`). */
export const JSONP_MEDIA_TYPE = 'application/javascript';

/**
 * The JSONP `callback` parameter; `argument` says what the function receives in the format at hand. The
 * generator documents the JSONP answer of every operation that takes it.
 */
export function callbackParameter(argument: string): OpenApiObject {
  return query(
    'callback',
    `JSONP: the answer becomes /**/callback(argument); with status 200, served as ${JSONP_MEDIA_TYPE}. ${argument}`,
    {
      type: 'string',
      pattern: '^[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)*$',
    },
  );
}

/** A response with a JSON body. */
export function jsonResponse(
  description: string,
  mediaType: string,
  schema: JsonSchema,
  headers?: OpenApiObject,
): OpenApiObject {
  return { description, ...(headers ? { headers } : {}), content: { [mediaType]: { schema } } };
}

export const noContent: OpenApiObject = { description: 'Done; no content.' };
