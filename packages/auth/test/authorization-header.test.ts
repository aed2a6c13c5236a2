import { createAuthenticator, MAX_TOKEN_LENGTH, validateAuthConfig } from '@colapi/auth';
import { expect } from 'chai';
import { expectAuthError } from './helpers/expect-auth-error.js';
import { SECRET, signed } from './helpers/tokens.js';

const strict = createAuthenticator(validateAuthConfig({ jwt: [{ secret: SECRET, algorithms: ['HS256'] }] }, 'test'));
const open = createAuthenticator(
  validateAuthConfig({ jwt: [{ secret: SECRET, algorithms: ['HS256'] }], anonymous: 'anon' }, 'test'),
);

describe('the Authorization header', () => {
  let token: string;
  before(async () => {
    token = await signed(SECRET, { role: 'reader', sub: 'u1' });
  });

  it('without one, answers 401 with WWW-Authenticate: Bearer when there is no anonymous role', async () => {
    await expectAuthError(strict.authenticate(undefined), 401, 'missing', undefined, 'Bearer');
  });

  it('without one, answers the anonymous role when there is one', async () => {
    expect(await open.authenticate(undefined)).to.deep.equal({ role: 'anon', claims: {}, anonymous: true });
  });

  it('takes the Bearer scheme in any letter case', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR'])
      expect(await strict.authenticate(`${scheme} ${token}`)).to.deep.include({
        role: 'reader',
        sub: 'u1',
        anonymous: false,
      });
  });

  const malformed: [string, (t: string) => string][] = [
    ['Basic credentials', () => `Basic ${Buffer.from('user:password').toString('base64')}`],
    ['Basic with a JWT', (t) => `Basic ${t}`],
    ['another scheme', (t) => `Token ${t}`],
    ['the token alone', (t) => t],
    ['Bearer and nothing', () => 'Bearer'],
    ['Bearer and a space', () => 'Bearer '],
    ['Bearer and two tokens', (t) => `Bearer ${t} ${t}`],
    ['Bearer a b', () => 'Bearer a b'],
    ['two spaces after Bearer', (t) => `Bearer  ${t}`],
    ['a tab after Bearer', (t) => `Bearer\t${t}`],
    ['an empty header', () => ''],
    ['a token that is no JWT', () => 'Bearer opaque-token-0123456789'],
    ['a token in standard base64 with padding', () => 'Bearer YWJj+/==.YWJj.YWJj'],
  ];
  for (const [name, header] of malformed) {
    it(`refuses ${name} as 401 invalid_token, even with an anonymous role`, async () => {
      await expectAuthError(strict.authenticate(header(token)), 401, 'malformed', token);
      await expectAuthError(open.authenticate(header(token)), 401, 'malformed', token);
    });
  }

  it(`refuses a token over ${MAX_TOKEN_LENGTH} characters before decoding it (a 100 KB token)`, async () => {
    const huge = await signed(SECRET, { role: 'reader', padding: 'x'.repeat(100 * 1024) });
    await expectAuthError(open.authenticate(`Bearer ${huge}`), 401, 'too_large', huge);
  });

  it(`accepts a token right up to ${MAX_TOKEN_LENGTH} characters and refuses the next size`, async () => {
    const fill = (n: number) => signed(SECRET, { role: 'reader', pad: 'x'.repeat(n) });
    // Padding grows the token by one or two characters at a time: the largest one within the limit.
    let pad = Math.floor(((MAX_TOKEN_LENGTH - (await fill(0)).length) * 3) / 4);
    let within = await fill(pad);
    while (within.length <= MAX_TOKEN_LENGTH) within = await fill(++pad);
    const over = within;
    within = await fill(--pad);
    expect(within.length).to.be.within(MAX_TOKEN_LENGTH - 1, MAX_TOKEN_LENGTH);
    expect((await strict.authenticate(`Bearer ${within}`)).role).to.equal('reader');
    await expectAuthError(strict.authenticate(`Bearer ${over}`), 401, 'too_large');
  });
});
