import { ApiError, type OperationResult, type ResourceNode } from '@colapi/query-ast';
import type { AtomicCodec, AtomicOutcome, DecodeContext, HttpRequest, HttpResponse } from '@colapi/wire-format';
import { encodeErrorDocument } from '../encode.js';
import { JSONAPI_MEDIA_TYPE } from '../media-type.js';
import { appliedMediaType, jsonApi11, negotiate11 } from '../negotiation.js';
import { resourceObject, type ResourceObject } from '../resource-object.js';
import { atomicOperation } from './atomic-openapi.js';
import { atomicPlan, locate } from './atomic-plan.js';

/** The URI of JSON:API's Atomic Operations extension. */
export const ATOMIC_EXT = 'https://jsonapi.org/ext/atomic';

const SUPPORT = { extensions: new Set([ATOMIC_EXT]), profiles: new Set<string>() };
const ATOMIC_TYPE = appliedMediaType([ATOMIC_EXT]);
const NEEDED = `${JSONAPI_MEDIA_TYPE}; ext="${ATOMIC_EXT}"`;

const json = (v: unknown) => JSON.stringify(v);

/**
 * Whether an update's answer must show the resource: when the server changed anything the client did not
 * send (a default, a trigger, a generated column), the resource as it now is; else nothing (`{}`).
 */
function changedBeyondRequest(outcome: AtomicOutcome, after: ResourceObject, before: ResourceObject | undefined) {
  const { operation } = outcome;
  if (operation.kind !== 'update' || !before) return true;
  const sent = operation.write.values;
  for (const [name, value] of Object.entries(after.attributes ?? {})) {
    const expected = name in sent ? sent[name] : before.attributes?.[name];
    if (json(value) !== json(expected)) return true;
  }
  for (const [name, rel] of Object.entries(after.relationships ?? {})) {
    if (name in operation.write.relationships) continue;
    if (json(rel.data) !== json(before.relationships?.[name]?.data)) return true;
  }
  return false;
}

const nodeOf = (result: OperationResult | undefined): ResourceNode | undefined =>
  result?.kind === 'resource' ? (result.resource ?? undefined) : undefined;

/** Format A's side of the Atomic Operations extension. */
export function jsonApiAtomicCodec(): AtomicCodec {
  return {
    path: 'operations',
    negotiate(request: HttpRequest) {
      const { ext, acceptedExt } = negotiate11(request, SUPPORT, ATOMIC_EXT);
      if (request.hasBody && !ext.includes(ATOMIC_EXT))
        throw new ApiError(415, 'Unsupported Media Type', `atomic operations are sent as Content-Type ${NEEDED}`);
      if (acceptedExt && !acceptedExt.includes(ATOMIC_EXT))
        throw new ApiError(406, 'Not Acceptable', `atomic operations are answered as ${NEEDED}: Accept must allow it`);
    },
    plan: atomicPlan,
    locate,
    describe: (ctx) => atomicOperation(ctx, ATOMIC_TYPE, ATOMIC_EXT),
    encode(request: HttpRequest, _steps, outcomes, ctx: DecodeContext): HttpResponse {
      const { registry } = ctx;
      const results = outcomes.map((outcome) => {
        const node = nodeOf(outcome.result);
        if (!node) return {};
        const { query } = outcome.operation as { query: { fields: Record<string, readonly string[]> } };
        const after = resourceObject(node, request.base, registry, query);
        const previous = nodeOf(outcome.before);
        const before = previous && resourceObject(previous, request.base, registry, query);
        return changedBeyondRequest(outcome, after, before) ? { data: after } : {};
      });
      if (results.every((r) => !('data' in r))) return { status: 204, headers: { vary: 'Accept' } };
      return {
        status: 200,
        headers: { 'content-type': ATOMIC_TYPE, vary: 'Accept' },
        body: { jsonapi: jsonApi11([ATOMIC_EXT]), 'atomic:results': results },
      };
    },
    encodeErrors(_request, status, errors) {
      // Refused at negotiation, the answer does not apply the extension.
      if (status === 406 || status === 415) return encodeErrorDocument(status, errors, JSONAPI_MEDIA_TYPE);
      const plain = encodeErrorDocument(status, errors, ATOMIC_TYPE);
      return { ...plain, body: { ...(plain.body as object), jsonapi: jsonApi11([ATOMIC_EXT]) } };
    },
  };
}
