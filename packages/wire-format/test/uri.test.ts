import { expect } from 'chai';
import { rfc3986Uri } from '../src/index.js';

const RFC3986 = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/;

describe('rfc3986Uri', () => {
  const CASES: [string, string, string][] = [
    [
      'keeps a valid URI as it is',
      'http://h/api/person?page[size]=2&sort=-age',
      'http://h/api/person?page[size]=2&sort=-age',
    ],
    ['encodes braces, quotes and spaces', 'http://h/a?f=[{"n":"x y"}]', 'http://h/a?f=[%7B%22n%22:%22x%20y%22%7D]'],
    ['keeps existing percent-escapes (no double encoding)', 'http://h/a?f=%7B%22n%22%7D', 'http://h/a?f=%7B%22n%22%7D'],
    ['encodes a % that starts no escape', 'http://h/a?f=100%&g=%zz&h=%4', 'http://h/a?f=100%25&g=%25zz&h=%254'],
    ['encodes |, ^, backslash, backtick, < and >', 'http://h/a|b?x=^\\`<>', 'http://h/a%7Cb?x=%5E%5C%60%3C%3E'],
    ['encodes other characters as UTF-8', 'http://h/a?x=é€😀', 'http://h/a?x=%C3%A9%E2%82%AC%F0%9F%98%80'],
    ['encodes a lone surrogate as U+FFFD', 'http://h/a?x=\ud800', 'http://h/a?x=%EF%BF%BD'],
    ['encodes controls', 'http://h/a?x=\u0000\u007f', 'http://h/a?x=%00%7F'],
  ];
  for (const [name, input, expected] of CASES) {
    it(name, () => {
      const out = rfc3986Uri(input);
      expect(out).to.equal(expected);
      expect(out).to.match(RFC3986);
      expect(() => new URL(out)).not.to.throw();
      expect(rfc3986Uri(out), 'idempotent').to.equal(out);
    });
  }
});
