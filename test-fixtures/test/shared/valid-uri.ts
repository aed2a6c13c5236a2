import { expect } from 'chai';

/** RFC 3986's characters; the brackets of `page[size]` are allowed, as JSON:API writes them. */
const URI = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/;
const STRAY_PERCENT = /%(?![0-9A-Fa-f]{2})/;

/** A link the server wrote is a valid URI: RFC 3986 characters only, `%` only in escapes, and it parses. */
export function expectValidUri(link: string, where: string): void {
  expect(link, `${where} uses only RFC 3986 characters`).to.match(URI);
  expect(link, `${where} has no stray %`).to.not.match(STRAY_PERCENT);
  expect(() => new URL(link), `${where} parses`).not.to.throw();
}
