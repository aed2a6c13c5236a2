import type { AuthenticatorOptions } from '@colapi/auth';

/**
 * Identity and access control (`createApi({ access })`): the `auth` and `roles` members of
 * colapi.config.json, in the same shape. `auth` is checked by @colapi/auth's validateAuthConfig, `roles` by
 * @colapi/access's compileRules against the registry, both when createApi runs: a mistake fails the start.
 */
export interface AccessOptions {
  /** The token verifiers, the role claim, the clock tolerance and the anonymous role. */
  readonly auth: unknown;
  /** The rules per role and collection; a `where` may also be a function of the caller's identity. */
  readonly roles: unknown;
  /** Told of every 401, 403 and successful write, as one JSON line (never the token); default: none. */
  readonly audit?: (line: string) => void;
  /** JWKS cache settings and the like, for tests and unusual providers. */
  readonly authenticator?: Omit<AuthenticatorOptions, 'knownRoles'>;
}
