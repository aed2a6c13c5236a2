import type { KeyObject } from 'node:crypto';

/** The key a JWS algorithm verifies with: a shared secret, or a public key of one type. */
export type KeyRequirement = 'secret' | 'rsa' | 'ec-p256' | 'ec-p384' | 'ec-p521' | 'ed25519';

/** The JWS algorithms colapi accepts (RFC 7518, and EdDSA/Ed25519 of RFC 8037 and RFC 9864). `none` is not one. */
export type JwsAlgorithm =
  | 'HS256'
  | 'HS384'
  | 'HS512'
  | 'RS256'
  | 'RS384'
  | 'RS512'
  | 'PS256'
  | 'PS384'
  | 'PS512'
  | 'ES256'
  | 'ES384'
  | 'ES512'
  | 'EdDSA'
  | 'Ed25519';

/** Every accepted algorithm and the key it needs; the type above and this table cannot drift apart. */
export const JWS_ALGORITHMS: Readonly<Record<JwsAlgorithm, KeyRequirement>> = Object.freeze({
  HS256: 'secret',
  HS384: 'secret',
  HS512: 'secret',
  RS256: 'rsa',
  RS384: 'rsa',
  RS512: 'rsa',
  PS256: 'rsa',
  PS384: 'rsa',
  PS512: 'rsa',
  ES256: 'ec-p256',
  ES384: 'ec-p384',
  ES512: 'ec-p521',
  EdDSA: 'ed25519',
  Ed25519: 'ed25519',
});

export const isJwsAlgorithm = (value: string): value is JwsAlgorithm => Object.hasOwn(JWS_ALGORITHMS, value);

/** Smallest RSA modulus accepted, in bits (RFC 7518 §3.3; jose refuses smaller ones too). */
export const MIN_RSA_BITS = 2048;

const CURVES: Readonly<Record<string, KeyRequirement>> = {
  prime256v1: 'ec-p256',
  secp384r1: 'ec-p384',
  secp521r1: 'ec-p521',
};

/** What a parsed public key can verify, or undefined for a key no accepted algorithm uses. */
export function keyKind(key: KeyObject): KeyRequirement | undefined {
  const details = key.asymmetricKeyDetails ?? {};
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return (details.modulusLength ?? 0) >= MIN_RSA_BITS ? 'rsa' : undefined;
    case 'ec':
      return CURVES[details.namedCurve ?? ''];
    case 'ed25519':
      return 'ed25519';
    default:
      return undefined;
  }
}

/** A key requirement in words, for error messages. */
export const describeKey = (kind: KeyRequirement | undefined): string =>
  kind === undefined
    ? 'a key no accepted algorithm uses (an RSA key under 2048 bits, another curve or type)'
    : {
        secret: 'a shared secret',
        rsa: `an RSA key of ${MIN_RSA_BITS} bits or more`,
        'ec-p256': 'an EC P-256 key',
        'ec-p384': 'an EC P-384 key',
        'ec-p521': 'an EC P-521 key',
        ed25519: 'an Ed25519 key',
      }[kind];
