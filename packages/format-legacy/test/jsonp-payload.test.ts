import { expect } from 'chai';
import { ApiError, type HttpResponse } from '@colapi/query-ast';
import { conventionalHeaderName, legacyFormat, legacyJsonpPayload, parseLinkHeader } from '../src/index.js';
import { request } from './fixtures.js';

const format = legacyFormat();

describe('Format B JSONP payload', () => {
  const LINK = '<http://example.com/api/person?page=1&results_per_page=10>; rel="first", <http://example.com/api/person?page=2&results_per_page=10>; rel="last"';
  const list: HttpResponse = {
    status: 200,
    headers: { 'content-type': 'application/json', link: LINK, etag: '"v1"', 'x-request-id': 'r-1' },
    body: { num_results: 0, total_pages: 0, page: 1, objects: [] },
  };

  it('holds the status and each header but Content-Type in meta, as HTTP spells them, and the body in data', () => {
    expect(format.jsonpPayload(request('GET', '/api/person?callback=cb'), list)).to.deep.equal({
      meta: {
        status: 200,
        Link: [
          { url: 'http://example.com/api/person?page=1&results_per_page=10', rel: 'first' },
          { url: 'http://example.com/api/person?page=2&results_per_page=10', rel: 'last' },
        ],
        ETag: '"v1"',
        'X-Request-Id': 'r-1',
      },
      data: { num_results: 0, total_pages: 0, page: 1, objects: [] },
    });
  });

  it('wraps HEAD and function evaluation as GET', () => {
    expect(legacyJsonpPayload(request('HEAD', '/api/person?callback=cb'), list)).to.have.nested.property('meta.status', 200);
    const values: HttpResponse = { status: 200, headers: { 'content-type': 'application/json' }, body: { count__id: 3 } };
    expect(legacyJsonpPayload(request('GET', '/api/eval/person?callback=cb'), values)).to.deep.equal({ meta: { status: 200 }, data: { count__id: 3 } });
  });

  it('carries the real status of an error', () => {
    const error = format.encodeErrors(request('GET', '/api/person/9'), 404, [ApiError.notFound('no person 9')]);
    expect(format.jsonpPayload(request('GET', '/api/person/9?callback=cb'), error)).to.deep.equal({ meta: { status: 404 }, data: { message: 'no person 9' } });
  });

  it('has data null for a response without a body', () => {
    expect(legacyJsonpPayload(request('GET', '/api/person'), { status: 204, headers: {} })).to.deep.equal({ meta: { status: 204 }, data: null });
  });

  it('does not apply to writes', () => {
    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE']) {
      const created: HttpResponse = { status: 201, headers: { location: 'x' }, body: { id: 1 } };
      expect(format.jsonpPayload(request(method, '/api/person?callback=cb', { body: {} }), created), method).to.equal(undefined);
    }
  });
});

describe('parseLinkHeader', () => {
  it('reads each link as {url, rel, …}', () => {
    expect(parseLinkHeader('<http://a.example/1>; rel="first", <http://a.example/2>; rel="next"; title="Page 2"')).to.deep.equal([
      { url: 'http://a.example/1', rel: 'first' },
      { url: 'http://a.example/2', rel: 'next', title: 'Page 2' },
    ]);
  });

  it('splits only where the next link starts: URLs and values may hold commas', () => {
    expect(parseLinkHeader('<http://a.example/?ids=1,2>; rel="next"; title="a, b",<http://a.example/3>;rel=last')).to.deep.equal([
      { url: 'http://a.example/?ids=1,2', rel: 'next', title: 'a, b' },
      { url: 'http://a.example/3', rel: 'last' },
    ]);
  });

  it('takes parameter names in lower case and unquoted values', () => {
    expect(parseLinkHeader('<x>; REL=next;Type = text/html')).to.deep.equal([{ url: 'x', rel: 'next', type: 'text/html' }]);
  });

  it('skips what is no link', () => {
    expect(parseLinkHeader('')).to.deep.equal([]);
    expect(parseLinkHeader('garbage; rel="x", <y>; rel="z"')).to.deep.equal([{ url: 'y', rel: 'z' }]);
    expect(parseLinkHeader('<y>; flag; rel="z"')).to.deep.equal([{ url: 'y', rel: 'z' }]);
  });
});

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
