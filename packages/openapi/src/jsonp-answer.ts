import type { OpenApiObject } from '@colapi/wire-format';
import { JSONP_MEDIA_TYPE } from './parameters.js';

const JSONP_ANSWER = {
  schema: { type: 'string', description: 'A script /**/callback(argument); the argument carries the real status.' },
};

/**
 * An operation that takes `callback` answers a JSONP script with status 200 whenever the answer has a body,
 * errors included (server-koa writes it; the format chooses the argument). Said once here, so that no
 * format can document the parameter and forget the answer.
 */
export function withJsonpAnswer(operation: OpenApiObject): OpenApiObject {
  const parameters = (operation.parameters ?? []) as OpenApiObject[];
  if (!parameters.some((p) => p.in === 'query' && p.name === 'callback')) return operation;
  const responses = operation.responses as Record<string, OpenApiObject>;
  const ok = responses['200'] ?? { description: 'With callback: the JSONP script, whatever the real status.' };
  const content = { ...(ok.content as Record<string, unknown> | undefined), [JSONP_MEDIA_TYPE]: JSONP_ANSWER };
  return { ...operation, responses: { ...responses, '200': { ...ok, content } } };
}
