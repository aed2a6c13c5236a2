/** Names whose conventional spelling is not one capital per hyphen-separated word. */
const IRREGULAR: Readonly<Record<string, string>> = {
  etag: 'ETag',
  'www-authenticate': 'WWW-Authenticate',
  'content-md5': 'Content-MD5',
  'x-xss-protection': 'X-XSS-Protection',
  te: 'TE',
  dnt: 'DNT',
};

/**
 * A header name as HTTP conventionally spells it (`link` → `Link`, `x-total-count` → `X-Total-Count`).
 * Responses carry lower-case names; JSONP shows them as Flask-Restless did, in the server's spelling.
 */
export function conventionalHeaderName(name: string): string {
  const lower = name.toLowerCase();
  return (
    IRREGULAR[lower] ?? lower.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase())
  );
}
