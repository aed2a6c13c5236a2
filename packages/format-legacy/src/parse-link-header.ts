/**
 * Parses a Link header (RFC 8288 §3) into `{url, rel, …}` objects, one per link, in order:
 *
 *     Link       = #link-value
 *     link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param )
 *     link-param = token BWS [ "=" BWS ( token / quoted-string ) ]
 *
 * A small tokenizer reads it: a `,` or `;` inside `<…>` or inside a quoted string separates nothing; a
 * quoted value loses its quotes and its backslash escapes (`"say \"hi\""` is `say "hi"`); whitespace
 * around `;`, `=` and `,` is dropped. Parameter names are in lower case; when a parameter appears twice
 * the first counts (RFC 8288 §3.3 for `rel`, `title`, `type`, `media`). Leniencies, as before: an unquoted
 * value runs to the next `;` or `,` (so `type=text/html` is read, though `/` is no token character); a
 * parameter without a value, or one that is malformed (no name, an unterminated quoted string), is
 * skipped; an element that does not start with `<…>` is skipped up to the next `,` outside quotes.
 */
export function parseLinkHeader(header: string): Record<string, string>[] {
  return new LinkTokenizer(header).links();
}

/** Token characters of RFC 9110 §5.6.2. */
const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const isSpace = (ch: string | undefined) => ch === ' ' || ch === '\t';

class LinkTokenizer {
  #pos = 0;

  constructor(private readonly text: string) {}

  links(): Record<string, string>[] {
    const links: Record<string, string>[] = [];
    while (this.#pos < this.text.length) {
      this.#skipSpace();
      if (this.#peek() === ',') {
        this.#pos++;
        continue;
      }
      if (this.#pos >= this.text.length) break;
      const link = this.#linkValue();
      if (link) links.push(link);
      else this.#skipUntil(',');
      if (this.#peek() === ',') this.#pos++;
    }
    return links;
  }

  /** One link-value, up to (not past) the `,` that ends it; undefined when it does not start with `<…>`. */
  #linkValue(): Record<string, string> | undefined {
    if (this.#peek() !== '<') return undefined;
    const end = this.text.indexOf('>', this.#pos + 1);
    if (end < 0) {
      this.#pos = this.text.length;
      return undefined;
    }
    const link: Record<string, string> = Object.create(null) as Record<string, string>;
    link.url = this.text.slice(this.#pos + 1, end);
    this.#pos = end + 1;
    for (;;) {
      this.#skipSpace();
      const ch = this.#peek();
      if (ch === undefined || ch === ',') break;
      if (ch === ';') {
        this.#pos++;
        this.#param(link);
      } else this.#skipUntil(';', ','); // stray text after `>` or after a value
    }
    return { ...link };
  }

  /** One link-param after its `;`, stored in `link` unless malformed or valueless or a repeat. */
  #param(link: Record<string, string>): void {
    this.#skipSpace();
    const start = this.#pos;
    while (this.#pos < this.text.length && TCHAR.test(this.text[this.#pos]!)) this.#pos++;
    const name = this.text.slice(start, this.#pos).toLowerCase();
    this.#skipSpace();
    if (!name || this.#peek() !== '=') return; // no name, or no value: skipped
    this.#pos++;
    this.#skipSpace();
    const value = this.#peek() === '"' ? this.#quotedString() : this.#bareValue();
    if (value === undefined || name === 'url' || name in link) return;
    link[name] = value;
  }

  /** A quoted-string, unescaped; undefined when it is not terminated (the rest of the header is spent). */
  #quotedString(): string | undefined {
    let out = '';
    for (let i = this.#pos + 1; i < this.text.length; i++) {
      const ch = this.text[i]!;
      if (ch === '\\' && i + 1 < this.text.length) out += this.text[++i];
      else if (ch === '"') {
        this.#pos = i + 1;
        return out;
      } else out += ch;
    }
    this.#pos = this.text.length;
    return undefined;
  }

  /** An unquoted value: up to the next `;` or `,`, trimmed. */
  #bareValue(): string {
    const start = this.#pos;
    while (this.#pos < this.text.length && this.text[this.#pos] !== ';' && this.text[this.#pos] !== ',') this.#pos++;
    return this.text.slice(start, this.#pos).trim();
  }

  /** Moves to the next of `stops` outside quoted strings and `<…>` (or to the end). */
  #skipUntil(...stops: string[]): void {
    while (this.#pos < this.text.length) {
      const ch = this.text[this.#pos]!;
      if (stops.includes(ch)) return;
      if (ch === '"') {
        if (this.#quotedString() === undefined) return;
      } else if (ch === '<') {
        const end = this.text.indexOf('>', this.#pos + 1);
        this.#pos = end < 0 ? this.text.length : end + 1;
      } else this.#pos++;
    }
  }

  #skipSpace(): void {
    while (isSpace(this.text[this.#pos])) this.#pos++;
  }

  #peek(): string | undefined {
    return this.text[this.#pos];
  }
}
