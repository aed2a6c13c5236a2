import { hash } from 'node:crypto';

/** The suffix of each content type's tags, made once per type: a server sends few types. */
const typeSuffixes = new Map<string, string>();
const MAX_TYPES = 64;

/**
 * The strong entity-tag of a representation: a digest of its body text, then one of its content type and
 * JSONP callback, so that anything that changes the bytes sent (a row, an included resource, a member of a
 * list, another format, media type or callback) changes the tag: `"<body><type>"`, 27 and 8 characters.
 * SHA-1 through `crypto.hash`, one call without a Hash object. Hashing `type + text` would first copy the
 * whole body into a new string; the type's part is hashed once per type and kept, so an answer costs one
 * digest (its fixed cost per call is most of what a page of a few KB costs), two with a callback. The tag
 * only has to tell versions apart, not resist an attacker: whoever could forge a collision can read the data
 * anyway.
 */
export function representationTag(contentType: string, callback: string | undefined, text: string): string {
  const body = hash('sha1', text, 'base64url');
  return `"${body}${callback === undefined ? typeSuffix(contentType) : suffixOf(contentType, callback)}"`;
}

function typeSuffix(contentType: string): string {
  let suffix = typeSuffixes.get(contentType);
  if (suffix === undefined) {
    suffix = suffixOf(contentType, undefined);
    if (typeSuffixes.size < MAX_TYPES) typeSuffixes.set(contentType, suffix);
  }
  return suffix;
}

/** Eight characters (48 bits) of the digest of the type and callback: enough to tell a server's few apart. */
function suffixOf(contentType: string, callback: string | undefined): string {
  return hash('sha1', `${contentType}\n${callback ?? ''}`, 'base64url').slice(0, 8);
}
