import { compileRules, type AccessPolicy } from '@colapi/access';
import { auditLine, AuthError, createAuthenticator, validateAuthConfig, type Authenticator } from '@colapi/auth';
import { ApiError } from '@colapi/query-ast';
import type { Registry } from '@colapi/schema';
import type { Dialect } from '@colapi/sql-compiler';
import type { Knex } from 'knex';
import type { HttpRequest, HttpResponse } from '@colapi/wire-format';
import type { Executor } from '../executor/executor.js';
import type { AccessOptions } from './access-options.js';
import { Caller } from './caller.js';
import { roleView, type RoleView } from './role-view.js';
import { writeRulesOf } from './write-rules-of.js';

const TITLES: Readonly<Record<number, string>> = { 401: 'Unauthorized', 403: 'Forbidden' };

/** @colapi/auth's reason for each 401 or 403 identify() threw, for metrics; kept off the error's shape. */
const REASONS = new WeakMap<object, string>();

/** Why access control refused a request: @colapi/auth's failure reason, else `rule` (a role's rules). */
export function refusalReason(error: unknown): string {
  return (typeof error === 'object' && error !== null && REASONS.get(error)) || 'rule';
}

/**
 * Identity and rules for one API, checked when it is created: who a request's caller is, and what its
 * role sees. Each role's view is built here, once, so that a rule the registry cannot narrow to fails the
 * start rather than a request.
 */
export class AccessControl {
  readonly policy: AccessPolicy;
  readonly authenticator: Authenticator;
  readonly #views = new Map<string, RoleView>();
  /**
   * The caller of each identity the authenticator keeps (it answers the same object for a token it verified
   * before), so that a client's requests share one, with its scopes resolved once; not when a rule calls a
   * function, whose filter is asked for again on every request.
   */
  readonly #callers = new WeakMap<object, Caller>();
  /** Each kept caller's executor (`executorFor`). */
  readonly #executors = new WeakMap<Caller, Executor>();

  /** Native mode (`auth.databaseRoles`): what each request's transaction sets first. */
  readonly #settings: Dialect['localSettings'];
  readonly #anonymous: boolean;

  constructor(
    private readonly options: AccessOptions,
    readonly registry: Registry,
    dialect: Dialect,
  ) {
    const auth = validateAuthConfig(options.auth, 'access.auth');
    if (auth.databaseRoles && !dialect.localSettings) {
      throw new Error(
        `access.auth.databaseRoles: ${dialect.name} has no transaction-local role and settings; it needs PostgreSQL`,
      );
    }
    this.#settings = auth.databaseRoles ? dialect.localSettings : undefined;
    this.#anonymous = auth.anonymous !== undefined;
    this.policy = compileRules({ roles: options.roles }, registry, 'access');
    this.authenticator = createAuthenticator(auth, { ...options.authenticator, knownRoles: this.policy.roles });
    for (const role of this.policy.roles) this.#views.set(role, roleView(this.policy, registry, role));
  }

  /** The caller of a request, from its `Authorization` header only; 401 or 403 as @colapi/auth decides. */
  async identify(authorization: string | undefined): Promise<Caller> {
    try {
      const identity = await this.authenticator.authenticate(authorization);
      if (this.policy.dynamic) return new Caller(identity, this.policy, this.registry);
      let caller = this.#callers.get(identity);
      if (!caller) this.#callers.set(identity, (caller = new Caller(identity, this.policy, this.registry)));
      return caller;
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      const refusal = new ApiError(error.status, TITLES[error.status]!, error.detail, undefined, {
        'www-authenticate': error.wwwAuthenticate,
      });
      REASONS.set(refusal, error.reason);
      throw refusal;
    }
  }

  /**
   * One audit line for a request whose answer is a 401 or a 403, or a write that succeeded: who (the
   * token's `sub` and role, when it got that far), what, and the status. Never the token.
   */
  audit(request: HttpRequest, response: HttpResponse, caller: Caller | undefined): void {
    const { status } = response;
    const write = request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS';
    if (!this.options.audit || !(status === 401 || status === 403 || (write && status >= 200 && status < 300))) return;
    this.options.audit(
      auditLine({
        sub: caller?.identity.sub ?? null,
        role: caller?.identity.role ?? null,
        method: request.method,
        collection: request.route.collection || null,
        // A create is addressed by no id: its new one is the last segment of its Location.
        id: request.route.id ?? response.headers.location?.split('/').pop() ?? null,
        status,
      }),
    );
  }

  /**
   * Native mode: the statement a request's transaction runs first, acting as the caller's role with its
   * claims, method and path in `request.*` settings, as PostgREST's policies read them. Undefined otherwise.
   * Only a role the rules name gets here (any other is 403 first), so no other role is ever switched to.
   */
  prelude(caller: Caller, request: HttpRequest): ((db: Knex) => Promise<unknown>) | undefined {
    const settings = this.#settings;
    if (!settings) return undefined;
    const values: [string, string][] = [
      ['role', caller.identity.role],
      ['request.jwt.claims', JSON.stringify(caller.identity.claims)],
      ['request.method', request.method],
      ['request.path', request.url.pathname],
    ];
    // Awaiting a Raw runs it.
    return (db) => Promise.resolve(settings(db, values));
  }

  /**
   * What the OpenAPI document shows the caller of `authorization` (its role's collections, fields and
   * methods), keyed by role; 401 or 403 for a token that would be refused. For openApiRoute.
   */
  async describeFor(authorization: string | undefined) {
    const caller = await this.identify(authorization);
    const role = caller.identity.role;
    return {
      key: role,
      registry: this.#views.get(role)!.described,
      bearer: { optional: this.anonymous },
    };
  }

  /** Whether a request without credentials is served (as the anonymous role). */
  get anonymous(): boolean {
    return this.#anonymous;
  }

  /**
   * The executor of the caller's requests: its statements compiled with its row scopes, its collections its
   * role's view, its writes under its rules. Made once per caller and kept with it, but in native mode, where
   * each request's transaction starts by setting that request's own method and path.
   */
  executorFor(executor: Executor, caller: Caller, request: HttpRequest): Executor {
    const prelude = this.prelude(caller, request);
    const make = () =>
      executor.view(executor.compiler.scoped(caller), this.view(caller).read, writeRulesOf(caller), prelude);
    if (prelude) return make();
    let run = this.#executors.get(caller);
    if (!run) this.#executors.set(caller, (run = make()));
    return run;
  }

  /** What the caller's role sees. */
  view(caller: Caller): RoleView {
    return this.#views.get(caller.identity.role)!;
  }
}
