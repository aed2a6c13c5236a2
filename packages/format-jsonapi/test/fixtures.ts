/**
 * The registry the unit tests of Format A share, of the models of @colapi/fixture-models: no database,
 * no HTTP. The request builder and the error assertions come from there too.
 */
import { article, collectionLookup, comment, nodeBuilder, person, tag } from '@colapi/fixture-models';
import { Registry } from '@colapi/schema';
import { DEFAULT_LIMITS } from '@colapi/query-ast';
import type { DecodeContext } from '@colapi/wire-format';

export { apiError, BASE, expectError, ORIGIN, request, routeOf, type RequestInit } from '@colapi/fixture-models';

export const registry = new Registry([
  { model: person, options: { additional_attributes: ['initial'], allow_functions: true } },
  { model: article },
  { model: comment, options: { methods: ['GET', 'POST', 'DELETE'] } },
  { model: tag, options: { allow_client_generated_ids: true } },
  {
    model: article,
    options: {
      name: 'locked_article',
      allow_to_many_replacement: false,
      allow_to_many_removal: false,
      methods: ['GET', 'POST', 'PATCH'],
    },
  },
  { model: person, options: { name: 'person_names', only: ['name'] } },
]);

export const collection = collectionLookup(registry);

export const ctx: DecodeContext = { registry, limits: DEFAULT_LIMITS, unsupportedOperator: () => undefined };

/** A resource as the executor would load it. */
export const node = nodeBuilder(collection);
