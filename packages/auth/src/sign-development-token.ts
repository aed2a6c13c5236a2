import { SignJWT } from 'jose';
import type { AuthConfig, SecretVerifierConfig } from './auth-config.js';
import { setOwn, writeClaim } from './claim-path.js';

/** What a development token says. */
export interface DevelopmentTokenOptions {
  /** The role, put at the configured `roleClaim`. */
  readonly role: string;
  readonly sub?: string;
  /** Further claims; the registered ones (`iss`, `sub`, `aud`, `exp`, `nbf`, `iat`, `jti`) are refused. */
  readonly claims?: Readonly<Record<string, string | number | boolean>>;
  /** Lifetime: a positive whole number and a unit, `s`, `m`, `h` or `d`, such as `3600s`, `30m`, `1h`. */
  readonly expiresIn: string;
}

const REGISTERED = ['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti'];
const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** Seconds of a lifetime such as `30m`. */
export function parseLifetime(text: string): number {
  const m = /^([1-9][0-9]*)([smhd])$/.exec(text);
  if (!m) throw new Error(`expiresIn: ${JSON.stringify(text)} is not a lifetime such as 3600s, 30m, 1h or 7d`);
  return Number(m[1]) * UNIT_SECONDS[m[2]!]!;
}

/**
 * Signs a token for development and tests (the `colapi token` command), with the shared secret of the
 * first `secret` verifier that accepts HS256, else of the first `secret` verifier with its first
 * algorithm. The token carries that verifier's `issuer` and `audience` (one audience as a string, several
 * as a list), the role at `roleClaim` (nested objects for a dotted path), `sub`, `iat` and `exp`.
 * Throws when no verifier has a secret.
 */
export async function signDevelopmentToken(config: AuthConfig, options: DevelopmentTokenOptions): Promise<string> {
  const secrets = config.jwt.filter((v): v is SecretVerifierConfig => v.kind === 'secret');
  const verifier = secrets.find((v) => v.algorithms.includes('HS256')) ?? secrets[0];
  if (!verifier)
    throw new Error(
      'no auth.jwt verifier has a secret: development tokens are signed with a shared secret ' +
        '(add a verifier such as { "secret": "…at least 32 characters…", "algorithms": ["HS256"] })',
    );
  const alg = verifier.algorithms.includes('HS256') ? 'HS256' : verifier.algorithms[0]!;
  if (typeof options.role !== 'string' || options.role === '') throw new Error('role: must be a non-empty string');
  const seconds = parseLifetime(options.expiresIn);

  const roleRoot = config.roleClaim.split('.')[0]!;
  const payload: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(options.claims ?? {})) {
    if (REGISTERED.includes(name) || name === roleRoot || name === config.roleClaim)
      throw new Error(`claims: ${name} is set by the token itself, not as a claim`);
    setOwn(payload, name, value);
  }
  writeClaim(payload, config.roleClaim, options.role);

  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT(payload)
    .setProtectedHeader({ alg, typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + seconds);
  if (options.sub !== undefined) jwt.setSubject(options.sub);
  if (verifier.issuer !== undefined) jwt.setIssuer(verifier.issuer);
  const audience = verifier.audience;
  if (audience !== undefined) jwt.setAudience(audience.length === 1 ? audience[0]! : [...audience]);
  return jwt.sign(new TextEncoder().encode(verifier.secret));
}
