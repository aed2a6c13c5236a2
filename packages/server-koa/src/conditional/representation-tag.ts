import { hash } from 'node:crypto';

/**
 * The strong entity-tag of a representation: a digest of its content type, JSONP callback and body text,
 * so that anything that changes the bytes sent (a row, an included resource, a member of a list, another
 * format, media type or callback) changes the tag. SHA-1 through `crypto.hash`, one call without a Hash
 * object, of the body alone and then of the short rest with that digest: hashing `type + text` would first
 * copy the whole body into a new string. The tag only has to tell versions apart, not resist an attacker:
 * whoever could forge a collision can read the data anyway. Its cost: docs/performance.md.
 */
export function representationTag(contentType: string, callback: string | undefined, text: string): string {
  const body = hash('sha1', text, 'base64url');
  return `"${hash('sha1', `${contentType}\n${callback ?? ''}\n${body}`, 'base64url')}"`;
}
