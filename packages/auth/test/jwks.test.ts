import { type Authenticator, type AuthenticatorOptions, createAuthenticator, validateAuthConfig } from '@colapi/auth';
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { type CountingServer, startCountingServer } from './helpers/counting-server.js';
import { expectAuthError } from './helpers/expect-auth-error.js';
import { signed, type TestKey, testKey } from './helpers/tokens.js';

// Long enough that verifying twenty tokens on a loaded two-core machine stays within one cooldown.
const COOLDOWN = 1500;
const bearer = (token: string) => `Bearer ${token}`;

describe('JWKS: fetched from the configured URL, cached, refreshed at most once per cooldown', () => {
  let a: TestKey;
  let b: TestKey;
  let stranger: TestKey;
  let server: CountingServer;
  const open = (options: AuthenticatorOptions = {}): Authenticator =>
    createAuthenticator(validateAuthConfig({ jwt: [{ jwksUrl: server.url, algorithms: ['ES256', 'RS256'] }] }, 't'), {
      jwksCooldownMs: COOLDOWN,
      ...options,
    });

  before(async () => {
    [a, b, stranger] = await Promise.all([testKey('ES256', 'a'), testKey('ES256', 'b'), testKey('ES256', 'stranger')]);
  });
  beforeEach(async () => {
    // Each answer is held back 50 ms, so that concurrent requests really overlap a fetch.
    server = await startCountingServer({ keys: [a.jwk] }, 50);
  });
  afterEach(() => server.close());

  it('fetches nothing before a token needs it', async () => {
    open();
    await sleep(20);
    expect(server.requests).to.equal(0);
  });

  it('fetches once for 20 concurrent tokens with unknown kids on a cold start', async () => {
    const auth = open();
    const tokens = await Promise.all(
      Array.from({ length: 20 }, (_, i) => signed({ ...stranger, kid: `unknown-${i}` }, { role: 'r' })),
    );
    await Promise.all(tokens.map((t) => expectAuthError(auth.authenticate(bearer(t)), 401, 'unknown_kid', t)));
    expect(server.requests).to.equal(1);
  });

  it('fetches exactly once per cooldown under 20 concurrent unknown kids, however many come', async () => {
    const auth = open();
    expect((await auth.authenticate(bearer(await signed(a, { role: 'r' })))).role).to.equal('r');
    expect(server.requests).to.equal(1);
    const unknown = await Promise.all(
      Array.from({ length: 20 }, (_, i) => signed({ ...stranger, kid: `unknown-${i}` }, { role: 'r' })),
    );
    const flood = () =>
      Promise.all(unknown.map((t) => expectAuthError(auth.authenticate(bearer(t)), 401, 'unknown_kid', t)));

    await flood(); // within the cooldown of the first fetch: refused without fetching
    expect(server.requests).to.equal(1);
    await sleep(COOLDOWN + 50);
    await flood(); // cooldown over: one fetch, shared by all twenty
    expect(server.requests).to.equal(2);
    await flood();
    await flood();
    expect(server.requests).to.equal(2);
    await sleep(COOLDOWN + 50);
    await flood();
    expect(server.requests).to.equal(3);
    // Known keys keep verifying from the cache meanwhile.
    expect((await auth.authenticate(bearer(await signed(a, { role: 'r' })))).role).to.equal('r');
    expect(server.requests).to.equal(3);
  });

  it('rotates: a new kid is fetched, and a key removed from the set stops verifying after the refresh', async () => {
    const auth = open();
    const tokenA = await signed(a, { role: 'r' });
    const tokenB = await signed(b, { role: 'r' });
    expect((await auth.authenticate(bearer(tokenA))).role).to.equal('r');

    server.body = { keys: [b.jwk] }; // the provider rotates: a out, b in
    expect((await auth.authenticate(bearer(tokenA))).role, 'a verifies until the set is fetched again').to.equal('r');
    await sleep(COOLDOWN + 50);
    expect((await auth.authenticate(bearer(tokenB))).role).to.equal('r'); // unknown kid b: fetched
    expect(server.requests).to.equal(2);
    await expectAuthError(auth.authenticate(bearer(tokenA)), 401, 'unknown_kid', tokenA);
    await sleep(COOLDOWN + 50);
    await expectAuthError(auth.authenticate(bearer(tokenA)), 401, 'unknown_kid', tokenA);
    expect(server.requests).to.equal(3);
  });

  it('fetches again once the set is older than jwksMaxAgeMs, with no unknown kid needed', async () => {
    const auth = open({ jwksMaxAgeMs: 1000, jwksCooldownMs: 1000 });
    const tokenA = await signed(a, { role: 'r' });
    expect((await auth.authenticate(bearer(tokenA))).role).to.equal('r');
    server.body = { keys: [b.jwk] };
    await sleep(1100);
    await expectAuthError(auth.authenticate(bearer(tokenA)), 401, 'unknown_kid', tokenA);
    expect(server.requests).to.equal(2);
  });

  it('answers jwks_unavailable when the set cannot be fetched, retries only after the cooldown, and reports', async () => {
    const failures: string[] = [];
    const auth = open({ onJwksError: (_error, url) => failures.push(url) });
    const token = await signed(a, { role: 'r' });
    server.status = 500;
    await Promise.all(
      Array.from({ length: 5 }, () =>
        expectAuthError(auth.authenticate(bearer(token)), 401, 'jwks_unavailable', token),
      ),
    );
    await expectAuthError(auth.authenticate(bearer(token)), 401, 'jwks_unavailable', token);
    expect(server.requests).to.equal(1);
    expect(failures).to.deep.equal([server.url]);

    server.status = 200;
    server.body = { nope: true }; // not a key set
    await sleep(COOLDOWN + 50);
    await expectAuthError(auth.authenticate(bearer(token)), 401, 'jwks_unavailable', token);
    expect(server.requests).to.equal(2);

    server.body = { keys: [a.jwk] };
    await sleep(COOLDOWN + 50);
    expect((await auth.authenticate(bearer(token))).role).to.equal('r');
    expect(server.requests).to.equal(3);
  });

  it('keeps the cached set when a refresh fails', async () => {
    const auth = open({ jwksMaxAgeMs: 100, jwksCooldownMs: 50 });
    const token = await signed(a, { role: 'r' });
    expect((await auth.authenticate(bearer(token))).role).to.equal('r');
    server.status = 503;
    await sleep(150);
    expect((await auth.authenticate(bearer(token))).role).to.equal('r');
    expect(server.requests).to.equal(2);
  });

  it('tries each matching key for a token without kid', async () => {
    const { kid: _a, ...first } = a.jwk;
    const { kid: _b, ...second } = b.jwk;
    server.body = { keys: [first, second] };
    const auth = open();
    const token = await signed({ ...b, kid: undefined as unknown as string }, { role: 'r' });
    expect((await auth.authenticate(bearer(token))).role).to.equal('r');
    const other = await signed({ ...stranger, kid: undefined as unknown as string }, { role: 'r' });
    await expectAuthError(auth.authenticate(bearer(other)), 401, 'invalid_signature', other);
  });
});
