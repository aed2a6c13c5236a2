import { expect } from 'chai';
import { parseLinkHeader } from '../src/index.js';

describe('parseLinkHeader', () => {
  it('reads each link as {url, rel, …}', () => {
    expect(
      parseLinkHeader('<http://a.example/1>; rel="first", <http://a.example/2>; rel="next"; title="Page 2"'),
    ).to.deep.equal([
      { url: 'http://a.example/1', rel: 'first' },
      { url: 'http://a.example/2', rel: 'next', title: 'Page 2' },
    ]);
  });

  it('splits only where the next link starts: URLs and values may hold commas', () => {
    expect(
      parseLinkHeader('<http://a.example/?ids=1,2>; rel="next"; title="a, b",<http://a.example/3>;rel=last'),
    ).to.deep.equal([
      { url: 'http://a.example/?ids=1,2', rel: 'next', title: 'a, b' },
      { url: 'http://a.example/3', rel: 'last' },
    ]);
  });

  it('takes parameter names in lower case and unquoted values', () => {
    expect(parseLinkHeader('<x>; REL=next;Type = text/html')).to.deep.equal([
      { url: 'x', rel: 'next', type: 'text/html' },
    ]);
  });

  it('skips what is no link', () => {
    expect(parseLinkHeader('')).to.deep.equal([]);
    expect(parseLinkHeader('garbage; rel="x", <y>; rel="z"')).to.deep.equal([{ url: 'y', rel: 'z' }]);
    expect(parseLinkHeader('<y>; flag; rel="z"')).to.deep.equal([{ url: 'y', rel: 'z' }]);
  });
});

describe('parseLinkHeader: RFC 8288 syntax', () => {
  const CASES: [string, string, Record<string, string>[]][] = [
    ['drops whitespace after an unquoted value', '<x>; rel=next ', [{ url: 'x', rel: 'next' }]],
    [
      'drops whitespace around `;`, `=` and `,`',
      ' <x> ;\trel = next\t; title = "T" ,\t<y>;rel=last ',
      [
        { url: 'x', rel: 'next', title: 'T' },
        { url: 'y', rel: 'last' },
      ],
    ],
    ['keeps a `;` inside a quoted value', '<x>; title="a;b"; rel=next', [{ url: 'x', title: 'a;b', rel: 'next' }]],
    ['unescapes a quoted value', '<x>; title="say \\"hi\\""; rel=next', [{ url: 'x', title: 'say "hi"', rel: 'next' }]],
    ['unescapes a backslash and any other escaped character', '<x>; title="a\\\\b\\c"', [{ url: 'x', title: 'a\\bc' }]],
    ['keeps an empty quoted value', '<x>; title=""; rel=next', [{ url: 'x', title: '', rel: 'next' }]],
    [
      'does not split at a `,` inside a quoted value, even before a `<`',
      '<x>; title="one, <two>"; rel=next, <y>; rel=last',
      [
        { url: 'x', title: 'one, <two>', rel: 'next' },
        { url: 'y', rel: 'last' },
      ],
    ],
    [
      'does not split at a `,` or `;` inside `<…>`',
      '<http://e/?a=1,<b>;c>; rel=next',
      [{ url: 'http://e/?a=1,<b', rel: 'next' }],
    ],
    [
      'reads a URI with `;`, `,` and `"`',
      '<http://e/p;v=1?q="a,b">; rel=next',
      [{ url: 'http://e/p;v=1?q="a,b"', rel: 'next' }],
    ],
    [
      'reads links not separated by whitespace',
      '<a>;rel=prev,<b>;rel=next',
      [
        { url: 'a', rel: 'prev' },
        { url: 'b', rel: 'next' },
      ],
    ],
    ['skips empty elements of the list', ', ,<a>; rel=prev,,  , <b>', [{ url: 'a', rel: 'prev' }, { url: 'b' }]],
    [
      'keeps the first of a repeated parameter (RFC 8288 §3.3)',
      '<x>; rel=next; REL=prev; title="a"; title="b"',
      [{ url: 'x', rel: 'next', title: 'a' }],
    ],
    [
      'takes a quoted rel with several relation types as it is',
      '<x>; rel="next last"',
      [{ url: 'x', rel: 'next last' }],
    ],
    [
      'keeps an extended value as it is',
      "<x>; title*=UTF-8'de'n%c3%a4chstes",
      [{ url: 'x', 'title*': "UTF-8'de'n%c3%a4chstes" }],
    ],
    ['never lets a parameter replace the URL', '<x>; url="y"; rel=next', [{ url: 'x', rel: 'next' }]],
    ['skips a parameter without a name, and stray text', '<x> junk; =v; rel=next', [{ url: 'x', rel: 'next' }]],
    [
      'skips stray text after a quoted value, keeping the value',
      '<x>; title="a"b; rel=next',
      [{ url: 'x', title: 'a', rel: 'next' }],
    ],
    [
      'skips an unterminated quoted value with the rest of the header',
      '<x>; rel=next; title="a, <y>; rel=last',
      [{ url: 'x', rel: 'next' }],
    ],
    ['skips an unterminated URI', '<x>; rel=next, <y; rel=last', [{ url: 'x', rel: 'next' }]],
    [
      'skips an element that is no link, up to a `,` outside quotes',
      'junk; title="a, <b>", <y>; rel=z',
      [{ url: 'y', rel: 'z' }],
    ],
    ['skips a valueless parameter', '<y>; crossorigin ; rel=z', [{ url: 'y', rel: 'z' }]],
  ];
  for (const [what, header, links] of CASES) {
    it(`${what}: ${header}`, () => {
      expect(parseLinkHeader(header)).to.deep.equal(links);
    });
  }

  it('gives plain objects, a parameter named __proto__ included', () => {
    const [link] = parseLinkHeader('<x>; __proto__="p"; constructor=c');
    expect(Object.getPrototypeOf(link)).to.equal(Object.prototype);
    expect(Object.keys(link!)).to.deep.equal(['url', '__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).p).to.equal(undefined);
  });
});
