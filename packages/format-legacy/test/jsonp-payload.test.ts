import { expect } from 'chai';
import { ApiError } from '@colapi/query-ast';
import type { HttpResponse } from '@colapi/wire-format';
import { legacyFormat, legacyJsonpPayload } from '../src/index.js';
import { request } from './fixtures.js';

const format = legacyFormat();

describe('Format B JSONP payload', () => {
  const LINK =
    '<http://example.com/api/person?page=1&results_per_page=10>; rel="first", <http://example.com/api/person?page=2&results_per_page=10>; rel="last"';
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
    expect(legacyJsonpPayload(request('HEAD', '/api/person?callback=cb'), list)).to.have.nested.property(
      'meta.status',
      200,
    );
    const values: HttpResponse = {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { count__id: 3 },
    };
    expect(legacyJsonpPayload(request('GET', '/api/eval/person?callback=cb'), values)).to.deep.equal({
      meta: { status: 200 },
      data: { count__id: 3 },
    });
  });

  it('carries the real status of an error', () => {
    const error = format.encodeErrors(request('GET', '/api/person/9'), 404, [ApiError.notFound('no person 9')]);
    expect(format.jsonpPayload(request('GET', '/api/person/9?callback=cb'), error)).to.deep.equal({
      meta: { status: 404 },
      data: { message: 'no person 9' },
    });
  });

  it('has data null for a response without a body', () => {
    expect(legacyJsonpPayload(request('GET', '/api/person'), { status: 204, headers: {} })).to.deep.equal({
      meta: { status: 204 },
      data: null,
    });
  });

  it('does not apply to writes', () => {
    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE']) {
      const created: HttpResponse = { status: 201, headers: { location: 'x' }, body: { id: 1 } };
      expect(format.jsonpPayload(request(method, '/api/person?callback=cb', { body: {} }), created), method).to.equal(
        undefined,
      );
    }
  });
});
