import type { JwsAlgorithm } from './algorithms.js';

/** What every kind of verifier has: the algorithms it accepts, and the issuer and audience it demands. */
interface VerifierBase {
  /** Algorithms a token's `alg` must be one of to be tried against this verifier. Never empty. */
  readonly algorithms: readonly JwsAlgorithm[];
  /** When set, a token must carry exactly this `iss`. */
  readonly issuer?: string;
  /** When set, a token's `aud` (a string or a list) must name one of these. Never empty. */
  readonly audience?: readonly string[];
}

/** HMAC (HS256, HS384, HS512) with a shared secret. */
export interface SecretVerifierConfig extends VerifierBase {
  readonly kind: 'secret';
  readonly secret: string;
}

/** RSA, EC or Ed25519 signatures checked with one PEM (SPKI) public key. */
export interface PublicKeyVerifierConfig extends VerifierBase {
  readonly kind: 'publicKey';
  readonly publicKey: string;
}

/** Signatures checked with the keys an identity provider publishes as a JSON Web Key Set. */
export interface JwksVerifierConfig extends VerifierBase {
  readonly kind: 'jwks';
  readonly jwksUrl: string;
}

/** One way a token can be verified; a token is accepted when one of them verifies it. */
export type VerifierConfig = SecretVerifierConfig | PublicKeyVerifierConfig | JwksVerifierConfig;

/** The `auth` settings, checked and with their defaults: what {@link validateAuthConfig} answers. */
export interface AuthConfig {
  /** The verifiers, in the order they are tried. Never empty. */
  readonly jwt: readonly VerifierConfig[];
  /** The claim that holds the role; a dotted path (`app_metadata.role`) reaches a nested one. Default `role`. */
  readonly roleClaim: string;
  /** Seconds of clock skew allowed when checking `exp` and `nbf`. Default 30. */
  readonly clockTolerance: number;
  /** The role of a request without credentials; unset, such a request is refused (401). */
  readonly anonymous?: string;
  /** Whether roles are also database roles (used by the access rules, not here). Default false. */
  readonly databaseRoles: boolean;
}

/** The defaults of the optional settings. */
export const AUTH_DEFAULTS = Object.freeze({ roleClaim: 'role', clockTolerance: 30, databaseRoles: false });
