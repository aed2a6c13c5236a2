import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';

const JSONAPI = 'application/vnd.api+json';

/**
 * An explicit refusal of JSON:API (`q=0`) beside a wildcard: the more specific range takes precedence
 * (RFC 9110 §12.5.1), so the wildcard does not bring JSON:API back. [Accept, path, expected status].
 */
const CASES: [string, string, number][] = [
  [`${JSONAPI};q=0, */*`, '/api/person', 406],
  [`${JSONAPI};q=0, application/*`, '/api/person', 406],
  [`*/*, ${JSONAPI};q=0`, '/api/person/1', 406],
  [`${JSONAPI}; q=0.0, text/html, */*;q=0.5`, '/api/person', 406],
  ['application/*;q=0, */*', '/api/person', 406],
  [`${JSONAPI};q=0, */*`, '/api/eval/person?functions=[{"name":"count","field":"id"}]', 406],
  // The other way round, the specific range allows what a wildcard refuses.
  [`*/*;q=0, ${JSONAPI}`, '/api/person', 200],
  [`application/*;q=0, ${JSONAPI};q=0.3`, '/api/person/1', 200],
];

describeEachDatabase('Format A: a refusal of JSON:API beside a wildcard', (t) => {
  for (const [accept, path, status] of CASES) {
    it(`GET ${path} with Accept ${accept} answers ${status}`, async () => {
      const res = await fetch(`${t().target.origin}${path}`, { headers: { accept } });
      const body = (await res.json()) as {
        data?: unknown;
        errors?: { status: string; title: string; detail: string }[];
      };
      expect(res.status, JSON.stringify(body)).to.equal(status);
      expect(res.headers.get('content-type')).to.equal(JSONAPI);
      if (status === 200) {
        expect(body.data).to.not.equal(undefined);
        return;
      }
      expect(body).to.not.have.property('data');
      expect(body.errors).to.have.lengthOf(1);
      expect(body.errors![0]).to.deep.equal({
        status: '406',
        title: 'Not Acceptable',
        detail: `Accept must allow ${JSONAPI}`,
      });
    });
  }
});
