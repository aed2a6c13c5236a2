import { createHmac } from 'node:crypto';
import { type CryptoKey, exportJWK, exportSPKI, generateKeyPair, type JWK, SignJWT } from 'jose';

export const SECRET = 'a-shared-secret-of-at-least-32-characters';
export const now = (): number => Math.floor(Date.now() / 1000);

const base64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A token put together by hand: any header, any payload, the signature `sign` makes of `header.payload`. */
export function handmade(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  sign: (input: string) => string = () => '',
): string {
  const input = `${base64url(header)}.${base64url(payload)}`;
  return `${input}.${sign(input)}`;
}

/** An HMAC-SHA256 signature of `input` with `key` as the secret, base64url. */
export const hs256 = (key: string) => (input: string) => createHmac('sha256', key).update(input).digest('base64url');

/** A key pair of an algorithm, with its public half as PEM (SPKI) and as a JWK carrying `kid`. */
export interface TestKey {
  readonly alg: string;
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly pem: string;
  readonly jwk: JWK;
}

export async function testKey(alg: string, kid: string): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return {
    alg,
    kid,
    privateKey,
    pem: await exportSPKI(publicKey),
    jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' },
  };
}

/** A token signed with jose: `exp` an hour ahead unless the payload says otherwise; extra header members as given. */
export function signed(
  key: TestKey | string,
  payload: Record<string, unknown>,
  header: Record<string, unknown> = {},
): Promise<string> {
  const claims = { exp: now() + 3600, ...payload };
  if (typeof key === 'string')
    return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', ...header }).sign(new TextEncoder().encode(key));
  return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, ...header }).sign(key.privateKey);
}
