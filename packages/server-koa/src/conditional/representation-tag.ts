import { hash } from 'node:crypto';

/**
 * The strong entity-tag of a representation: a digest of its content type, JSONP callback and body text,
 * so that anything that changes the bytes sent (a row, an included resource, a member of a list, another
 * format, media type or callback) changes the tag. SHA-1 through `crypto.hash`, one call without a Hash
 * object: a list page of 10 resources (about 5 KB) takes a few microseconds. The tag only has to tell
 * versions apart, not resist an attacker: whoever could forge a collision can read the data anyway.
 */
export function representationTag(contentType: string, callback: string | undefined, text: string): string {
  return `"${hash('sha1', `${contentType}\n${callback ?? ''}\n${text}`, 'base64url')}"`;
}
