import { AuthError } from './auth-error.js';

/** Longest token accepted, in characters: a larger one is refused before it is decoded. */
export const MAX_TOKEN_LENGTH = 8192;

/** `Bearer`, in any letter case, one space, one token, nothing else. */
const BEARER = /^bearer ([^\s]+)$/i;

/** Three base64url segments: header and payload non-empty, the signature possibly empty (then refused later). */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * The token of an `Authorization` header, or undefined when there is no header. Anything else than
 * `Bearer <compact JWS>` (another scheme, `Bearer` alone, two tokens, two or four segments, a token over
 * {@link MAX_TOKEN_LENGTH}) throws a 401 {@link AuthError}: a malformed credential is never taken for none.
 */
export function readBearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  if (authorization.length > MAX_TOKEN_LENGTH + 'Bearer '.length)
    throw new AuthError('too_large', `the token is longer than ${MAX_TOKEN_LENGTH} characters`);
  const token = BEARER.exec(authorization)?.[1];
  if (token === undefined)
    throw new AuthError('malformed', 'the Authorization header must be "Bearer" followed by one token');
  if (!COMPACT_JWS.test(token))
    throw new AuthError('malformed', 'the bearer token is not a JWT (three base64url segments separated by dots)');
  return token;
}
