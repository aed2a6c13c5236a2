import type { CollectionSchema, HttpMethod, RelationshipSchema } from '@colapi/schema';
import { AGGREGATE_FUNCTIONS, ALL_OPERATOR_SPELLINGS } from '@colapi/query-ast';
import {
  callbackParameter,
  filterSchema,
  functionSchema,
  jsonQuery,
  jsonResponse,
  noContent,
  operationBuilder,
  query,
  resourceTagWhenFound,
} from '@colapi/openapi';
import type { DescriptionContext, OpenApiDescription, OpenApiObject, RouteEntry } from '@colapi/wire-format';
import { JSONAPI_MEDIA_TYPE as MEDIA } from '../media-type.js';
import * as s from './schemas.js';

const callback = callbackParameter(
  'The argument is the JSON:API document itself, with the real status added as meta.status.',
);

/** The collections a request on `collection` may name in fields[…] and include: itself and what it reaches. */
function reachable(collection: CollectionSchema, ctx: DescriptionContext): CollectionSchema[] {
  const seen = new Map([[collection.name, collection]]);
  let frontier = [collection];
  for (let depth = 0; depth < ctx.limits.maxIncludeDepth; depth++) {
    const next: CollectionSchema[] = [];
    for (const c of frontier) {
      for (const rel of c.relationships.values()) {
        const t = ctx.registry.target(rel);
        if (!seen.has(t.name)) {
          seen.set(t.name, t);
          next.push(t);
        }
      }
    }
    frontier = next;
  }
  return [...seen.values()];
}

function shapeParameters(collection: CollectionSchema, ctx: DescriptionContext): OpenApiObject[] {
  const out: OpenApiObject[] = [];
  if (collection.relationships.size) {
    out.push(
      query(
        'include',
        `Relationship paths to include in full, comma-separated (e.g. ${[...collection.relationships.keys()][0]}), at most ${ctx.limits.maxIncludeDepth} deep.`,
        { type: 'string' },
      ),
    );
  }
  out.push(
    query('only', `The fields of ${collection.name} to show, comma-separated; id and type always appear.`, {
      type: 'string',
    }),
  );
  for (const c of reachable(collection, ctx)) {
    out.push(
      query(`fields[${c.name}]`, `Sparse fieldset: the fields of ${c.name} to show, comma-separated.`, {
        type: 'string',
      }),
    );
  }
  out.push(callback);
  return out;
}

/** A relationship's linkage: include paths start with the relationship, fields[…] shape the included resources. */
function relationshipParameters(
  rel: RelationshipSchema,
  target: CollectionSchema,
  ctx: DescriptionContext,
): OpenApiObject[] {
  const example = [...target.relationships.keys()][0];
  return [
    query(
      'include',
      `Relationship paths to include in full, comma-separated, each starting with ${rel.name} (e.g. ${example ? `${rel.name}.${example}` : rel.name}), at most ${ctx.limits.maxIncludeDepth} deep.`,
      { type: 'string' },
    ),
    ...reachable(target, ctx).map((c) =>
      query(`fields[${c.name}]`, `Sparse fieldset: the fields of included ${c.name} to show, comma-separated.`, {
        type: 'string',
      }),
    ),
    callback,
  ];
}

function listParameters(collection: CollectionSchema, ctx: DescriptionContext): OpenApiObject[] {
  const { maxPageSize, defaultPageSize } = ctx.limits;
  const columns = [...collection.columns.keys()];
  return [
    jsonQuery(
      'filter[objects]',
      'A JSON list of filter objects; a resource is returned only when it matches all of them.',
      {
        type: 'array',
        items: filterSchema(collection, ctx, { prefix: 'jsonapi', operators: ALL_OPERATOR_SPELLINGS }),
      },
      [{ name: columns[1] ?? columns[0], op: 'is_not_null' }],
    ),
    query('filter[single]', 'With 1 the response is the one matching resource, and 404 when none or several match.', {
      enum: ['0', '1'],
    }),
    query(
      'sort',
      `Fields to sort by, comma-separated, - for descending; to-one paths such as relation.field are allowed. Fields: ${columns.join(', ')}.`,
      { type: 'string' },
    ),
    query('group', 'Fields to group by, comma-separated: one resource per distinct value.', { type: 'string' }),
    query('page[number]', 'The page, from 1.', { type: 'integer', minimum: 1, default: 1 }),
    query('page[size]', 'Resources per page.', {
      type: 'integer',
      minimum: 1,
      maximum: maxPageSize,
      default: defaultPageSize,
    }),
    query(
      'page[after]',
      "A cursor (an item's meta.page.cursor): the page after it, read by cursor (the JSON:API cursor pagination profile).",
      { type: 'string' },
    ),
    query('page[before]', 'A cursor: the page before it, read by cursor; with page[after], the range between.', {
      type: 'string',
    }),
    ...shapeParameters(collection, ctx),
  ];
}

const errors = (ctx: DescriptionContext): OpenApiObject => ({
  '4XX': jsonResponse('The request was refused; the errors say why and where.', MEDIA, s.errorDocument(ctx)),
});

const body = (schema: Record<string, unknown>): OpenApiObject => ({ required: true, content: { [MEDIA]: { schema } } });

function operation(route: RouteEntry, method: HttpMethod, ctx: DescriptionContext): OpenApiObject | undefined {
  const { collection: c, relationship: rel, target } = route;
  const op = operationBuilder(route, method, () => errors(ctx));
  const ok = (schema: Record<string, unknown>, description = 'OK') => ({
    '200': jsonResponse(description, MEDIA, schema),
  });
  switch (`${route.kind} ${method}`) {
    case 'collection GET':
      return op('list', `List ${c.name}`, listParameters(c, ctx), ok(s.collectionDocument(ctx, c)));
    case 'collection POST':
      return op(
        'create',
        `Create one of ${c.name}`,
        shapeParameters(c, ctx),
        {
          '201': jsonResponse('Created.', MEDIA, s.resourceDocument(ctx, c), {
            Location: { description: 'The URL of the new resource.', schema: { type: 'string' } },
          }),
        },
        { requestBody: body(s.writeDocument(ctx, c, 'create')) },
      );
    case 'resource GET':
      return op('get', `Fetch one of ${c.name}`, shapeParameters(c, ctx), ok(s.resourceDocument(ctx, c)));
    case 'resource PATCH':
      return op('update', `Update one of ${c.name}`, shapeParameters(c, ctx), ok(s.resourceDocument(ctx, c)), {
        requestBody: body(s.writeDocument(ctx, c, 'update')),
      });
    case 'resource DELETE':
      return op('delete', `Delete one of ${c.name}`, [], { '204': noContent });
    case 'related GET':
      return rel!.cardinality === 'one'
        ? op(
            `${rel!.name}.get`,
            `Fetch the ${rel!.name} of one of ${c.name}`,
            shapeParameters(target!, ctx),
            // The related resource's own version, when there is one (data: null has none).
            { '200': jsonResponse('OK', MEDIA, s.resourceDocument(ctx, target!, true), resourceTagWhenFound()) },
          )
        : op(
            `${rel!.name}.list`,
            `List the ${rel!.name} of one of ${c.name}`,
            listParameters(target!, ctx),
            ok(s.collectionDocument(ctx, target!)),
          );
    case 'related-item GET':
      return op(
        `${rel!.name}.item`,
        `Fetch one of the ${rel!.name} of one of ${c.name}`,
        shapeParameters(target!, ctx),
        ok(s.resourceDocument(ctx, target!)),
      );
    case 'relationship GET':
      return op(
        `${rel!.name}.linkage`,
        `The linkage of ${rel!.name}`,
        relationshipParameters(rel!, target!, ctx),
        ok(s.linkageReadDocument(ctx, c, rel!)),
      );
    case 'relationship PATCH':
      return op(
        `${rel!.name}.replace`,
        `Replace the linkage of ${rel!.name}`,
        [],
        { '204': noContent },
        { requestBody: body(s.linkageDocument(ctx, c, rel!)) },
      );
    case 'relationship POST':
    case 'relationship DELETE': {
      // Adding to or removing from a relationship is for to-many ones; a to-one answers 405.
      if (rel!.cardinality === 'one') return undefined;
      const verb = method === 'POST' ? 'add' : 'remove';
      return op(
        `${rel!.name}.${verb}`,
        `${verb === 'add' ? 'Add to' : 'Remove from'} ${rel!.name}`,
        [],
        { '204': noContent },
        {
          requestBody: body(s.linkageDocument(ctx, c, rel!)),
        },
      );
    }
    case 'evaluate GET':
      return op(
        'evaluate',
        `Evaluate SQL functions over ${c.name}`,
        [
          {
            ...jsonQuery(
              'functions',
              'A JSON list of function objects {name, field}; [] asks for none. Required.',
              { type: 'array', items: functionSchema(c, Object.keys(AGGREGATE_FUNCTIONS)) },
              [{ name: 'count', field: c.model.keyColumns[0] }],
            ),
            required: true,
          },
          jsonQuery('filter[objects]', 'Evaluate over the resources matching these filter objects only.', {
            type: 'array',
            items: filterSchema(c, ctx, { prefix: 'jsonapi', operators: ALL_OPERATOR_SPELLINGS }),
          }),
          callback,
        ],
        {
          // The specification's samples ask for application/json here, and the server answers in kind.
          '200': {
            description: 'OK',
            content: {
              [MEDIA]: { schema: s.valuesDocument(ctx) },
              'application/json': { schema: s.valuesDocument(ctx) },
            },
          },
        },
      );
    default:
      return undefined;
  }
}

/** Format A in OpenAPI: JSON:API 1.0 documents, parameters and bodies of each path. */
export const JSONAPI_DESCRIPTION: OpenApiDescription = {
  summary: `Documents follow JSON:API 1.0 (${MEDIA}); requests send Accept: ${MEDIA}, and Content-Type: ${MEDIA} with a body.`,
  operation,
};
