import { createAuthenticator, type Identity, validateAuthConfig } from '@colapi/auth';
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { VerifiedTokens } from '../src/verified-tokens.js';
import { expectAuthError } from './helpers/expect-auth-error.js';
import { now, SECRET, signed } from './helpers/tokens.js';

const bearer = (token: string) => `Bearer ${token}`;
const identity = (role: string): Identity => Object.freeze({ role, claims: Object.freeze({}), anonymous: false });

describe('verified tokens are kept for their lifetime, never past it', () => {
  it('answers the identity of a token verified before: the same object, with no second verification', async () => {
    const auth = createAuthenticator(validateAuthConfig({ jwt: [{ secret: SECRET, algorithms: ['HS256'] }] }, 't'));
    const token = await signed(SECRET, { role: 'member', tenant: 1 });
    const first = await auth.authenticate(bearer(token));
    expect(await auth.authenticate(bearer(token))).to.equal(first);
    // A token that differs in one character of its signature is verified, and refused.
    const tampered = `${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.at(-1)}`;
    await expectAuthError(auth.authenticate(bearer(tampered)), 401, 'invalid_signature', tampered);
  });

  it('refuses a kept token once its exp has passed (clock tolerance 0)', async function () {
    this.timeout(5000);
    const auth = createAuthenticator(
      validateAuthConfig({ jwt: [{ secret: SECRET, algorithms: ['HS256'] }], clockTolerance: 0 }, 't'),
    );
    const exp = now() + 1;
    const token = await signed(SECRET, { role: 'member', exp });
    expect((await auth.authenticate(bearer(token))).role).to.equal('member');
    expect((await auth.authenticate(bearer(token))).role).to.equal('member');
    await sleep(exp * 1000 - Date.now() + 50);
    await expectAuthError(auth.authenticate(bearer(token)), 401, 'expired', token);
  });

  it('keeps nothing of a refused token', async () => {
    const auth = createAuthenticator(validateAuthConfig({ jwt: [{ secret: SECRET, algorithms: ['HS256'] }] }, 't'));
    const token = await signed('another-secret-of-at-least-32-characters!', { role: 'member' });
    for (let i = 0; i < 3; i++)
      await expectAuthError(auth.authenticate(bearer(token)), 401, 'invalid_signature', token);
  });

  describe('VerifiedTokens', () => {
    const always = () => 'k';
    it('holds an entry until exp less the tolerance, as jose counts it', () => {
      const kept = new VerifiedTokens(30);
      kept.keep('t', identity('a'), 1_000, 'k', always);
      expect(kept.get('t', 1_029_999)).to.have.property('role', 'a');
      expect(kept.get('t', 1_030_000)).to.equal(undefined);
      expect(kept.size).to.equal(0);
    });

    it('drops an entry when the verifier keys changed since (a JWKS fetched again, or stale)', () => {
      let keys: number | undefined = 1;
      const kept = new VerifiedTokens(0);
      kept.keep('t', identity('a'), Number.MAX_SAFE_INTEGER, 1, () => keys);
      expect(kept.get('t')).to.have.property('role', 'a');
      keys = undefined;
      expect(kept.get('t')).to.equal(undefined);
      keys = 1;
      expect(kept.get('t'), 'gone for good').to.equal(undefined);
    });

    it('does not keep what a verification found while the keys changed under it', () => {
      const kept = new VerifiedTokens(0);
      kept.keep('t', identity('a'), Number.MAX_SAFE_INTEGER, 1, () => 2);
      expect(kept.get('t')).to.equal(undefined);
    });

    it('does not keep a token without a numeric exp, nor a very long one', () => {
      const kept = new VerifiedTokens(0);
      kept.keep('t', identity('a'), '9999999999', 'k', always);
      kept.keep('x'.repeat(4097), identity('a'), Number.MAX_SAFE_INTEGER, 'k', always);
      expect(kept.size).to.equal(0);
    });

    it('keeps at most its limit, dropping the oldest first', () => {
      const kept = new VerifiedTokens(0, 3);
      for (const t of ['a', 'b', 'c', 'd']) kept.keep(t, identity(t), Number.MAX_SAFE_INTEGER, 'k', always);
      expect(kept.size).to.equal(3);
      expect(kept.get('a')).to.equal(undefined);
      expect(kept.get('d')).to.have.property('role', 'd');
    });
  });
});
