import { expect } from 'chai';
import { bodyError } from '../src/body-error.js';

/** What koa-body's parsers throw: an Error with an HTTP status, and for bad JSON the text they read. */
const thrown = (status: number, message = 'x', body?: string) =>
  Object.assign(new Error(message), { status, ...(body === undefined ? {} : { body }) });
const PROTO = 'Object contains forbidden prototype property';

describe('bodyError', () => {
  it('answers 400 to a body that is not JSON', () => {
    const e = bodyError(thrown(400, 'Unexpected token } in JSON at position 1', '{}}'));
    expect(e).to.deep.include({ status: 400, title: 'Bad Request', detail: 'the request body is not valid JSON' });
    expect(e?.source).to.equal(undefined);
  });

  it('answers 413 to a body over the limit', () => {
    expect(bodyError(thrown(413, 'request entity too large'))).to.deep.include({
      status: 413,
      title: 'Payload Too Large',
      detail: 'the request body is too large',
    });
  });

  it('answers 415 to a body in a charset it cannot read', () => {
    expect(bodyError(thrown(415, 'unsupported charset "LATIN-9"'))).to.deep.include({
      status: 415,
      title: 'Unsupported Media Type',
      detail: 'the request body cannot be read',
    });
  });

  it("never passes the parser's own message on", () => {
    expect(bodyError(thrown(400, 'Unexpected token < in JSON at position 0'))?.detail).to.equal(
      'the request body is not valid JSON',
    );
  });

  describe('a member named __proto__', () => {
    const CASES: [string, string][] = [
      ['{"__proto__": {}}', '/__proto__'],
      ['{"data": {"attributes": {"__proto__": {"admin": true}}}}', '/data/attributes/__proto__'],
      ['[{"a": 1}, {"__proto__": 1}]', '/1/__proto__'],
      ['{"a/b": {"m~n": {"__proto__": 1}}}', '/a~1b/m~0n/__proto__'],
      // Breadth first: the shallowest one is named.
      ['{"x": {"y": {"__proto__": 1}}, "z": {"__proto__": 2}}', '/z/__proto__'],
    ];
    for (const [body, pointer] of CASES) {
      it(`is 400 at ${pointer} in ${body}`, () => {
        const e = bodyError(thrown(400, PROTO, body));
        expect(e).to.deep.include({
          status: 400,
          title: 'Bad Request',
          detail: `"__proto__" is not an acceptable member name in a request body (at ${pointer})`,
        });
        expect(e?.source).to.deep.equal({ pointer });
      });
    }

    it('is 400 without a place when the text is not at hand or not JSON', () => {
      for (const body of [undefined, '{"__proto__": ']) {
        const e = bodyError(thrown(400, PROTO, body));
        expect(e?.detail, String(body)).to.equal('"__proto__" is not an acceptable member name in a request body');
        expect(e?.source, String(body)).to.equal(undefined);
      }
    });
  });

  it('is none for errors that are not a refused body', () => {
    for (const error of [
      new Error('boom'),
      thrown(500, 'internal'),
      thrown(399),
      thrown(302),
      { status: '400' },
      null,
      undefined,
      'text',
      42,
    ]) {
      expect(bodyError(error), String(error)).to.equal(undefined);
    }
  });
});
