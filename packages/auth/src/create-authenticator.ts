import { createPublicKey, type KeyObject } from 'node:crypto';
import {
  decodeProtectedHeader,
  errors,
  type JWTPayload,
  type JWTVerifyGetKey,
  type JWTVerifyOptions,
  jwtVerify,
} from 'jose';
import type { JwsAlgorithm } from './algorithms.js';
import type { AuthConfig, VerifierConfig } from './auth-config.js';
import { AuthError, type AuthFailureReason } from './auth-error.js';
import { authErrorOf } from './auth-error-of.js';
import { readClaim } from './claim-path.js';
import type { Identity } from './identity.js';
import { JwksKeySet } from './jwks-key-set.js';
import { readBearerToken } from './read-bearer-token.js';
import { VerifiedTokens } from './verified-tokens.js';

/** Settings of an {@link Authenticator} that are not part of the `auth` configuration. */
export interface AuthenticatorOptions {
  /** The role names the API knows: a token with another role is refused (403 `unknown_role`). */
  readonly knownRoles?: Iterable<string>;
  /** Least time between two fetches of one JWKS, ms. Default 30 000. */
  readonly jwksCooldownMs?: number;
  /** A JWKS older than this is fetched again when next needed, ms. Default 600 000 (10 minutes). */
  readonly jwksMaxAgeMs?: number;
  /** Time allowed for one JWKS fetch, ms. Default 5 000. */
  readonly jwksTimeoutMs?: number;
  /** Told of each failed JWKS fetch, for a log (requests needing those keys are refused meanwhile). */
  readonly onJwksError?: (error: unknown, url: string) => void;
}

/** Verifies the credentials of requests. */
export interface Authenticator {
  readonly config: AuthConfig;
  /**
   * The identity of a request, from its `Authorization` header (undefined when it has none). Throws an
   * {@link AuthError} for missing (without an anonymous role), malformed or invalid credentials.
   */
  authenticate(authorization: string | undefined): Promise<Identity>;
}

interface Verifier {
  readonly config: VerifierConfig;
  readonly key: Uint8Array | KeyObject | JWTVerifyGetKey;
  readonly options: JWTVerifyOptions;
  /** What the verifier's keys are now: a static key never changes; a JWKS set changes with each fetch, and when stale. */
  readonly keys: () => unknown;
}

const STATIC_KEYS = () => 'static';

/**
 * An {@link Authenticator} for checked `auth` settings (see {@link validateAuthConfig}). A token is
 * accepted when one verifier whose algorithms include the token's `alg` verifies it: signature, a
 * required `exp`, `nbf`, and the verifier's `issuer` and `audience`. JWKS are fetched lazily.
 */
export function createAuthenticator(config: AuthConfig, options: AuthenticatorOptions = {}): Authenticator {
  const knownRoles = options.knownRoles === undefined ? undefined : new Set(options.knownRoles);
  if (knownRoles && config.anonymous !== undefined && !knownRoles.has(config.anonymous))
    throw new Error(`auth.anonymous: the role ${JSON.stringify(config.anonymous)} is not one of the known roles`);
  const verifiers = config.jwt.map((v) => verifier(v, config, options));
  const accepted = new Set<string>(config.jwt.flatMap((v) => v.algorithms));
  const verified = new VerifiedTokens(config.clockTolerance);
  // One object for every request without credentials, as a kept token answers one: what is resolved per identity is shared.
  const anonymous: Identity | undefined =
    config.anonymous === undefined
      ? undefined
      : Object.freeze({ role: config.anonymous, claims: Object.freeze({}), anonymous: true });

  const identityOf = (claims: JWTPayload): Identity => {
    if (claims.sub !== undefined && typeof claims.sub !== 'string')
      throw new AuthError('bad_claim', 'the "sub" claim must be a string');
    const role = readClaim(claims, config.roleClaim);
    if (typeof role !== 'string' || role === '')
      throw new AuthError('no_role', `the token has no role (a non-empty string at "${config.roleClaim}")`);
    if (knownRoles && !knownRoles.has(role))
      throw new AuthError('unknown_role', 'the token role is not a role this API knows');
    return Object.freeze({
      role,
      ...(claims.sub === undefined ? {} : { sub: claims.sub }),
      claims: Object.freeze(claims),
      anonymous: false,
    });
  };

  return {
    config,
    async authenticate(authorization) {
      const token = readBearerToken(authorization);
      if (token === undefined) {
        if (config.anonymous === undefined)
          throw new AuthError('missing', 'this API needs a bearer token (Authorization: Bearer <token>)');
        return anonymous!;
      }
      const known = verified.get(token);
      if (known) return known;
      const alg = algorithmOf(token, accepted);
      let failure: AuthError | undefined;
      for (const v of verifiers) {
        if (!v.config.algorithms.includes(alg)) continue;
        const stamp = v.keys();
        let claims: JWTPayload;
        try {
          claims = await verify(token, v);
        } catch (error) {
          failure = worse(failure, authErrorOf(error));
          continue;
        }
        const identity = identityOf(claims);
        verified.keep(token, identity, claims.exp, stamp, v.keys);
        return identity;
      }
      throw failure!;
    },
  };
}

function verifier(config: VerifierConfig, auth: AuthConfig, options: AuthenticatorOptions): Verifier {
  const keySet =
    config.kind === 'jwks'
      ? new JwksKeySet(config.jwksUrl, {
          cooldownMs: options.jwksCooldownMs ?? 30_000,
          maxAgeMs: options.jwksMaxAgeMs ?? 600_000,
          timeoutMs: options.jwksTimeoutMs ?? 5_000,
          onError: options.onJwksError,
        })
      : undefined;
  const key =
    config.kind === 'secret'
      ? new TextEncoder().encode(config.secret)
      : config.kind === 'publicKey'
        ? createPublicKey(config.publicKey)
        : keySet!.getKey;
  return {
    config,
    key,
    keys: keySet ? () => keySet.generation : STATIC_KEYS,
    options: {
      algorithms: [...config.algorithms],
      clockTolerance: auth.clockTolerance,
      requiredClaims: ['exp'],
      ...(config.issuer === undefined ? {} : { issuer: config.issuer }),
      ...(config.audience === undefined ? {} : { audience: [...config.audience] }),
    },
  };
}

/** The token's `alg`, when it is one some verifier accepts; `none` in any letter case never is. */
function algorithmOf(token: string, accepted: ReadonlySet<string>): JwsAlgorithm {
  let alg: unknown;
  try {
    alg = decodeProtectedHeader(token).alg;
  } catch {
    throw new AuthError('malformed', 'the token header is not a base64url-encoded JSON object');
  }
  if (typeof alg !== 'string') throw new AuthError('malformed', 'the token header has no "alg"');
  if (alg.toLowerCase() === 'none') throw new AuthError('algorithm', 'unsigned tokens (alg "none") are refused');
  if (!accepted.has(alg)) throw new AuthError('algorithm', 'the token algorithm is not one this API accepts');
  return alg as JwsAlgorithm;
}

async function verify(token: string, v: Verifier): Promise<JWTPayload> {
  if (typeof v.key !== 'function') return (await jwtVerify(token, v.key, v.options)).payload;
  try {
    return (await jwtVerify(token, v.key, v.options)).payload;
  } catch (error) {
    // A token without a kid that several published keys could have signed: each of them is tried.
    if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw error;
    let failure: AuthError | undefined;
    for await (const key of error) {
      try {
        return (await jwtVerify(token, key, v.options)).payload;
      } catch (inner) {
        failure = worse(failure, authErrorOf(inner));
      }
    }
    throw failure ?? error;
  }
}

/**
 * Of two failures, the one to report: a claim check failing after a good signature says more than an
 * unknown key, which says more than a bad signature.
 */
const worse = (a: AuthError | undefined, b: AuthError): AuthError => (a && rank(a.reason) >= rank(b.reason) ? a : b);

const rank = (reason: AuthFailureReason): number =>
  reason === 'invalid_signature' || reason === 'malformed' || reason === 'algorithm'
    ? 0
    : reason === 'unknown_kid' || reason === 'jwks_unavailable'
      ? 1
      : 2;
