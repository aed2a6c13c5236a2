import { expect } from 'chai';
import { conventionalHeaderName } from '../src/index.js';

describe('conventionalHeaderName', () => {
  const CASES: [string, string][] = [
    ['link', 'Link'],
    ['content-type', 'Content-Type'],
    ['x-total-count', 'X-Total-Count'],
    ['X-REQUEST-ID', 'X-Request-Id'],
    ['location', 'Location'],
    ['etag', 'ETag'],
    ['www-authenticate', 'WWW-Authenticate'],
    ['content-md5', 'Content-MD5'],
    ['x-xss-protection', 'X-XSS-Protection'],
    ['te', 'TE'],
    ['DNT', 'DNT'],
    ['x-b3-traceid', 'X-B3-Traceid'],
  ];
  for (const [name, spelled] of CASES) {
    it(`${name} → ${spelled}`, () => {
      expect(conventionalHeaderName(name)).to.equal(spelled);
    });
  }
});
