import { AuthError, type AuthFailureReason } from '@colapi/auth';
import { expect } from 'chai';

const INVALID = 'Bearer error="invalid_token"';

/**
 * Asserts that `attempt` is refused with this status, reason and WWW-Authenticate value (by default
 * `Bearer error="invalid_token"` for 401 and `Bearer error="insufficient_scope"` for 403), and that the
 * detail does not repeat the token.
 */
export async function expectAuthError(
  attempt: Promise<unknown>,
  status: 401 | 403,
  reason: AuthFailureReason,
  token?: string,
  wwwAuthenticate = status === 401 ? INVALID : 'Bearer error="insufficient_scope"',
): Promise<AuthError> {
  let error: unknown;
  try {
    await attempt;
  } catch (e) {
    error = e;
  }
  expect(error, 'an AuthError').to.be.instanceOf(AuthError);
  const e = error as AuthError;
  expect({ status: e.status, reason: e.reason, wwwAuthenticate: e.wwwAuthenticate }).to.deep.equal({
    status,
    reason,
    wwwAuthenticate,
  });
  expect(e.detail).to.be.a('string').and.not.equal('');
  if (token) {
    expect(e.detail).not.to.include(token);
    expect(e.message).not.to.include(token.split('.')[2] || token);
  }
  return e;
}
