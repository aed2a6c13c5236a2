/**
 * Why a request was not authenticated: a short, stable word a client or a log can match on.
 *
 * 401 (the credentials are missing or not acceptable): `missing`, `malformed`, `too_large`, `algorithm`,
 * `invalid_signature`, `unknown_kid`, `jwks_unavailable`, `expired`, `not_yet_valid`, `no_exp`, `bad_claim`,
 * `bad_issuer`, `bad_audience`. 403 (a valid token that names no usable role): `no_role`, `unknown_role`.
 */
export type AuthFailureReason =
  | 'missing'
  | 'malformed'
  | 'too_large'
  | 'algorithm'
  | 'invalid_signature'
  | 'unknown_kid'
  | 'jwks_unavailable'
  | 'expired'
  | 'not_yet_valid'
  | 'no_exp'
  | 'bad_claim'
  | 'bad_issuer'
  | 'bad_audience'
  | 'no_role'
  | 'unknown_role';

/** The status each reason answers with. */
export const AUTH_FAILURE_STATUS: Readonly<Record<AuthFailureReason, 401 | 403>> = Object.freeze({
  missing: 401,
  malformed: 401,
  too_large: 401,
  algorithm: 401,
  invalid_signature: 401,
  unknown_kid: 401,
  jwks_unavailable: 401,
  expired: 401,
  not_yet_valid: 401,
  no_exp: 401,
  bad_claim: 401,
  bad_issuer: 401,
  bad_audience: 401,
  no_role: 403,
  unknown_role: 403,
});

/**
 * A request that is not authenticated. `detail` is safe to show a client: it never contains the token or
 * a key. `wwwAuthenticate` is the `WWW-Authenticate` header to answer with (RFC 6750 §3): `Bearer` when
 * there were no credentials, `Bearer error="invalid_token"` for a token that failed a check, and
 * `Bearer error="insufficient_scope"` for a valid token that names no usable role (403).
 */
export class AuthError extends Error {
  override name = 'AuthError';
  readonly status: 401 | 403;
  readonly wwwAuthenticate: string;

  constructor(
    readonly reason: AuthFailureReason,
    readonly detail: string,
  ) {
    super(detail);
    this.status = AUTH_FAILURE_STATUS[reason];
    this.wwwAuthenticate =
      reason === 'missing'
        ? 'Bearer'
        : this.status === 403
          ? 'Bearer error="insufficient_scope"'
          : 'Bearer error="invalid_token"';
  }
}
