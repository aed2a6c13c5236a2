import type { Identity } from './identity.js';

/** Tokens longer than this are verified every time: a cache of them would hold too much memory per entry. */
export const MAX_CACHED_TOKEN_LENGTH = 4096;
/** How many verified tokens are kept; past it, the oldest goes first. */
export const VERIFIED_TOKENS_KEPT = 4096;

/**
 * A token verified once, and what makes it valid still: `exp` passes by, and a JWKS key set may be fetched
 * again (`stamp` then differs), after which the key may have left the set.
 */
interface Entry {
  readonly identity: Identity;
  /** `exp`, in seconds since the epoch. */
  readonly exp: number;
  /** What the verifier's keys were when it verified; the entry holds while `current()` still says it. */
  readonly stamp: unknown;
  readonly current: () => unknown;
}

/**
 * Identities of tokens already verified, by the whole token: a client sends the same token with every request
 * for its lifetime, and verifying a signature (a WebCrypto job per request for HMAC) costs more than the rest
 * of a small read's authentication. Only a token that verified is kept, so a flood of bad tokens fills
 * nothing; the same string is the same signature, so a hit is as good as a verification, for as long as
 * `exp` (with the clock tolerance) and the verifier's keys hold. `nbf` passed when it was verified and time
 * only moves on.
 */
export class VerifiedTokens {
  readonly #entries = new Map<string, Entry>();
  readonly #toleranceSeconds: number;
  readonly #limit: number;

  constructor(toleranceSeconds: number, limit = VERIFIED_TOKENS_KEPT) {
    this.#toleranceSeconds = toleranceSeconds;
    this.#limit = limit;
  }

  /** The identity of `token` if it verified and still would. */
  get(token: string, nowMs = Date.now()): Identity | undefined {
    const entry = this.#entries.get(token);
    if (!entry) return undefined;
    // As jose: expired once exp <= now - tolerance.
    if (entry.exp <= nowMs / 1000 - this.#toleranceSeconds || entry.current() !== entry.stamp) {
      this.#entries.delete(token);
      return undefined;
    }
    return entry.identity;
  }

  /**
   * Keeps what a verification found. `stamp` is what `current()` answered before the verification began: when
   * it answers otherwise now (a key set fetched meanwhile), the token is not kept.
   */
  keep(token: string, identity: Identity, exp: unknown, stamp: unknown, current: () => unknown): void {
    if (token.length > MAX_CACHED_TOKEN_LENGTH || typeof exp !== 'number' || current() !== stamp) return;
    if (this.#entries.size >= this.#limit) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(token, { identity, exp, stamp, current });
  }

  get size(): number {
    return this.#entries.size;
  }
}
