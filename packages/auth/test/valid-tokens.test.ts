import { type Authenticator, createAuthenticator, validateAuthConfig } from '@colapi/auth';
import { expect } from 'chai';
import { type CountingServer, startCountingServer } from './helpers/counting-server.js';
import { expectAuthError } from './helpers/expect-auth-error.js';
import { now, SECRET, signed, type TestKey, testKey } from './helpers/tokens.js';

const ISSUER = 'https://id.example';
const bearer = (token: string) => `Bearer ${token}`;

describe('valid tokens', () => {
  const keys: Record<string, TestKey> = {};
  let jwks: CountingServer;
  let auth: Authenticator;
  before(async () => {
    for (const [name, alg] of Object.entries({
      rsa: 'RS256',
      pss: 'PS256',
      ec: 'ES256',
      ed: 'EdDSA',
      jwksRsa: 'RS256',
      jwksEc: 'ES256',
      jwksEd: 'EdDSA',
      jwksEd25519: 'Ed25519',
    }))
      keys[name] = await testKey(alg, name);
    jwks = await startCountingServer({
      keys: [keys.jwksRsa!.jwk, keys.jwksEc!.jwk, keys.jwksEd!.jwk, keys.jwksEd25519!.jwk],
    });
    auth = createAuthenticator(
      validateAuthConfig(
        {
          jwt: [
            { secret: SECRET, algorithms: ['HS256', 'HS384'], issuer: ISSUER, audience: 'colapi' },
            {
              jwksUrl: jwks.url,
              algorithms: ['RS256', 'ES256', 'EdDSA', 'Ed25519'],
              issuer: ISSUER,
              audience: 'colapi',
            },
            { publicKey: keys.rsa!.pem, algorithms: ['RS256'] },
            { publicKey: keys.pss!.pem, algorithms: ['PS256'] },
            { publicKey: keys.ec!.pem, algorithms: ['ES256'] },
            { publicKey: keys.ed!.pem, algorithms: ['EdDSA', 'Ed25519'] },
          ],
        },
        'test',
      ),
    );
  });
  after(() => jwks.close());

  const claims = { role: 'editor', sub: 'user-1', iss: ISSUER, aud: 'colapi', tenant: 7 };
  const cases: [string, () => TestKey | string][] = [
    ['HS256 from the secret', () => SECRET],
    ['RS256 from the PEM key', () => keys.rsa!],
    ['PS256 from the PEM key', () => keys.pss!],
    ['ES256 from the PEM key', () => keys.ec!],
    ['EdDSA from the PEM key', () => keys.ed!],
    ['RS256 from the JWKS', () => keys.jwksRsa!],
    ['ES256 from the JWKS', () => keys.jwksEc!],
    ['EdDSA from the JWKS', () => keys.jwksEd!],
    ['Ed25519 from the JWKS', () => keys.jwksEd25519!],
  ];
  for (const [name, key] of cases) {
    it(`accepts ${name}`, async () => {
      const token = await signed(key(), claims);
      const identity = await auth.authenticate(bearer(token));
      expect(identity).to.deep.include({ role: 'editor', sub: 'user-1', anonymous: false });
      expect(identity.claims).to.include({ tenant: 7, iss: ISSUER, aud: 'colapi' });
      expect(Object.isFrozen(identity) && Object.isFrozen(identity.claims)).to.equal(true);
    });
  }

  it('accepts HS384 from a secret verifier that lists it', async () => {
    const { SignJWT } = await import('jose');
    const token = await new SignJWT({ ...claims, exp: now() + 60 })
      .setProtectedHeader({ alg: 'HS384' })
      .sign(new TextEncoder().encode(SECRET));
    expect((await auth.authenticate(bearer(token))).role).to.equal('editor');
  });

  it('leaves sub out when the token has none', async () => {
    const identity = await auth.authenticate(bearer(await signed(keys.rsa!, { role: 'reader' })));
    expect(identity).not.to.have.property('sub');
  });

  it('refuses a sub that is not a string (401 bad_claim)', async () => {
    const token = await signed(keys.rsa!, { role: 'reader', sub: 42 });
    await expectAuthError(auth.authenticate(bearer(token)), 401, 'bad_claim', token);
  });

  it('reports the failure that says most when every verifier fails (expired, not a bad signature)', async () => {
    const token = await signed(keys.ec!, { role: 'reader', exp: now() - 3600 });
    // Tried against the JWKS (unknown kid) and the EC PEM key (signature good, token expired).
    await expectAuthError(auth.authenticate(bearer(token)), 401, 'expired', token);
  });

  it('accepts a token one of two verifiers sharing a secret accepts (by issuer)', async () => {
    const two = createAuthenticator(
      validateAuthConfig(
        {
          jwt: [
            { secret: SECRET, algorithms: ['HS256'], issuer: 'https://a.example' },
            { secret: SECRET, algorithms: ['HS256'], issuer: 'https://b.example' },
          ],
        },
        't',
      ),
    );
    const token = await signed(SECRET, { role: 'reader', iss: 'https://b.example' });
    expect((await two.authenticate(bearer(token))).role).to.equal('reader');
    const neither = await signed(SECRET, { role: 'reader', iss: 'https://c.example' });
    await expectAuthError(two.authenticate(bearer(neither)), 401, 'bad_issuer', neither);
  });
});

describe('the role', () => {
  const authWith = (settings: Record<string, unknown>, knownRoles?: string[]) =>
    createAuthenticator(
      validateAuthConfig({ jwt: [{ secret: SECRET, algorithms: ['HS256'] }], ...settings }, 'test'),
      knownRoles ? { knownRoles } : {},
    );
  const roleOf = async (auth: Authenticator, payload: Record<string, unknown>) =>
    (await auth.authenticate(bearer(await signed(SECRET, payload)))).role;

  it('is read at a dotted roleClaim', async () => {
    const auth = authWith({ roleClaim: 'app_metadata.role' });
    expect(await roleOf(auth, { app_metadata: { role: 'editor', plan: 'pro' } })).to.equal('editor');
    const deep = authWith({ roleClaim: 'a.b.c' });
    expect(await roleOf(deep, { a: { b: { c: 'reader' } } })).to.equal('reader');
  });

  it('is read at a claim whose own name has dots first (namespaced claims)', async () => {
    const auth = authWith({ roleClaim: 'https://id.example/role' });
    expect(await roleOf(auth, { 'https://id.example/role': 'editor' })).to.equal('editor');
  });

  it('missing at the dotted path is 403 no_role, even when a top-level role exists', async () => {
    const auth = authWith({ roleClaim: 'app_metadata.role' });
    for (const payload of [{ role: 'editor' }, { app_metadata: 'editor' }, { app_metadata: { roles: ['editor'] } }]) {
      const token = await signed(SECRET, payload);
      await expectAuthError(auth.authenticate(bearer(token)), 403, 'no_role', token);
    }
  });

  it('that is not a non-empty string is 403 no_role', async () => {
    const auth = authWith({});
    for (const role of [42, true, ['editor'], { name: 'editor' }, '', null]) {
      const token = await signed(SECRET, { role });
      await expectAuthError(auth.authenticate(bearer(token)), 403, 'no_role', token);
    }
  });

  it('outside knownRoles is 403 unknown_role; inside is accepted', async () => {
    const auth = authWith({}, ['reader', 'editor']);
    expect(await roleOf(auth, { role: 'editor' })).to.equal('editor');
    const token = await signed(SECRET, { role: 'admin' });
    await expectAuthError(auth.authenticate(bearer(token)), 403, 'unknown_role', token);
  });

  it('does not inherit from the prototype (constructor, __proto__)', async () => {
    const auth = authWith({ roleClaim: 'constructor.name' });
    const token = await signed(SECRET, {});
    await expectAuthError(auth.authenticate(bearer(token)), 403, 'no_role', token);
  });

  it('anonymous must be a known role when knownRoles is given', () => {
    expect(() => authWith({ anonymous: 'guest' }, ['reader'])).to.throw(/auth\.anonymous: the role "guest"/);
    expect(() => authWith({ anonymous: 'guest' }, ['guest'])).not.to.throw();
  });
});
