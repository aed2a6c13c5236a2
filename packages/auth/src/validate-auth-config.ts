import { createPublicKey, type KeyObject } from 'node:crypto';
import { describeKey, isJwsAlgorithm, JWS_ALGORITHMS, type JwsAlgorithm, keyKind } from './algorithms.js';
import { AUTH_DEFAULTS, type AuthConfig, type VerifierConfig } from './auth-config.js';

/**
 * `auth` settings that cannot be used. The message reads `source: auth.jwt[1].algorithms: problem`;
 * `source` (a file name, say) and `path` are also kept apart. No message contains a secret.
 */
export class AuthConfigError extends Error {
  override name = 'AuthConfigError';

  constructor(
    readonly source: string,
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${source}: ${path}: ${problem}`);
  }
}

/** Shortest shared secret accepted, in characters. */
export const MIN_SECRET_LENGTH = 32;

const ROOT_MEMBERS = ['jwt', 'roleClaim', 'clockTolerance', 'anonymous', 'databaseRoles'];
const VERIFIER_MEMBERS = ['secret', 'publicKey', 'jwksUrl', 'algorithms', 'issuer', 'audience'];
const KEY_SOURCES = ['secret', 'publicKey', 'jwksUrl'] as const;

type Fail = (path: string, problem: string) => never;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const show = (v: unknown): string => (v === undefined ? 'nothing' : JSON.stringify(v));

function members(value: unknown, path: string, known: readonly string[], fail: Fail): Record<string, unknown> {
  if (!isObject(value)) return fail(path, `must be an object, not ${show(value)}`);
  for (const k of Object.keys(value))
    if (!known.includes(k)) fail(`${path}.${k}`, `unknown setting; known: ${known.join(', ')}`);
  return value;
}

function nonEmptyString(value: unknown, path: string, fail: Fail): string {
  if (typeof value !== 'string' || value === '') fail(path, `must be a non-empty string, not ${show(value)}`);
  return value as string;
}

/**
 * Checks the `auth` settings (the value under `auth` in colapi.config.json) and answers them normalized:
 * defaults filled in, `audience` always a list, each verifier tagged with its `kind`. Throws an
 * {@link AuthConfigError} naming `source` and the JSON path of the first problem, such as
 * `auth.jwt[1].algorithms[0]`.
 */
export function validateAuthConfig(value: unknown, source: string): AuthConfig {
  const fail: Fail = (path, problem) => {
    throw new AuthConfigError(source, path, problem);
  };
  const auth = members(value, 'auth', ROOT_MEMBERS, fail);

  const jwt = auth.jwt;
  if (!Array.isArray(jwt) || jwt.length === 0)
    fail('auth.jwt', `must be a non-empty list of verifiers, not ${show(jwt)}`);
  const verifiers = (jwt as unknown[]).map((v, i) => verifier(v, `auth.jwt[${i}]`, fail));

  const roleClaim = auth.roleClaim === undefined ? AUTH_DEFAULTS.roleClaim : auth.roleClaim;
  if (typeof roleClaim !== 'string' || roleClaim.split('.').some((segment) => segment === ''))
    fail('auth.roleClaim', `must be a claim name or a dotted path such as app_metadata.role, not ${show(roleClaim)}`);

  const clockTolerance = auth.clockTolerance === undefined ? AUTH_DEFAULTS.clockTolerance : auth.clockTolerance;
  if (!Number.isSafeInteger(clockTolerance) || (clockTolerance as number) < 0)
    fail('auth.clockTolerance', `must be a whole number of seconds, 0 or more, not ${show(clockTolerance)}`);

  const anonymous = auth.anonymous === undefined ? undefined : nonEmptyString(auth.anonymous, 'auth.anonymous', fail);

  const databaseRoles = auth.databaseRoles === undefined ? AUTH_DEFAULTS.databaseRoles : auth.databaseRoles;
  if (typeof databaseRoles !== 'boolean')
    fail('auth.databaseRoles', `must be true or false, not ${show(databaseRoles)}`);

  return Object.freeze({
    jwt: Object.freeze(verifiers),
    roleClaim: roleClaim as string,
    clockTolerance: clockTolerance as number,
    ...(anonymous === undefined ? {} : { anonymous }),
    databaseRoles: databaseRoles as boolean,
  });
}

function verifier(value: unknown, path: string, fail: Fail): VerifierConfig {
  const v = members(value, path, VERIFIER_MEMBERS, fail);
  const given = KEY_SOURCES.filter((k) => v[k] !== undefined);
  if (given.length !== 1)
    fail(
      path,
      given.length === 0
        ? 'needs a key source: one of secret, publicKey, jwksUrl'
        : `has ${given.join(' and ')}: give exactly one key source`,
    );

  let key: KeyObject | undefined;
  let base: VerifierConfig;
  if (v.secret !== undefined) {
    // The length only: the secret itself never goes into a message.
    if (typeof v.secret !== 'string') fail(`${path}.secret`, 'must be a string');
    const length = [...(v.secret as string)].length;
    if (length < MIN_SECRET_LENGTH)
      fail(`${path}.secret`, `must be at least ${MIN_SECRET_LENGTH} characters long (it has ${length})`);
    base = { kind: 'secret', secret: v.secret as string, algorithms: [] };
  } else if (v.publicKey !== undefined) {
    key = publicKey(v.publicKey, `${path}.publicKey`, fail);
    base = { kind: 'publicKey', publicKey: v.publicKey as string, algorithms: [] };
  } else {
    const url = nonEmptyString(v.jwksUrl, `${path}.jwksUrl`, fail);
    if (!URL.canParse(url) || !['http:', 'https:'].includes(new URL(url).protocol))
      fail(`${path}.jwksUrl`, `must be an http or https URL, not ${show(url)}`);
    base = { kind: 'jwks', jwksUrl: url, algorithms: [] };
  }

  const algorithms = algorithmList(v.algorithms, `${path}.algorithms`, base.kind, key, fail);
  const issuer = v.issuer === undefined ? undefined : nonEmptyString(v.issuer, `${path}.issuer`, fail);
  const audience = v.audience === undefined ? undefined : audienceList(v.audience, `${path}.audience`, fail);
  return Object.freeze({
    ...base,
    algorithms,
    ...(issuer === undefined ? {} : { issuer }),
    ...(audience === undefined ? {} : { audience }),
  });
}

function publicKey(value: unknown, path: string, fail: Fail): KeyObject {
  const problem = 'must be a PEM public key (-----BEGIN PUBLIC KEY-----, SPKI)';
  if (typeof value !== 'string' || !value.includes('-----BEGIN PUBLIC KEY-----')) return fail(path, problem);
  try {
    return createPublicKey({ key: value, format: 'pem' });
  } catch {
    return fail(path, `${problem}; this one does not parse`);
  }
}

function algorithmList(
  value: unknown,
  path: string,
  kind: VerifierConfig['kind'],
  key: KeyObject | undefined,
  fail: Fail,
): readonly JwsAlgorithm[] {
  if (value === undefined) fail(path, 'is required: the algorithms this key signs with, such as ["HS256"]');
  if (!Array.isArray(value) || value.length === 0) fail(path, `must be a non-empty list, not ${show(value)}`);
  const algorithms: JwsAlgorithm[] = [];
  for (const [i, alg] of (value as unknown[]).entries()) {
    const at = `${path}[${i}]`;
    if (typeof alg === 'string' && alg.toLowerCase() === 'none')
      fail(at, 'unsigned tokens (alg "none") are never accepted');
    if (typeof alg !== 'string' || !isJwsAlgorithm(alg))
      fail(at, `unknown JWS algorithm ${show(alg)}; known: ${Object.keys(JWS_ALGORITHMS).join(', ')}`);
    const a = alg as JwsAlgorithm;
    if (algorithms.includes(a)) fail(at, `${a} is listed twice`);
    const needs = JWS_ALGORITHMS[a];
    if (needs === 'secret' && kind !== 'secret')
      fail(at, `${a} needs a secret; with a public key, anyone holding that key could sign tokens`);
    if (needs !== 'secret' && kind === 'secret') fail(at, `${a} needs a publicKey or a jwksUrl, not a secret`);
    if (key && keyKind(key) !== needs)
      fail(at, `${a} needs ${describeKey(needs)}; publicKey is ${describeKey(keyKind(key))}`);
    algorithms.push(a);
  }
  return Object.freeze(algorithms);
}

function audienceList(value: unknown, path: string, fail: Fail): readonly string[] {
  if (typeof value === 'string' && value !== '') return Object.freeze([value]);
  if (!Array.isArray(value) || value.length === 0)
    return fail(path, `must be a non-empty string or a non-empty list of them, not ${show(value)}`);
  for (const [i, a] of value.entries()) nonEmptyString(a, `${path}[${i}]`, fail);
  return Object.freeze([...(value as string[])]);
}
