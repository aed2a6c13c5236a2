import { ApiError, type Operation, type OperationResult } from '@colapi/query-ast';
import {
  ApiErrors,
  type AtomicCodec,
  type AtomicOutcome,
  type DecodeContext,
  type HttpRequest,
  type HttpResponse,
  type Route,
} from '@colapi/wire-format';
import type Koa from 'koa';
import type { AccessControl } from '../access/access-control.js';
import { authorize } from '../access/authorize.js';
import type { Caller } from '../access/caller.js';
import type { RoleView } from '../access/role-view.js';
import type { ApiOptions } from '../api-options.js';
import type { Executor } from '../executor/executor.js';
import { inTransaction } from '../executor/transaction.js';
import { runOperation } from '../hooks.js';
import type { BodyReader } from '../stages/read-body.js';

/** The default of `maxAtomicOperations`. */
export const DEFAULT_MAX_ATOMIC_OPERATIONS = 100;

/** What the endpoint shares with the single requests' stages of createApi. */
export interface AtomicDependencies {
  readonly codec: AtomicCodec;
  readonly options: ApiOptions;
  readonly executor: Executor;
  readonly access: AccessControl | undefined;
  readonly contextsOf: (view: RoleView) => { read: DecodeContext; write: DecodeContext };
  readonly decodeContext: DecodeContext;
  readonly readBody: BodyReader;
  readonly failure: (error: unknown, route: Route) => Promise<ApiError>;
}

/** A step that failed while running: where it is in the request, and the collection it wrote. */
class StepFailure extends Error {
  constructor(
    readonly pointer: string,
    readonly collection: string,
    override readonly cause: unknown,
  ) {
    super('an atomic operation failed');
  }
}

export interface AtomicEndpoint {
  /** The path under the prefix. */
  readonly path: string;
  answer(ctx: Koa.Context, head: HttpRequest, seen: { caller?: Caller }): Promise<HttpResponse>;
  /** The error document of a refused or failed atomic request. */
  failed(head: HttpRequest, error: unknown): Promise<HttpResponse>;
}

/**
 * JSON:API's Atomic Operations at `POST <prefix>/operations`: every operation checked first, then all run in
 * order in one transaction on the primary, each exactly as its single request would run (access rules,
 * hooks, the executor's write paths), the whole transaction retried on a deadlock; any failure rolls back
 * every one.
 */
export function atomicEndpoint(deps: AtomicDependencies): AtomicEndpoint {
  const { codec, options, executor, access } = deps;
  const max = options.maxAtomicOperations ?? DEFAULT_MAX_ATOMIC_OPERATIONS;
  return {
    path: codec.path,
    async answer(ctx, head, seen) {
      codec.negotiate(head);
      const [parameter] = head.url.searchParams.keys();
      if (parameter !== undefined)
        throw ApiError.badRequest(`atomic operations take no query parameter: ${parameter}`, { parameter });
      const caller = access && (await access.identify(head.headers.authorization));
      seen.caller = caller;
      if (ctx.method === 'OPTIONS') return { status: 204, headers: { allow: 'POST, OPTIONS' } };
      if (ctx.method !== 'POST')
        throw new ApiError(
          405,
          'Method Not Allowed',
          `${ctx.method} is not allowed on ${ctx.path}: POST operations`,
          undefined,
          {
            allow: 'POST',
          },
        );
      const request = await deps.readBody(ctx, head);
      const view = caller && access.view(caller);
      const contexts = view ? deps.contextsOf(view) : { read: deps.decodeContext, write: deps.decodeContext };
      const steps = codec.plan(request, contexts.write, max);
      const run = caller ? access!.executorFor(executor, caller, head) : executor;
      // The step under way, and the one that threw: an error names its place in the request.
      let current = { pointer: steps[0]!.pointer, collection: '' };
      let failedStep: { pointer: string; collection: string } | undefined;
      const outcomes = await inTransaction(
        run.knex,
        run.compiler.dialect,
        async (trx) => {
          // A retried transaction starts over: nothing of an earlier attempt is kept.
          const ids = new Map<string, Map<string, string>>();
          const done: AtomicOutcome[] = [];
          try {
            if (run.prelude) await run.prelude(trx);
            for (const step of steps) {
              current = { pointer: step.pointer, collection: '' };
              let op: Operation = step.operation(ids, contexts.write);
              current = { pointer: step.pointer, collection: op.collection.name };
              if (caller) {
                op = { ...op, collection: view!.read.collection(op.collection.name)! } as Operation;
                authorize(caller, op);
              }
              // An update's resource just before it runs (after its before hooks), to tell what changed.
              let before: OperationResult | undefined;
              const { result } = await runOperation(
                options.hooks,
                op,
                { request, state: ctx.state, db: trx },
                async (o) => {
                  if (o.kind === 'update')
                    before = await run.run({ kind: 'fetch', collection: o.collection, id: o.id, query: o.query }, trx);
                  return run.run(o, trx);
                },
              );
              if (step.assigns && result.kind === 'resource' && result.resource) {
                const { type, lid } = step.assigns;
                let byLid = ids.get(type);
                if (!byLid) ids.set(type, (byLid = new Map()));
                byLid.set(lid, result.resource.id);
              }
              // The operation as the client sent it, before any hook: what a hook adds is the server's change.
              done.push({ operation: op, result, ...(before ? { before } : {}) });
            }
          } catch (error) {
            // Kept as it is (a deadlock must reach inTransaction to be retried); where it happened is noted.
            failedStep = current;
            throw error;
          }
          return done;
        },
        run.retryBudget,
      ).catch((error: unknown) => {
        throw new StepFailure(failedStep?.pointer ?? current.pointer, failedStep?.collection ?? '', error);
      });
      return codec.encode(request, steps, outcomes, contexts.read);
    },
    async failed(head, error) {
      if (error instanceof ApiErrors) return codec.encodeErrors(head, error.status, error.errors);
      if (error instanceof StepFailure) {
        const e = codec.locate(await deps.failure(error.cause, { collection: error.collection }), error.pointer);
        return codec.encodeErrors(head, e.status, [e]);
      }
      const e = await deps.failure(error, { collection: '' });
      return codec.encodeErrors(head, e.status, [e]);
    },
  };
}
