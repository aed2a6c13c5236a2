import { errors } from 'jose';
import { AuthError } from './auth-error.js';

/**
 * The {@link AuthError} for what jose threw while verifying a token. Details name the check that failed,
 * never a value from the token. Errors that are not jose's (a bug) are thrown on.
 */
export function authErrorOf(error: unknown): AuthError {
  if (error instanceof AuthError) return error;
  if (error instanceof errors.JWTExpired) return new AuthError('expired', 'the token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) return claimError(error);
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return new AuthError('invalid_signature', 'the token signature does not verify');
  if (error instanceof errors.JWKSNoMatchingKey)
    return new AuthError('unknown_kid', 'no published key matches the token (kid, alg)');
  if (error instanceof errors.JOSEAlgNotAllowed)
    return new AuthError('algorithm', 'the token algorithm is not accepted');
  // An extension the token marks critical (`crit`) that is not understood, say.
  if (error instanceof errors.JOSENotSupported)
    return new AuthError('malformed', 'the token uses a JOSE feature this API does not support');
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid)
    return new AuthError('malformed', 'the token is not a well-formed signed JWT');
  // A published key jose cannot use for this algorithm (an RSA key under 2048 bits, say).
  if (error instanceof errors.JOSEError || error instanceof TypeError)
    return new AuthError('invalid_signature', 'no usable key verifies the token');
  throw error;
}

function claimError(error: InstanceType<typeof errors.JWTClaimValidationFailed>): AuthError {
  const { claim, reason } = error;
  if (reason === 'invalid') return new AuthError('bad_claim', `the "${claim}" claim must be a number`);
  switch (claim) {
    case 'exp':
      return new AuthError('no_exp', 'the token has no "exp" claim; tokens must expire');
    case 'nbf':
      return new AuthError('not_yet_valid', 'the token is not valid yet ("nbf")');
    case 'iss':
      return new AuthError('bad_issuer', 'the token "iss" claim is missing or not the expected issuer');
    case 'aud':
      return new AuthError('bad_audience', 'the token "aud" claim is missing or not the expected audience');
    default:
      return new AuthError('bad_claim', `the "${claim}" claim does not pass its check`);
  }
}
