import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectValidUri } from '../shared/valid-uri.js';

/** The URLs of a Link header (RFC 8288), by rel. */
function linkHeader(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(/,\s*(?=<)/)) {
    const m = /^<([^>]*)>; rel="([^"]+)"$/.exec(part.trim());
    if (m) out[m[2]!] = m[1]!;
  }
  return out;
}

describeEachDatabase(
  'Format B: the Link header holds valid URIs (RFC 3986), whatever the client sent raw',
  (t) => {
    const RAW: [string, string][] = [
      [
        'a q with raw braces and quotes',
        '/api/person?q={"filters":[{"name":"age","op":">","val":17}]}&results_per_page=1&page=2',
      ],
      [
        'characters a URI never holds and a stray %, in another parameter',
        '/api/person?results_per_page=2&x=a|b^c`d\\e%zz{}%',
      ],
    ];
    for (const [name, raw] of RAW) {
      it(`${name}: ${raw}`, async () => {
        const res = await t().http.getRaw(raw);
        expect(res.status, res.text).to.equal(200);
        const links = linkHeader(res.headers.get('link'));
        expect(Object.keys(links)).to.include.members(['first', 'last']);
        for (const [rel, link] of Object.entries(links)) expectValidUri(link, `rel=${rel}`);
        const sent = new URL(raw, 'http://h').searchParams;
        for (const link of Object.values(links)) {
          for (const [k, v] of sent)
            if (k !== 'page' && k !== 'results_per_page') expect(new URL(link).searchParams.get(k), k).to.equal(v);
        }
      });
    }
  },
  { format: 'legacy' },
);
