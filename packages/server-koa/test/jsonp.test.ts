import { expect } from 'chai';
import { ApiError } from '@colapi/query-ast';
import type { HttpResponse } from '@colapi/wire-format';
import { wrapJsonp } from '../src/index.js';
import { jsonpCallback } from '../src/jsonp.js';

const callbackOf = (query: string) => jsonpCallback(new URLSearchParams(query));

describe('jsonpCallback', () => {
  it('is none without callback', () => {
    expect(callbackOf('sort=age')).to.equal(undefined);
  });

  const VALID = [
    'cb',
    'handle',
    'app.handle',
    'a.b.c',
    '$',
    '_',
    '$jq_1.cb2',
    'jQuery3310_1700000000000',
    'x'.repeat(128),
  ];
  for (const name of VALID) {
    it(`takes ${name.length > 20 ? `a name of ${name.length} characters` : name}`, () => {
      expect(callbackOf(`callback=${encodeURIComponent(name)}`)).to.equal(name);
    });
  }

  const INVALID = [
    '',
    '1a',
    'a..b',
    'a.',
    '.a',
    'a.1b',
    'alert(1)',
    'a-b',
    'a[0]',
    'a b',
    'x;y',
    'a/**/b',
    'é',
    'x'.repeat(129),
  ];
  for (const name of INVALID) {
    it(`answers 400 to ${JSON.stringify(name.length > 20 ? `${name.length} characters` : name)}`, () => {
      let error: unknown;
      try {
        callbackOf(`callback=${encodeURIComponent(name)}`);
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(ApiError);
      expect(error).to.deep.include({
        status: 400,
        detail: 'callback must be a JavaScript identifier path such as handle or app.handle',
        source: { parameter: 'callback' },
      });
    });
  }

  it('answers 400 to two callbacks rather than guess, even the same one twice', () => {
    for (const query of ['callback=a&callback=b', 'callback=a&callback=a']) {
      let error: unknown;
      try {
        callbackOf(query);
      } catch (e) {
        error = e;
      }
      expect(error, query).to.be.instanceOf(ApiError);
      expect(error).to.deep.include({
        status: 400,
        detail: 'query parameter callback is given more than once',
        source: { parameter: 'callback' },
      });
    }
  });
});

describe('wrapJsonp', () => {
  const response: HttpResponse = {
    status: 404,
    headers: { 'content-type': 'application/json', link: '<x>; rel="first"' },
    body: { message: 'gone' },
  };

  it('writes the script as JavaScript with status 200, keeping the other headers', () => {
    expect(wrapJsonp('app.cb', response, { meta: { status: 404 }, data: { message: 'gone' } })).to.deep.equal({
      status: 200,
      headers: {
        'content-type': 'application/javascript; charset=utf-8',
        link: '<x>; rel="first"',
        'x-content-type-options': 'nosniff',
      },
      body: '/**/app.cb({"meta":{"status":404},"data":{"message":"gone"}});',
    });
  });

  it('escapes U+2028 and U+2029, which end a line in older JavaScript', () => {
    const wrapped = wrapJsonp('cb', response, { text: 'a\u2028b\u2029c' });
    expect(wrapped.body).to.equal('/**/cb({"text":"a\\u2028b\\u2029c"});');
  });

  it('leaves the response it wraps unchanged', () => {
    wrapJsonp('cb', response, {});
    expect(response).to.deep.equal({
      status: 404,
      headers: { 'content-type': 'application/json', link: '<x>; rel="first"' },
      body: { message: 'gone' },
    });
  });
});
