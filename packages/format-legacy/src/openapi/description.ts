import type { HttpMethod } from '@colapi/schema';
import { AGGREGATE_FUNCTIONS, type OperatorSet } from '@colapi/query-ast';
import {
  callbackParameter,
  filterSchema,
  functionSchema,
  jsonQuery,
  jsonResponse,
  noContent,
  operationBuilder,
  query,
} from '@colapi/openapi';
import type { DescriptionContext, OpenApiDescription, OpenApiObject, RouteEntry } from '@colapi/wire-format';
import { JSON_MEDIA_TYPE as MEDIA } from '../media-type.js';
import * as s from './schemas.js';

const callback = callbackParameter(
  'The argument is {meta, data}: meta holds status and each response header as a member (Link parsed into [{url, rel, …}]), data the JSON body.',
);

const LINK = {
  Link: {
    description:
      'RFC 8288 links to the first, last, previous and next pages; left out when longer than 8,192 characters (a long q is repeated in each link), as page and total_pages in the body tell the same.',
    schema: { type: 'string' },
  },
};

function pageParameters(ctx: DescriptionContext): OpenApiObject[] {
  return [
    query('page', 'The page, from 1.', { type: 'integer', minimum: 1, default: 1 }),
    query('results_per_page', `Instances per page; more than ${ctx.limits.maxPageSize} is lowered to it.`, {
      type: 'integer',
      minimum: 1,
      default: ctx.limits.defaultPageSize,
    }),
  ];
}

const errors = (ctx: DescriptionContext): OpenApiObject => ({
  '4XX': jsonResponse('The request was refused; message says why.', MEDIA, s.errorObject(ctx)),
});
const body = (schema: Record<string, unknown>): OpenApiObject => ({ required: true, content: { [MEDIA]: { schema } } });

function operation(
  route: RouteEntry,
  method: HttpMethod,
  ctx: DescriptionContext,
  operators: OperatorSet,
): OpenApiObject | undefined {
  const { collection: c, relationship: rel, target } = route;
  const op = operationBuilder(route, method, () => errors(ctx));
  const ok = (schema: Record<string, unknown>, status = '200', description = 'OK') => ({
    [status]: jsonResponse(description, MEDIA, schema),
  });
  const q = (collection = c) =>
    jsonQuery(
      'q',
      'A search object: filters, disjunction, limit, offset, order_by, group_by, single.',
      s.search(ctx, collection, operators),
      {
        filters: [{ name: [...collection.columns.keys()][1] ?? collection.model.keyColumns[0], op: 'is_not_null' }],
      },
    );
  const bulk = () =>
    op(
      `update-many.${method.toLowerCase()}`,
      `Update every ${c.name} matching q (all without it)`,
      [q()],
      ok(s.modified(ctx), '201', 'Updated.'),
      {
        requestBody: body(s.bulkUpdate(ctx, c, operators)),
      },
    );
  const update = () =>
    op(`update.${method.toLowerCase()}`, `Update one of ${c.name}`, [], ok(s.object(ctx, c)), {
      requestBody: body(s.input(ctx, c, 'update')),
    });
  switch (`${route.kind} ${method}`) {
    case 'collection GET':
      return op('list', `Search ${c.name}`, [q(), ...pageParameters(ctx), callback], {
        '200': {
          description: 'The list object; with single true in q, the one matching object.',
          headers: LINK,
          content: { [MEDIA]: { schema: { anyOf: [s.list(ctx, c), s.object(ctx, c)] } } },
        },
      });
    case 'collection POST':
      return op(
        'create',
        `Create one of ${c.name}`,
        [],
        {
          '201': jsonResponse('Created.', MEDIA, s.object(ctx, c), {
            Location: { description: 'The URL of the new instance.', schema: { type: 'string' } },
          }),
        },
        { requestBody: body(s.input(ctx, c, 'create')) },
      );
    case 'collection PATCH':
    case 'collection PUT':
      return bulk();
    case 'resource GET':
      return op('get', `Fetch one of ${c.name}`, [callback], ok(s.object(ctx, c)));
    case 'resource PATCH':
    case 'resource PUT':
      return update();
    case 'resource DELETE':
      return op('delete', `Delete one of ${c.name}`, [], { '204': noContent });
    case 'related GET':
      // A list object, for a to-one relationship too (of none or one instance); with q.single the one object.
      return op(
        `${rel!.name}.list`,
        `List the ${rel!.name} of one of ${c.name}`,
        [q(target!), ...pageParameters(ctx), callback],
        {
          '200': {
            description: 'The list object; with single true in q, the one matching object.',
            headers: LINK,
            content: { [MEDIA]: { schema: { anyOf: [s.list(ctx, target!), s.object(ctx, target!)] } } },
          },
        },
      );
    case 'related-item GET':
      return op(
        `${rel!.name}.item`,
        `Fetch one of the ${rel!.name} of one of ${c.name}`,
        [callback],
        ok(s.object(ctx, target!)),
      );
    case 'related-item DELETE':
      return op(`${rel!.name}.remove`, `Remove one of the ${rel!.name} from the relationship (it is not deleted)`, [], {
        '204': noContent,
      });
    case 'evaluate GET':
      return op(
        'evaluate',
        `Evaluate SQL functions over ${c.name}`,
        [
          {
            // Without q, or with an empty one, the server answers 400; q={} (no functions) answers {}.
            ...jsonQuery(
              'q',
              'An object {functions: [{name, field}, …]} and, optionally, filters. Required; {} asks for no functions and answers {}.',
              {
                type: 'object',
                properties: {
                  functions: { type: 'array', items: functionSchema(c, Object.keys(AGGREGATE_FUNCTIONS)) },
                  filters: {
                    type: 'array',
                    items: filterSchema(c, ctx, { prefix: 'legacy', operators: operators, relationSeparator: '__' }),
                  },
                },
              },
              { functions: [{ name: 'count', field: c.model.keyColumns[0] }] },
            ),
            required: true,
          },
          callback,
        ],
        ok(s.functionResults(ctx)),
      );
    default:
      return undefined;
  }
}

/** Format B in OpenAPI, filters described with the operator spellings the format was built with. */
export function legacyDescription(operators: OperatorSet): OpenApiDescription {
  return {
    summary: `Plain JSON (${MEDIA}): lists are objects with num_results, total_pages, page and objects; searches travel in q.`,
    operation: (route, method, ctx) => operation(route, method, ctx, operators),
  };
}
