/**
 * What RFC 3986 does not allow in a URI: any character outside its unreserved and reserved sets, and a `%`
 * that does not start a percent-escape. The brackets stay, as JSON:API writes `page[size]`.
 */
const NOT_IN_URI = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/gu;

function percentEncode(character: string): string {
  try {
    return encodeURIComponent(character);
  } catch {
    // A lone surrogate has no UTF-8 form: the URL parser would write U+FFFD for it too.
    return '%EF%BF%BD';
  }
}

/**
 * `text` (a URL as a client wrote part of it, say) as a valid RFC 3986 URI: every character it does not allow
 * is percent-encoded; existing percent-escapes are kept as they are, so `%7B` is never encoded twice.
 */
export function rfc3986Uri(text: string): string {
  NOT_IN_URI.lastIndex = 0;
  return NOT_IN_URI.test(text) ? text.replace(NOT_IN_URI, percentEncode) : text;
}
