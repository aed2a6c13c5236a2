import { AuthConfigError, validateAuthConfig } from '@colapi/auth';
import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { SECRET, type TestKey, testKey } from './helpers/tokens.js';

const ed448 = generateKeyPairSync('ed448').publicKey.export({ type: 'spki', format: 'pem' });
const x25519 = generateKeyPairSync('x25519').publicKey.export({ type: 'spki', format: 'pem' });
const smallRsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' });

describe('validateAuthConfig', () => {
  let rsa: TestKey;
  let ec: TestKey;
  let ed: TestKey;
  before(async () => {
    [rsa, ec, ed] = await Promise.all([testKey('RS256', 'r'), testKey('ES256', 'e'), testKey('EdDSA', 'd')]);
  });

  it('reads the example of the issue, normalized, with defaults filled in', () => {
    const config = validateAuthConfig(
      {
        jwt: [
          { secret: SECRET, algorithms: ['HS256'], issuer: 'https://id.example', audience: 'colapi' },
          {
            jwksUrl: 'https://id.example/.well-known/jwks.json',
            algorithms: ['RS256', 'ES256', 'EdDSA'],
            issuer: 'https://id.example',
            audience: ['colapi', 'other'],
          },
          { publicKey: rsa.pem, algorithms: ['RS256', 'PS256'] },
        ],
        anonymous: 'anon',
      },
      'colapi.config.json',
    );
    expect(config).to.deep.equal({
      jwt: [
        {
          kind: 'secret',
          secret: SECRET,
          algorithms: ['HS256'],
          issuer: 'https://id.example',
          audience: ['colapi'],
        },
        {
          kind: 'jwks',
          jwksUrl: 'https://id.example/.well-known/jwks.json',
          algorithms: ['RS256', 'ES256', 'EdDSA'],
          issuer: 'https://id.example',
          audience: ['colapi', 'other'],
        },
        { kind: 'publicKey', publicKey: rsa.pem, algorithms: ['RS256', 'PS256'] },
      ],
      roleClaim: 'role',
      clockTolerance: 30,
      anonymous: 'anon',
      databaseRoles: false,
    });
    expect(Object.isFrozen(config) && Object.isFrozen(config.jwt[0])).to.equal(true);
  });

  it('keeps roleClaim, clockTolerance and databaseRoles as given', () => {
    const config = validateAuthConfig(
      {
        jwt: [{ secret: SECRET, algorithms: ['HS512'] }],
        roleClaim: 'app_metadata.role',
        clockTolerance: 0,
        databaseRoles: true,
      },
      'x',
    );
    expect(config).to.include({ roleClaim: 'app_metadata.role', clockTolerance: 0, databaseRoles: true });
    expect(config).not.to.have.property('anonymous');
  });

  it('accepts EC and Ed25519 PEM keys for their algorithms', () => {
    const config = validateAuthConfig(
      {
        jwt: [
          { publicKey: ec.pem, algorithms: ['ES256'] },
          { publicKey: ed.pem, algorithms: ['EdDSA', 'Ed25519'] },
        ],
      },
      'x',
    );
    expect(config.jwt.map((v) => v.algorithms)).to.deep.equal([['ES256'], ['EdDSA', 'Ed25519']]);
  });

  // [the auth settings, the path the error names, a piece of its message]
  const cases: [string, () => unknown, string, string][] = [
    ['not an object', () => [], 'auth', 'must be an object'],
    [
      'an unknown member',
      () => ({ jwt: [{ secret: SECRET, algorithms: ['HS256'] }], roles: 1 }),
      'auth.roles',
      'unknown setting',
    ],
    ['no jwt', () => ({}), 'auth.jwt', 'non-empty list'],
    ['an empty jwt', () => ({ jwt: [] }), 'auth.jwt', 'non-empty list'],
    ['a verifier that is no object', () => ({ jwt: ['HS256'] }), 'auth.jwt[0]', 'must be an object'],
    ['no key source', () => ({ jwt: [{ algorithms: ['HS256'] }] }), 'auth.jwt[0]', 'needs a key source'],
    [
      'two key sources',
      () => ({ jwt: [{ secret: SECRET, jwksUrl: 'https://id.example/jwks', algorithms: ['HS256'] }] }),
      'auth.jwt[0]',
      'has secret and jwksUrl',
    ],
    [
      'an unknown verifier member',
      () => ({ jwt: [{ secret: SECRET, algorithms: ['HS256'], kid: 'k' }] }),
      'auth.jwt[0].kid',
      'unknown setting',
    ],
    [
      'a short secret',
      () => ({ jwt: [{ secret: 'short', algorithms: ['HS256'] }] }),
      'auth.jwt[0].secret',
      'at least 32',
    ],
    [
      'a secret that is no string',
      () => ({ jwt: [{ secret: 42, algorithms: ['HS256'] }] }),
      'auth.jwt[0].secret',
      'string',
    ],
    [
      'a PEM that does not parse',
      () => ({
        jwt: [{ publicKey: '-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----', algorithms: ['RS256'] }],
      }),
      'auth.jwt[0].publicKey',
      'does not parse',
    ],
    [
      'a publicKey that is no PEM',
      () => ({ jwt: [{ publicKey: 'abc', algorithms: ['RS256'] }] }),
      'auth.jwt[0].publicKey',
      'PEM public key',
    ],
    [
      'a jwksUrl that is no URL',
      () => ({ jwt: [{ jwksUrl: 'id.example/jwks', algorithms: ['RS256'] }] }),
      'auth.jwt[0].jwksUrl',
      'http or https URL',
    ],
    [
      'a jwksUrl of another scheme',
      () => ({ jwt: [{ jwksUrl: 'file:///etc/jwks', algorithms: ['RS256'] }] }),
      'auth.jwt[0].jwksUrl',
      'http or https URL',
    ],
    ['no algorithms', () => ({ jwt: [{ secret: SECRET }] }), 'auth.jwt[0].algorithms', 'is required'],
    [
      'empty algorithms',
      () => ({ jwt: [{ secret: SECRET, algorithms: [] }] }),
      'auth.jwt[0].algorithms',
      'non-empty list',
    ],
    [
      'an unknown algorithm',
      () => ({ jwt: [{ secret: SECRET, algorithms: ['HS256', 'HS1'] }] }),
      'auth.jwt[0].algorithms[1]',
      'unknown JWS algorithm "HS1"',
    ],
    [
      'an algorithm in the wrong case',
      () => ({ jwt: [{ secret: SECRET, algorithms: ['hs256'] }] }),
      'auth.jwt[0].algorithms[0]',
      'unknown JWS algorithm',
    ],
    [
      'a repeated algorithm',
      () => ({ jwt: [{ secret: SECRET, algorithms: ['HS256', 'HS256'] }] }),
      'auth.jwt[0].algorithms[1]',
      'listed twice',
    ],
    ['none', () => ({ jwt: [{ secret: SECRET, algorithms: ['none'] }] }), 'auth.jwt[0].algorithms[0]', '"none"'],
    [
      'None',
      () => ({ jwt: [{ jwksUrl: 'https://id.example/jwks', algorithms: ['RS256', 'None'] }] }),
      'auth.jwt[0].algorithms[1]',
      '"none"',
    ],
    ['NONE', () => ({ jwt: [{ secret: SECRET, algorithms: ['NONE'] }] }), 'auth.jwt[0].algorithms[0]', '"none"'],
    [
      'RS256 with a secret',
      () => ({ jwt: [{ secret: SECRET, algorithms: ['RS256'] }] }),
      'auth.jwt[0].algorithms[0]',
      'needs a publicKey or a jwksUrl',
    ],
    [
      'HS256 with a JWKS',
      () => ({
        jwt: [
          { secret: SECRET, algorithms: ['HS256'] },
          { jwksUrl: 'https://id.example/jwks', algorithms: ['RS256', 'HS256'] },
        ],
      }),
      'auth.jwt[1].algorithms[1]',
      'HS256 needs a secret',
    ],
    [
      'HS256 with a PEM key',
      () => ({ jwt: [{ publicKey: rsa.pem, algorithms: ['HS256'] }] }),
      'auth.jwt[0].algorithms[0]',
      'HS256 needs a secret',
    ],
    [
      'ES256 with an RSA key',
      () => ({ jwt: [{ publicKey: rsa.pem, algorithms: ['ES256'] }] }),
      'auth.jwt[0].algorithms[0]',
      'needs an EC P-256 key; publicKey is an RSA key',
    ],
    [
      'RS256 with an EC key',
      () => ({ jwt: [{ publicKey: ec.pem, algorithms: ['RS256'] }] }),
      'auth.jwt[0].algorithms[0]',
      'publicKey is an EC P-256 key',
    ],
    [
      'ES384 with a P-256 key',
      () => ({ jwt: [{ publicKey: ec.pem, algorithms: ['ES384'] }] }),
      'auth.jwt[0].algorithms[0]',
      'needs an EC P-384 key',
    ],
    [
      'EdDSA with an Ed448 key',
      () => ({ jwt: [{ publicKey: ed448, algorithms: ['EdDSA'] }] }),
      'auth.jwt[0].algorithms[0]',
      'no accepted algorithm uses',
    ],
    [
      'EdDSA with an X25519 key',
      () => ({ jwt: [{ publicKey: x25519, algorithms: ['EdDSA'] }] }),
      'auth.jwt[0].algorithms[0]',
      'needs an Ed25519 key',
    ],
    [
      'RS256 with a 1024-bit key',
      () => ({ jwt: [{ publicKey: smallRsa, algorithms: ['RS256'] }] }),
      'auth.jwt[0].algorithms[0]',
      '2048 bits',
    ],
    [
      'an empty issuer',
      () => ({ jwt: [{ secret: SECRET, algorithms: ['HS256'], issuer: '' }] }),
      'auth.jwt[0].issuer',
      'non-empty string',
    ],
    [
      'an empty audience list',
      () => ({ jwt: [{ secret: SECRET, algorithms: ['HS256'], audience: [] }] }),
      'auth.jwt[0].audience',
      'non-empty',
    ],
    [
      'an audience that is no string',
      () => ({ jwt: [{ secret: SECRET, algorithms: ['HS256'], audience: ['a', 7] }] }),
      'auth.jwt[0].audience[1]',
      'non-empty string',
    ],
    [
      'an empty roleClaim',
      () => ({ jwt: [{ secret: SECRET, algorithms: ['HS256'] }], roleClaim: '' }),
      'auth.roleClaim',
      'dotted path',
    ],
    [
      'a roleClaim with an empty segment',
      () => ({ jwt: [{ secret: SECRET, algorithms: ['HS256'] }], roleClaim: 'a..role' }),
      'auth.roleClaim',
      'dotted path',
    ],
    [
      'a negative clockTolerance',
      () => ({ jwt: [{ secret: SECRET, algorithms: ['HS256'] }], clockTolerance: -1 }),
      'auth.clockTolerance',
      '0 or more',
    ],
    [
      'a fractional clockTolerance',
      () => ({ jwt: [{ secret: SECRET, algorithms: ['HS256'] }], clockTolerance: 1.5 }),
      'auth.clockTolerance',
      'whole number',
    ],
    [
      'a clockTolerance in words',
      () => ({ jwt: [{ secret: SECRET, algorithms: ['HS256'] }], clockTolerance: '30s' }),
      'auth.clockTolerance',
      'whole number',
    ],
    [
      'an empty anonymous role',
      () => ({ jwt: [{ secret: SECRET, algorithms: ['HS256'] }], anonymous: '' }),
      'auth.anonymous',
      'non-empty string',
    ],
    [
      'databaseRoles as a string',
      () => ({ jwt: [{ secret: SECRET, algorithms: ['HS256'] }], databaseRoles: 'yes' }),
      'auth.databaseRoles',
      'true or false',
    ],
  ];
  for (const [name, value, path, message] of cases) {
    it(`refuses ${name} at ${path}`, () => {
      let error: unknown;
      try {
        validateAuthConfig(value(), 'colapi.config.json');
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(AuthConfigError);
      const e = error as AuthConfigError;
      expect({ source: e.source, path: e.path }).to.deep.equal({ source: 'colapi.config.json', path });
      expect(e.message).to.match(new RegExp(`^colapi\\.config\\.json: ${path.replace(/[.[\]]/g, '\\$&')}: `));
      expect(e.message).to.include(message);
    });
  }

  it('never puts a secret into a message', () => {
    const secret = 'too-short-but-secret';
    expect(() => validateAuthConfig({ jwt: [{ secret, algorithms: ['HS256'] }] }, 'x'))
      .to.throw(AuthConfigError)
      .with.property('message')
      .that.does.not.include(secret);
  });
});
