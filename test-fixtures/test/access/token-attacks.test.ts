import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AUTH, ROLES, tampered } from './tenants.js';

/**
 * The token attacks of the JWT literature, over HTTP against a server with an HS256 and an RS256 verifier
 * and an anonymous role: each is 401 with `WWW-Authenticate: Bearer error="invalid_token"`, never served
 * as the anonymous role, and a token naming a key's address makes the server fetch nothing.
 */
const SECRET = AUTH.jwt[0]!.secret;
const ISSUER = AUTH.jwt[0]!.issuer;
const AUDIENCE = AUTH.jwt[0]!.audience;
const rsa = await generateKeyPair('RS256', { extractable: true });
const RSA_PEM = await exportSPKI(rsa.publicKey);
const auth = { ...AUTH, jwt: [AUTH.jwt[0]!, { publicKey: RSA_PEM, algorithms: ['RS256'] }] };

const now = () => Math.floor(Date.now() / 1000);
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const hmac = (key: string, input: string) => createHmac('sha256', key).update(input).digest('base64url');
/** A token put together by hand, signed with HMAC-SHA256 over `key` when one is given. */
const handmade = (header: Record<string, unknown>, payload: Record<string, unknown>, key?: string) => {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${key === undefined ? '' : hmac(key, input)}`;
};
const claims = (extra: Record<string, unknown> = {}) => ({
  role: 'member',
  tenant: 1,
  sub: 'u1',
  iss: ISSUER,
  aud: AUDIENCE,
  iat: now(),
  exp: now() + 600,
  ...extra,
});
const valid = () => handmade({ alg: 'HS256', typ: 'JWT' }, claims(), SECRET);

describeEachDatabase(
  'access control: token attacks over HTTP',
  (t) => {
    let hits = 0;
    let keyServer: ReturnType<typeof createServer>;
    let keyUrl: string;
    before(async () => {
      // Where a hostile token says its key lives: it must never be asked.
      keyServer = createServer((_req, res) => {
        hits++;
        res.end('{"keys":[]}');
      });
      keyServer.listen(0, '127.0.0.1');
      await once(keyServer, 'listening');
      keyUrl = `http://127.0.0.1:${(keyServer.address() as AddressInfo).port}/jwks.json`;
    });
    after(() => keyServer.close());

    const refused = async (authorization: string, statuses = [401]) => {
      const res = await t().http.get('/api/tag', { headers: { authorization } });
      expect(statuses, `${authorization.slice(0, 60)}: ${res.status} ${res.text.slice(0, 200)}`).to.include(res.status);
      if (res.status === 401) {
        expect(res.headers.get('www-authenticate')).to.equal('Bearer error="invalid_token"');
        expect(res.body.data, 'served as anonymous').to.equal(undefined);
      }
    };

    it('a valid token of each verifier is served (the cases below fail for their flaw alone)', async () => {
      expect((await t().http.get('/api/person', { headers: { authorization: `Bearer ${valid()}` } })).status).to.equal(
        200,
      );
      const rs = await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256' }).sign(rsa.privateKey);
      expect((await t().http.get('/api/person', { headers: { authorization: `Bearer ${rs}` } })).status).to.equal(200);
    });

    it('alg none, in any letter case', async () => {
      for (const alg of ['none', 'None', 'NONE', 'nOnE']) await refused(`Bearer ${handmade({ alg }, claims())}`);
    });

    it('HS256 signed with the RSA public key as the secret', async () => {
      await refused(`Bearer ${handmade({ alg: 'HS256' }, claims(), RSA_PEM)}`);
    });

    it('algorithms outside the lists', async () => {
      for (const alg of ['HS512', 'RS512', 'PS256', 'ES256', 'EdDSA'])
        await refused(`Bearer ${handmade({ alg }, claims(), SECRET)}`);
    });

    it('a tampered signature or payload', async () => {
      const token = valid();
      const [h, , s] = token.split('.');
      await refused(`Bearer ${tampered(token)}`);
      await refused(`Bearer ${h}.${b64(claims({ tenant: 2 }))}.${s}`);
    });

    it('two or four segments', async () => {
      const [h, p, s] = valid().split('.');
      await refused(`Bearer ${h}.${p}`);
      await refused(`Bearer ${h}.${p}.${s}.${s}`);
    });

    it('expired, not yet valid, a string exp, no exp', async () => {
      await refused(`Bearer ${handmade({ alg: 'HS256' }, claims({ exp: now() - 3600 }), SECRET)}`);
      await refused(`Bearer ${handmade({ alg: 'HS256' }, claims({ nbf: now() + 3600 }), SECRET)}`);
      await refused(`Bearer ${handmade({ alg: 'HS256' }, claims({ exp: String(now() + 600) }), SECRET)}`);
      const { exp: _, ...noExp } = claims();
      await refused(`Bearer ${handmade({ alg: 'HS256' }, noExp, SECRET)}`);
    });

    it('a wrong or absent issuer or audience', async () => {
      await refused(`Bearer ${handmade({ alg: 'HS256' }, claims({ iss: 'https://evil.test' }), SECRET)}`);
      await refused(`Bearer ${handmade({ alg: 'HS256' }, claims({ aud: 'someone-else' }), SECRET)}`);
      const { iss: _i, ...noIss } = claims();
      const { aud: _a, ...noAud } = claims();
      await refused(`Bearer ${handmade({ alg: 'HS256' }, noIss, SECRET)}`);
      await refused(`Bearer ${handmade({ alg: 'HS256' }, noAud, SECRET)}`);
    });

    it('jku, x5u and jwk headers naming a key: refused, and nothing is fetched', async () => {
      const attacker = await generateKeyPair('RS256', { extractable: true });
      for (const header of [{ jku: keyUrl }, { x5u: keyUrl }, { jwk: { kty: 'RSA', n: 'AQAB', e: 'AQAB' } }]) {
        const token = await new SignJWT(claims())
          .setProtectedHeader({ alg: 'RS256', ...header })
          .sign(attacker.privateKey);
        await refused(`Bearer ${token}`);
      }
      expect(hits).to.equal(0);
    });

    it('a 100 KB token: 401, or 431 where it passes the server’s header limit', async () => {
      await refused(`Bearer ${handmade({ alg: 'HS256' }, claims({ pad: 'x'.repeat(100_000) }), SECRET)}`, [401, 431]);
      await refused(`Bearer ${handmade({ alg: 'HS256' }, claims({ pad: 'x'.repeat(9_000) }), SECRET)}`);
    });

    it('Basic credentials and malformed Bearer headers', async () => {
      for (const header of [
        `Basic ${Buffer.from('root:').toString('base64')}`,
        'Bearer',
        'Bearer ',
        `Bearer ${valid()} extra`,
        `Bearer  ${valid()}`,
        `Token ${valid()}`,
        'Bearer not-a-token',
      ])
        await refused(header);
    });
  },
  { api: { access: { auth, roles: ROLES } }, seed: false },
);
