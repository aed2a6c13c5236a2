import { createAuthenticator, validateAuthConfig } from '@colapi/auth';
import { expect } from 'chai';
import { type CountingServer, startCountingServer } from './helpers/counting-server.js';
import { expectAuthError } from './helpers/expect-auth-error.js';
import { handmade, hs256, now, SECRET, signed, type TestKey, testKey } from './helpers/tokens.js';

const bearer = (token: string) => `Bearer ${token}`;

/** Changes one character in the middle of the signature (the last one may only carry padding bits). */
function tamper(token: string): string {
  const [h, p, s] = token.split('.') as [string, string, string];
  const i = Math.floor(s.length / 2);
  return `${h}.${p}.${s.slice(0, i)}${s[i] === 'A' ? 'B' : 'A'}${s.slice(i + 1)}`;
}

describe('token attacks, each refused with 401 invalid_token', () => {
  let rsa: TestKey;
  let ec: TestKey;
  let attacker: TestKey;
  let jwks: CountingServer;
  let decoy: CountingServer;
  // A shared secret for HS256 and a PEM RSA key for RS256, side by side.
  let mixed: ReturnType<typeof createAuthenticator>;
  before(async () => {
    [rsa, ec, attacker] = await Promise.all([
      testKey('RS256', 'rsa-1'),
      testKey('ES256', 'ec-1'),
      testKey('RS256', 'evil'),
    ]);
    jwks = await startCountingServer({ keys: [rsa.jwk] });
    decoy = await startCountingServer({ keys: [attacker.jwk] });
    mixed = createAuthenticator(
      validateAuthConfig(
        {
          jwt: [
            { secret: SECRET, algorithms: ['HS256'] },
            { publicKey: rsa.pem, algorithms: ['RS256'] },
          ],
          anonymous: 'anon',
        },
        'test',
      ),
    );
  });
  after(async () => {
    await jwks.close();
    await decoy.close();
  });

  for (const alg of ['none', 'None', 'NONE', 'nOnE']) {
    it(`alg "${alg}", with an empty signature and with one`, async () => {
      const unsigned = handmade({ alg, typ: 'JWT' }, { role: 'admin', exp: now() + 3600 });
      await expectAuthError(mixed.authenticate(bearer(unsigned)), 401, 'algorithm', unsigned);
      const withSignature = handmade({ alg }, { role: 'admin', exp: now() + 3600 }, hs256(SECRET));
      await expectAuthError(mixed.authenticate(bearer(withSignature)), 401, 'algorithm', withSignature);
    });
  }

  it('HS256 signed with the RSA public key PEM as the HMAC secret', async () => {
    const forged = handmade({ alg: 'HS256', typ: 'JWT' }, { role: 'admin', exp: now() + 3600 }, hs256(rsa.pem));
    // Tried against the secret verifier only (the PEM verifier does not list HS256): a bad signature.
    await expectAuthError(mixed.authenticate(bearer(forged)), 401, 'invalid_signature', forged);
    // Where no verifier accepts HS256 at all, the algorithm itself is refused.
    const rsaOnly = createAuthenticator(
      validateAuthConfig({ jwt: [{ publicKey: rsa.pem, algorithms: ['RS256'] }] }, 't'),
    );
    await expectAuthError(rsaOnly.authenticate(bearer(forged)), 401, 'algorithm', forged);
  });

  it('algorithms outside every verifier list (HS512, RS384, PS256, ES256, unknown)', async () => {
    const hs512 = handmade({ alg: 'HS512' }, { role: 'admin', exp: now() + 3600 }, hs256(SECRET));
    const es256 = await signed(ec, { role: 'admin' });
    const ps256 = await signed(await testKey('PS256', 'rsa-1'), { role: 'admin' });
    const rs384 = await signed(await testKey('RS384', 'rsa-1'), { role: 'admin' });
    const odd = handmade({ alg: 'XS256' }, { role: 'admin', exp: now() + 3600 }, hs256(SECRET));
    for (const token of [hs512, es256, ps256, rs384, odd])
      await expectAuthError(mixed.authenticate(bearer(token)), 401, 'algorithm', token);
  });

  it('a header without alg, or one that is not JSON', async () => {
    const noAlg = handmade({ typ: 'JWT' }, { role: 'admin', exp: now() + 3600 }, hs256(SECRET));
    await expectAuthError(mixed.authenticate(bearer(noAlg)), 401, 'malformed', noAlg);
    const notJson = `${Buffer.from('not json').toString('base64url')}.e30.c2ln`;
    await expectAuthError(mixed.authenticate(bearer(notJson)), 401, 'malformed', notJson);
  });

  it('a tampered signature, a tampered payload, and another secret', async () => {
    const good = await signed(SECRET, { role: 'reader' });
    expect((await mixed.authenticate(bearer(good))).role).to.equal('reader');
    const bad = tamper(good);
    await expectAuthError(mixed.authenticate(bearer(bad)), 401, 'invalid_signature', bad);
    const [h, , s] = good.split('.');
    const escalated = `${h}.${Buffer.from(JSON.stringify({ role: 'admin', exp: now() + 3600 })).toString('base64url')}.${s}`;
    await expectAuthError(mixed.authenticate(bearer(escalated)), 401, 'invalid_signature', escalated);
    const other = await signed('another-secret-of-at-least-32-characters!', { role: 'reader' });
    await expectAuthError(mixed.authenticate(bearer(other)), 401, 'invalid_signature', other);
    const rsaTampered = tamper(await signed(rsa, { role: 'reader' }));
    await expectAuthError(mixed.authenticate(bearer(rsaTampered)), 401, 'invalid_signature', rsaTampered);
  });

  it('two segments and four segments', async () => {
    const good = await signed(SECRET, { role: 'reader' });
    const [h, p, s] = good.split('.');
    for (const token of [`${h}.${p}`, `${h}.${p}.${s}.${s}`, `${h}.${p}.${s}.`])
      await expectAuthError(mixed.authenticate(bearer(token)), 401, 'malformed', token);
  });

  it('an unknown critical header extension', async () => {
    const token = handmade(
      { alg: 'HS256', crit: ['urn:example:ext'], 'urn:example:ext': 1 },
      { role: 'reader', exp: now() + 3600 },
      hs256(SECRET),
    );
    await expectAuthError(mixed.authenticate(bearer(token)), 401, 'malformed', token);
  });

  describe('time claims (clockTolerance 30 s)', () => {
    it('an expired token, beyond the tolerance; one within it passes', async () => {
      const expired = await signed(SECRET, { role: 'reader', exp: now() - 3600 });
      await expectAuthError(mixed.authenticate(bearer(expired)), 401, 'expired', expired);
      const justExpired = await signed(SECRET, { role: 'reader', exp: now() - 10 });
      expect((await mixed.authenticate(bearer(justExpired))).role).to.equal('reader');
      const exact = createAuthenticator(
        validateAuthConfig({ jwt: [{ secret: SECRET, algorithms: ['HS256'] }], clockTolerance: 0 }, 't'),
      );
      await expectAuthError(exact.authenticate(bearer(justExpired)), 401, 'expired', justExpired);
    });

    it('nbf in the future, beyond the tolerance; within it passes', async () => {
      const early = await signed(SECRET, { role: 'reader', nbf: now() + 3600 });
      await expectAuthError(mixed.authenticate(bearer(early)), 401, 'not_yet_valid', early);
      const almost = await signed(SECRET, { role: 'reader', nbf: now() + 10 });
      expect((await mixed.authenticate(bearer(almost))).role).to.equal('reader');
    });

    it('a string exp, and a string nbf', async () => {
      const stringExp = await signed(SECRET, { role: 'reader', exp: String(now() + 3600) });
      await expectAuthError(mixed.authenticate(bearer(stringExp)), 401, 'bad_claim', stringExp);
      const stringNbf = await signed(SECRET, { role: 'reader', nbf: String(now()) });
      await expectAuthError(mixed.authenticate(bearer(stringNbf)), 401, 'bad_claim', stringNbf);
    });

    it('no exp at all (an RSA token and an HMAC one), even with an anonymous role', async () => {
      const hmac = handmade({ alg: 'HS256' }, { role: 'reader' }, hs256(SECRET));
      await expectAuthError(mixed.authenticate(bearer(hmac)), 401, 'no_exp', hmac);
      const rsaToken = await signed(rsa, { role: 'reader', exp: undefined });
      await expectAuthError(mixed.authenticate(bearer(rsaToken)), 401, 'no_exp', rsaToken);
    });
  });

  describe('issuer and audience', () => {
    let checked: ReturnType<typeof createAuthenticator>;
    before(() => {
      checked = createAuthenticator(
        validateAuthConfig(
          { jwt: [{ secret: SECRET, algorithms: ['HS256'], issuer: 'https://id.example', audience: 'colapi' }] },
          't',
        ),
      );
    });
    const good = { role: 'reader', iss: 'https://id.example', aud: 'colapi' };

    it('accepts the right ones (aud a string, or a list that names colapi)', async () => {
      expect((await checked.authenticate(bearer(await signed(SECRET, good)))).role).to.equal('reader');
      const list = await signed(SECRET, { ...good, aud: ['other', 'colapi'] });
      expect((await checked.authenticate(bearer(list))).role).to.equal('reader');
    });

    it('a wrong iss and an absent one', async () => {
      for (const iss of ['https://evil.example', undefined, 42]) {
        const token = await signed(SECRET, { ...good, iss });
        await expectAuthError(checked.authenticate(bearer(token)), 401, 'bad_issuer', token);
      }
    });

    it('a wrong aud, a list without colapi, and an absent aud', async () => {
      for (const aud of ['other', ['other', 'more'], undefined]) {
        const token = await signed(SECRET, { ...good, aud });
        await expectAuthError(checked.authenticate(bearer(token)), 401, 'bad_audience', token);
      }
    });
  });

  describe('header parameters naming keys (jku, x5u, jwk, x5c) are ignored: nothing is fetched', () => {
    let withJwks: ReturnType<typeof createAuthenticator>;
    before(() => {
      withJwks = createAuthenticator(
        validateAuthConfig(
          {
            jwt: [
              { jwksUrl: jwks.url, algorithms: ['RS256'] },
              { publicKey: rsa.pem, algorithms: ['RS256'] },
            ],
          },
          't',
        ),
      );
    });
    const pointers = () => ({ jku: decoy.url, x5u: decoy.url, jwk: attacker.jwk, x5c: ['MIIBIjANBg=='] });

    it('an attacker key named by kid, jku, x5u, jwk and x5c', async () => {
      const token = await signed(attacker, { role: 'admin' }, pointers());
      await expectAuthError(withJwks.authenticate(bearer(token)), 401, 'unknown_kid', token);
      expect(decoy.requests).to.equal(0);
    });

    it('an attacker key embedded as jwk, without a kid', async () => {
      const token = await signed(attacker, { role: 'admin' }, { ...pointers(), kid: undefined });
      await expectAuthError(withJwks.authenticate(bearer(token)), 401, 'invalid_signature', token);
      expect(decoy.requests).to.equal(0);
    });

    it('a genuine token carrying the same pointers verifies with the configured keys only', async () => {
      const token = await signed(rsa, { role: 'reader' }, pointers());
      expect((await withJwks.authenticate(bearer(token))).role).to.equal('reader');
      expect(decoy.requests).to.equal(0);
      expect(jwks.requests).to.equal(1);
    });
  });
});
