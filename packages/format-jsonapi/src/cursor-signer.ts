import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A position in a cursor's order: the values of its sort keys, the key last. */
export type CursorValues = readonly (string | number | boolean | null)[];

/**
 * Makes and reads cursors: the position as JSON, base64url, then a dot and an HMAC-SHA256 of it under the
 * server's key and the request's context (collection, path, sort and filter). A cursor is opaque to the
 * client; one altered, or made for another sort, filter or path, or under another key, is refused.
 */
export class CursorSigner {
  readonly #key: Buffer;

  /** `secret` undefined: a random key for this process, so cursors do not survive a restart or cross workers. */
  constructor(secret?: string) {
    this.#key = secret === undefined ? randomBytes(32) : Buffer.from(secret, 'utf8');
  }

  #mac(context: string, payload: string): Buffer {
    return createHmac('sha256', this.#key).update(context).update('\n').update(payload).digest();
  }

  sign(context: string, values: CursorValues): string {
    const payload = Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
    return `${payload}.${this.#mac(context, payload).toString('base64url')}`;
  }

  /** The values of a cursor this server made for this context, or undefined for any other text. */
  verify(context: string, cursor: string): unknown[] | undefined {
    const dot = cursor.indexOf('.');
    if (dot < 1 || cursor.length > 8192) return undefined;
    const payload = cursor.slice(0, dot);
    const mac = Buffer.from(cursor.slice(dot + 1), 'base64url');
    const expected = this.#mac(context, payload);
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return undefined;
    try {
      const values: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      return Array.isArray(values) ? values : undefined;
    } catch {
      return undefined;
    }
  }
}
