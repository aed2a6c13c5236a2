import { expect } from 'chai';
import { ApiError } from '@colapi/query-ast';
import type { HttpResponse } from '@colapi/wire-format';
import { jsonApiFormat, jsonApiJsonpPayload } from '../src/index.js';
import { request } from './fixtures.js';

const format = jsonApiFormat();
const TYPE = { 'content-type': 'application/vnd.api+json' };

describe('Format A JSONP payload', () => {
  it('is the document itself, with the status added to its meta', () => {
    const response: HttpResponse = {
      status: 200,
      headers: TYPE,
      body: {
        jsonapi: { version: '1.0' },
        data: [{ type: 'person', id: '1' }],
        links: { self: 'x' },
        meta: { total: 1 },
      },
    };
    expect(format.jsonpPayload(request('GET', '/api/person?callback=cb'), response)).to.deep.equal({
      jsonapi: { version: '1.0' },
      data: [{ type: 'person', id: '1' }],
      links: { self: 'x' },
      meta: { total: 1, status: 200 },
    });
  });

  it("gives a document without meta one, so argument.data.id is the resource's id", () => {
    const response: HttpResponse = { status: 200, headers: TYPE, body: { data: { type: 'person', id: '1' } } };
    const payload = jsonApiJsonpPayload(response) as { data: { id: string }; meta: unknown };
    expect(payload).to.deep.equal({ data: { type: 'person', id: '1' }, meta: { status: 200 } });
    expect(payload.data.id).to.equal('1');
  });

  it('wraps writes too, with their own status', () => {
    const response: HttpResponse = {
      status: 201,
      headers: { ...TYPE, location: 'x' },
      body: { data: { type: 'person', id: '9' } },
    };
    const req = request('POST', '/api/person?callback=cb', { headers: TYPE, body: {} });
    expect(format.jsonpPayload(req, response)).to.deep.equal({
      data: { type: 'person', id: '9' },
      meta: { status: 201 },
    });
  });

  it('adds the status of an error document, its error objects keeping their own', () => {
    const response = format.encodeErrors(request('GET', '/api/person/9?callback=cb'), 404, [
      ApiError.notFound('no person 9'),
    ]);
    expect(format.jsonpPayload(request('GET', '/api/person/9?callback=cb'), response)).to.deep.equal({
      jsonapi: { version: '1.0' },
      errors: [{ status: '404', title: 'Not Found', detail: 'no person 9' }],
      meta: { status: 404 },
    });
  });

  it('replaces a meta that is no object', () => {
    expect(jsonApiJsonpPayload({ status: 200, headers: {}, body: { data: null, meta: [1] } })).to.deep.equal({
      data: null,
      meta: { status: 200 },
    });
  });

  it('leaves the response it reads unchanged', () => {
    const body = { data: null, meta: { total: 0 } };
    jsonApiJsonpPayload({ status: 200, headers: {}, body });
    expect(body).to.deep.equal({ data: null, meta: { total: 0 } });
  });

  it('is none for a body that is no document', () => {
    for (const body of [undefined, 'text', [1, 2], null, 3]) {
      expect(jsonApiJsonpPayload({ status: 200, headers: {}, body }), JSON.stringify(body)).to.equal(undefined);
    }
  });
});
