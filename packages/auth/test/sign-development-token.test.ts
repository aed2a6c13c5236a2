import { createAuthenticator, parseClaimArgument, signDevelopmentToken, validateAuthConfig } from '@colapi/auth';
import { expect } from 'chai';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { now, SECRET, testKey } from './helpers/tokens.js';

const OTHER_SECRET = 'a-second-shared-secret-of-32-characters';

describe('signDevelopmentToken', () => {
  it('signs a token the authenticator accepts, with iss, aud, sub, iat, exp and the role', async () => {
    const config = validateAuthConfig(
      { jwt: [{ secret: SECRET, algorithms: ['HS256'], issuer: 'https://id.example', audience: 'colapi' }] },
      't',
    );
    const token = await signDevelopmentToken(config, {
      role: 'editor',
      sub: 'ada',
      claims: { tenant: 3, beta: true, team: 'blue' },
      expiresIn: '1h',
    });
    expect(decodeProtectedHeader(token)).to.deep.equal({ alg: 'HS256', typ: 'JWT' });
    const claims = decodeJwt(token);
    expect(claims).to.include({ role: 'editor', sub: 'ada', iss: 'https://id.example', aud: 'colapi', tenant: 3 });
    expect(claims.iat).to.be.within(now() - 2, now());
    expect(claims.exp! - claims.iat!).to.equal(3600);
    const identity = await createAuthenticator(config).authenticate(`Bearer ${token}`);
    expect(identity).to.deep.include({ role: 'editor', sub: 'ada', anonymous: false });
    expect(identity.claims).to.include({ beta: true, team: 'blue' });
  });

  it('puts the role at a dotted roleClaim, in nested objects', async () => {
    const config = validateAuthConfig(
      { jwt: [{ secret: SECRET, algorithms: ['HS256'] }], roleClaim: 'app_metadata.auth.role' },
      't',
    );
    const token = await signDevelopmentToken(config, { role: 'reader', expiresIn: '30m' });
    expect(decodeJwt(token).app_metadata).to.deep.equal({ auth: { role: 'reader' } });
    expect((await createAuthenticator(config).authenticate(`Bearer ${token}`)).role).to.equal('reader');
  });

  it('uses the first secret verifier that lists HS256, else the first secret one with its first algorithm', async () => {
    const rsa = await testKey('RS256', 'r');
    const prefersHs256 = validateAuthConfig(
      {
        jwt: [
          { publicKey: rsa.pem, algorithms: ['RS256'] },
          { secret: OTHER_SECRET, algorithms: ['HS512'], issuer: 'first' },
          { secret: SECRET, algorithms: ['HS384', 'HS256'], issuer: 'second', audience: ['a', 'b'] },
        ],
      },
      't',
    );
    const token = await signDevelopmentToken(prefersHs256, { role: 'r', expiresIn: '60s' });
    expect(decodeProtectedHeader(token).alg).to.equal('HS256');
    expect(decodeJwt(token)).to.deep.include({ iss: 'second', aud: ['a', 'b'] });
    expect((await createAuthenticator(prefersHs256).authenticate(`Bearer ${token}`)).role).to.equal('r');

    const noHs256 = validateAuthConfig(
      { jwt: [{ secret: OTHER_SECRET, algorithms: ['HS512', 'HS384'], issuer: 'only' }] },
      't',
    );
    const other = await signDevelopmentToken(noHs256, { role: 'r', expiresIn: '60s' });
    expect(decodeProtectedHeader(other).alg).to.equal('HS512');
    expect((await createAuthenticator(noHs256).authenticate(`Bearer ${other}`)).role).to.equal('r');
  });

  it('reads lifetimes in seconds, minutes, hours and days', async () => {
    const config = validateAuthConfig({ jwt: [{ secret: SECRET, algorithms: ['HS256'] }] }, 't');
    for (const [text, seconds] of [
      ['3600s', 3600],
      ['30m', 1800],
      ['1h', 3600],
      ['7d', 604_800],
    ] as const) {
      const claims = decodeJwt(await signDevelopmentToken(config, { role: 'r', expiresIn: text }));
      expect(claims.exp! - claims.iat!, text).to.equal(seconds);
    }
    for (const text of ['1 hour', '0s', '-1h', '1.5h', '1w', 'h', ''])
      await expectRejection(signDevelopmentToken(config, { role: 'r', expiresIn: text }), /expiresIn/);
  });

  it('throws a clear error when no verifier has a secret', async () => {
    const rsa = await testKey('RS256', 'r');
    const config = validateAuthConfig({ jwt: [{ publicKey: rsa.pem, algorithms: ['RS256'] }] }, 't');
    await expectRejection(
      signDevelopmentToken(config, { role: 'r', expiresIn: '1h' }),
      /no auth\.jwt verifier has a secret/,
    );
  });

  it('refuses claims the token sets itself, and an empty role', async () => {
    const config = validateAuthConfig({ jwt: [{ secret: SECRET, algorithms: ['HS256'] }], roleClaim: 'app.role' }, 't');
    for (const name of ['exp', 'iss', 'aud', 'sub', 'iat', 'nbf', 'jti', 'app', 'app.role'])
      await expectRejection(
        signDevelopmentToken(config, { role: 'r', expiresIn: '1h', claims: { [name]: 1 } }),
        new RegExp(`claims: ${name.replace('.', '\\.')} is set by the token`),
      );
    await expectRejection(signDevelopmentToken(config, { role: '', expiresIn: '1h' }), /role/);
  });
});

describe('parseClaimArgument', () => {
  const cases: [string, [string, string | number | boolean]][] = [
    ['tenant=1', ['tenant', 1]],
    ['tenant=-12', ['tenant', -12]],
    ['tenant=0', ['tenant', 0]],
    ['beta=true', ['beta', true]],
    ['beta=false', ['beta', false]],
    ['zip=01234', ['zip', '01234']],
    ['ratio=1.5', ['ratio', '1.5']],
    ['big=1e3', ['big', '1e3']],
    ['huge=12345678901234567890', ['huge', '12345678901234567890']],
    ['flag=True', ['flag', 'True']],
    ['team=blue', ['team', 'blue']],
    ['expr=a=b', ['expr', 'a=b']],
    ['empty=', ['empty', '']],
  ];
  for (const [argument, expected] of cases)
    it(`reads ${argument}`, () => expect(parseClaimArgument(argument)).to.deep.equal(expected));

  it('refuses an argument without a name or an =', () => {
    for (const argument of ['tenant', '=1', ''])
      expect(() => parseClaimArgument(argument)).to.throw(/is not a claim: write name=value/);
  });
});

async function expectRejection(promise: Promise<unknown>, message: RegExp): Promise<void> {
  let error: unknown;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  expect(error).to.be.instanceOf(Error).with.property('message').that.matches(message);
}

describe('development token claims named __proto__', () => {
  it('are plain claims and pollute no prototype', async () => {
    const config = validateAuthConfig(
      { jwt: [{ secret: SECRET, algorithms: ['HS256'] }], roleClaim: '__proto__.role' },
      't',
    );
    const token = await signDevelopmentToken(config, { role: 'r', expiresIn: '1h', claims: { constructor: 'x' } });
    expect(({} as Record<string, unknown>).role).to.equal(undefined);
    expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())).to.deep.include({
      ['__proto__']: { role: 'r' },
      constructor: 'x',
    });
    expect((await createAuthenticator(config).authenticate(`Bearer ${token}`)).role).to.equal('r');
  });
});
