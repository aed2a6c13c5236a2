/**
 * JSON text of single values, exactly as JSON.stringify writes them, for documents written as text.
 * Most strings of a document need no escape: those are quoted as they are, after one scan.
 */

/**
 * Text with none of what JSON.stringify may escape: the quote, the backslash, control characters, and
 * surrogates (a lone one is escaped, a pair is not: JSON.stringify tells them apart).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what JSON escapes.
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/** Below this length a loop over the characters costs less than calling the regular expression. */
const SHORT = 24;

/**
 * Whether JSON.stringify writes the text as it is, between quotes. Most texts of a document are short (ids,
 * names, dates), and for those a regular expression cost more to call than to match.
 */
export function isPlainJsonText(text: string): boolean {
  if (text.length > SHORT) return PLAIN.test(text);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

/** Whether JSON.stringify writes every text of a list as it is (`isPlainJsonText` of each). */
export function allPlainJsonText(texts: readonly string[]): boolean {
  for (let i = 0; i < texts.length; i++) if (!isPlainJsonText(texts[i]!)) return false;
  return true;
}

/** A string as JSON.stringify writes it. */
export function jsonString(text: string): string {
  return isPlainJsonText(text) ? `"${text}"` : JSON.stringify(text);
}

/** A string as it appears between the quotes of its JSON form, for text that is put together inside one. */
export function jsonContent(text: string): string {
  return jsonString(text).slice(1, -1);
}

/** Any JSON value (an attribute's) as JSON.stringify writes it; undefined as null, as an array member would be. */
export function jsonValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return jsonString(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return 'null';
    default:
      return value === null ? 'null' : (JSON.stringify(value) ?? 'null');
  }
}
