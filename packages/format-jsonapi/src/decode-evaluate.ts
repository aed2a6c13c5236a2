import type { CollectionSchema } from '@colapi/schema';
import { ApiError, parseFunctionCalls, parseJsonParameter, type Operation } from '@colapi/query-ast';
import type { DecodeContext, HttpRequest } from '@colapi/wire-format';
import { parseJsonApiQuery } from './parse-query.js';

/** `GET /api/eval/<collection>?functions=[…]&filter[objects]=[…]` */
export function decodeEvaluate(request: HttpRequest, collection: CollectionSchema, ctx: DecodeContext): Operation {
  const params = new URLSearchParams(request.url.searchParams);
  const text = params.get('functions');
  if (params.getAll('functions').length > 1)
    throw ApiError.badRequest('query parameter functions is given more than once', { parameter: 'functions' });
  params.delete('functions');
  for (const name of params.keys()) {
    if (name !== 'filter[objects]' && name !== 'callback') {
      throw ApiError.badRequest(`query parameter ${name} does not apply to function evaluation`, { parameter: name });
    }
  }
  const source = { parameter: 'functions' };
  // Required: an evaluation without it is most likely a client bug; `functions=[]` asks for nothing on purpose.
  if (text === null)
    throw ApiError.badRequest(
      'query parameter functions is required: a JSON list of function objects {name, field}, [] for none',
      source,
    );
  const functions = parseFunctionCalls(parseJsonParameter(text, 'functions'), collection, source, 'functions');
  const { filter } = parseJsonApiQuery(params, collection, ctx, 'list');
  return { kind: 'evaluate', collection, functions, ...(filter ? { filter } : {}) };
}
