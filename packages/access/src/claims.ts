import { coercePattern, coerceValue, isNow, type ScalarValue, type ValueContext } from '@colapi/query-ast';
import type { ColumnSchema } from '@colapi/schema';
import type { Identity } from './identity.js';
import { memberPath } from './json-path.js';
import type { Fail } from './rules-error.js';

/** `{ "claim": "org.id" }` in a rule: the value of that member of the token's claims, read per request. */
export class ClaimRef {
  readonly segments: readonly string[];
  constructor(readonly path: string) {
    this.segments = Object.freeze(path.split('.'));
    Object.freeze(this);
  }
}

const SEGMENTS = /^[^.]+(?:\.[^.]+)*$/;

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A claim object, checked: exactly one member, `claim`, a dotted path of non-empty names. Rules have no
 * other object values, so every object where a value goes is read as a claim (and refused if it is not one).
 */
export function parseClaim(json: Record<string, unknown>, path: string, fail: Fail): ClaimRef {
  const keys = Object.keys(json);
  if (!keys.includes('claim')) {
    fail(path, `an object value must be a claim, { "claim": "<dotted path>" }; found members ${keys.join(', ')}`);
  }
  if (keys.length !== 1) fail(path, `a claim object has the one member "claim"; found ${keys.join(', ')}`);
  const name = json.claim;
  if (typeof name !== 'string' || !SEGMENTS.test(name)) {
    fail(memberPath(path, 'claim'), 'must be the dotted path of a token claim, such as "sub" or "org.id"');
  }
  return new ClaimRef(name);
}

/** The claim's value in the identity, read through own members only; undefined when the token lacks it. */
export function claimValue(identity: Identity, claim: ClaimRef): unknown {
  let current: unknown = identity.claims;
  for (const segment of claim.segments) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

const CLAIM_VALUE: ValueContext = Object.freeze({ source: {}, path: 'claim' });

/**
 * A claim's value as the column binds it, by query-ast's coercion (the very rules a client's filter value
 * meets), or undefined when it cannot be one: absent, null, of a type the column refuses, or a name of the
 * database clock (`CURRENT_DATE`: a claim is data, never a function of the database).
 */
export function claimScalar(identity: Identity, claim: ClaimRef, column: ColumnSchema, like = false) {
  return coerceClaimValue(claimValue(identity, claim), column, like);
}

export function coerceClaimValue(value: unknown, column: ColumnSchema, like = false): ScalarValue | undefined {
  if (value === undefined || value === null) return undefined;
  try {
    const scalar = like ? coercePattern(value, CLAIM_VALUE) : coerceValue(column, value, CLAIM_VALUE);
    return isNow(scalar) ? undefined : scalar;
  } catch {
    return undefined;
  }
}
