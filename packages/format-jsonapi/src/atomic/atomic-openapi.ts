import { componentName } from '@colapi/openapi';
import type { DescriptionContext, JsonSchema, OpenApiObject } from '@colapi/wire-format';
import { resource } from '../openapi/schemas.js';

const name = (...parts: string[]) => componentName('jsonapi', 'atomic', ...parts);

/** The `jsonapi` member of an atomic answer: version 1.1, with the extension. */
const jsonapi = (ext: string): JsonSchema => ({
  type: 'object',
  required: ['version', 'ext'],
  properties: {
    version: { const: '1.1' },
    ext: { type: 'array', items: { type: 'string' }, contains: { const: ext } },
  },
});

const reference: JsonSchema = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { type: 'string' },
    id: { type: 'string' },
    lid: { type: 'string', description: 'A local id an earlier add of this request assigned; never beside id.' },
    relationship: { type: 'string' },
  },
};

/**
 * The OpenAPI operation of `POST <prefix>/operations`: the request and answer documents of the Atomic
 * Operations extension, each result's resource one of the collections' resource objects.
 */
export function atomicOperation(ctx: DescriptionContext, mediaType: string, ext: string): OpenApiObject {
  const collections = [...ctx.registry.collections.values()];
  const operation = ctx.schema(name('operation'), () => ({
    type: 'object',
    required: ['op'],
    properties: {
      op: { enum: ['add', 'update', 'remove'] },
      ref: reference,
      href: {
        type: 'string',
        description: 'A collection, resource or relationship path of this API; never beside ref.',
      },
      data: {
        description:
          'A resource object as the create or update of its collection takes it (with `lid` in place of `id` for a resource an earlier operation added), or the linkage of a relationship.',
      },
      meta: { type: 'object' },
    },
  }));
  const results = ctx.schema(name('results-document'), () => ({
    type: 'object',
    required: ['atomic:results'],
    properties: {
      jsonapi: jsonapi(ext),
      'atomic:results': {
        type: 'array',
        description: 'One result per operation, in order: `{}` when the operation answers no resource.',
        items: {
          type: 'object',
          properties: { data: { anyOf: collections.map((c) => resource(ctx, c)) }, meta: { type: 'object' } },
        },
      },
    },
  }));
  const errors = ctx.schema(name('error-document'), () => ({
    type: 'object',
    required: ['errors'],
    properties: {
      jsonapi: jsonapi(ext),
      errors: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            status: { type: 'string' },
            title: { type: 'string' },
            detail: { type: 'string' },
            source: {
              type: 'object',
              properties: {
                pointer: { type: 'string', description: 'e.g. /atomic:operations/3/data/attributes/title' },
                parameter: { type: 'string' },
              },
            },
          },
        },
      },
    },
  }));
  const error = (description: string) => ({ description, content: { [mediaType]: { schema: errors } } });
  return {
    operationId: 'atomic-operations',
    summary: 'Runs several operations in one transaction (JSON:API Atomic Operations)',
    description:
      'Every operation is checked before any runs (all malformed ones are answered together); then all run in order in one transaction, and any failure undoes every one.',
    requestBody: {
      required: true,
      content: {
        [mediaType]: {
          schema: {
            type: 'object',
            required: ['atomic:operations'],
            properties: { 'atomic:operations': { type: 'array', minItems: 1, items: operation } },
          },
        },
      },
    },
    responses: {
      '200': { description: 'Every operation ran.', content: { [mediaType]: { schema: results } } },
      '204': { description: 'Every operation ran, and none answers a resource.' },
      '400': error('A malformed request or operation, or a query parameter.'),
      '403': error('An operation the collection or the caller may not do.'),
      '404': error('An operation on a resource that does not exist.'),
      '406': error('Accept does not allow the extension.'),
      '409': error('An operation in conflict with the data.'),
      '413': error('More operations than the server takes in one request.'),
      '415': error('Content-Type is not the extension’s media type.'),
    },
  };
}
