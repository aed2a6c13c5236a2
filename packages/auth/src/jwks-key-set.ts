import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { AuthError } from './auth-error.js';

/** How a {@link JwksKeySet} fetches and keeps its keys. */
export interface JwksKeySetOptions {
  /** Least time between two fetches, ms: an unknown `kid` within it is refused without fetching. */
  readonly cooldownMs: number;
  /** A set older than this is fetched again when next needed (the old one stays if that fails), ms. */
  readonly maxAgeMs: number;
  /** Time allowed for one fetch, ms. */
  readonly timeoutMs: number;
  /** Told of each failed fetch, for a log. */
  readonly onError?: ((error: unknown, url: string) => void) | undefined;
}

/**
 * The keys published at a JWKS URL, fetched when first needed, kept, and fetched again when one is asked
 * for a `kid` it does not have or when older than `maxAgeMs`, but never twice within `cooldownMs` (counted
 * from the start of the previous fetch, failed or not), and never twice at once: concurrent requests share
 * one fetch. Only the configured URL is ever fetched; nothing a token names (`jku`, `x5u`) is.
 */
export class JwksKeySet {
  readonly #url: string;
  readonly #options: JwksKeySetOptions;
  #keys: JWTVerifyGetKey | undefined;
  #loadedAt = Number.NEGATIVE_INFINITY;
  #attemptedAt = Number.NEGATIVE_INFINITY;
  #pending: Promise<void> | undefined;
  #fetched = 0;

  constructor(url: string, options: JwksKeySetOptions) {
    this.#url = url;
    this.#options = options;
  }

  /**
   * Which fetched set the keys are: a number that changes with every fetch, undefined when there is none or
   * when it is older than `maxAgeMs` (the next verification fetches again). What a verification with one set
   * found holds only while this stays the same.
   */
  get generation(): number | undefined {
    return this.#keys && Date.now() - this.#loadedAt < this.#options.maxAgeMs ? this.#fetched : undefined;
  }

  /** A key resolver for jose's `jwtVerify`. */
  readonly getKey: JWTVerifyGetKey = async (header, token) => {
    if (!this.#keys || Date.now() - this.#loadedAt >= this.#options.maxAgeMs) await this.#refresh();
    const keys = this.#keys;
    if (!keys) throw new AuthError('jwks_unavailable', 'the keys to verify this token could not be fetched');
    try {
      return await keys(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
      // Another request may have brought a newer set meanwhile; else fetch one, cooldown permitting.
      if (keys === this.#keys) await this.#refresh();
      if (keys === this.#keys) throw error;
      return this.#keys!(header, token);
    }
  };

  #refresh(): Promise<void> {
    if (this.#pending) return this.#pending;
    if (Date.now() - this.#attemptedAt < this.#options.cooldownMs) return Promise.resolve();
    this.#attemptedAt = Date.now();
    this.#pending = this.#fetch()
      .then(
        (keys) => {
          this.#keys = keys;
          this.#loadedAt = Date.now();
          this.#fetched++;
        },
        (error: unknown) => this.#options.onError?.(error, this.#url),
      )
      .finally(() => {
        this.#pending = undefined;
      });
    return this.#pending;
  }

  async #fetch(): Promise<JWTVerifyGetKey> {
    const response = await fetch(this.#url, {
      redirect: 'error',
      signal: AbortSignal.timeout(this.#options.timeoutMs),
      headers: { accept: 'application/jwk-set+json, application/json' },
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`${this.#url} answered ${response.status}, not 200`);
    }
    // createLocalJWKSet checks the shape and throws on anything but a key set.
    return createLocalJWKSet((await response.json()) as JSONWebKeySet);
  }
}
