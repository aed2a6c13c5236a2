import { expect } from 'chai';
import { checkContentType, JSON_MEDIA_TYPE, legacyFormat } from '../src/index.js';
import { expectError, request } from './fixtures.js';

const format = legacyFormat();

describe('Format B negotiation', () => {
  it('names its media type', () => {
    expect(JSON_MEDIA_TYPE).to.equal('application/json');
    expect(format.name).to.equal('legacy');
    expect(format.mediaType).to.equal('application/json');
    expect(format.bodyTypes).to.deep.equal(['application/json']);
  });

  it('takes POST, PATCH and PUT with Content-Type application/json, parameters and case aside', () => {
    for (const method of ['POST', 'PATCH', 'PUT']) {
      for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON']) {
        expect(
          () => format.negotiate(request(method, '/api/person', { headers: { 'content-type': type }, body: {} })),
          `${method} ${type}`,
        ).not.to.throw();
      }
    }
  });

  it('does not check Accept, nor the Content-Type of other methods', () => {
    expect(() => format.negotiate(request('GET', '/api/person', { headers: { accept: 'text/html' } }))).not.to.throw();
    expect(() =>
      format.negotiate(request('DELETE', '/api/person/1', { headers: { 'content-type': 'text/plain' } })),
    ).not.to.throw();
    expect(() => format.negotiate(request('DELETE', '/api/person/1'))).not.to.throw();
  });

  it('answers 415 to a body method without Content-Type, even without a body', () => {
    expectError(() => format.negotiate(request('POST', '/api/person', { body: {} })), {
      status: 415,
      title: 'Unsupported Media Type',
      detail: 'a POST request must have Content-Type application/json',
    });
    expectError(() => checkContentType(request('PATCH', '/api/person/1')), {
      status: 415,
      detail: 'a PATCH request must have Content-Type application/json',
    });
  });

  it('answers 415 to another Content-Type, JSON:API included', () => {
    expectError(
      () =>
        format.negotiate(
          request('PUT', '/api/person/1', { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: {} }),
        ),
      {
        status: 415,
        detail: 'Content-Type must be application/json, not text/plain',
      },
    );
    expectError(
      () =>
        checkContentType(
          request('POST', '/api/person', { headers: { 'content-type': 'application/vnd.api+json' }, body: {} }),
        ),
      {
        status: 415,
        detail: 'Content-Type must be application/json, not application/vnd.api+json',
      },
    );
  });

  it('answers per kind of path, PUT wherever PATCH is', () => {
    expect(format.methodsFor('collection')).to.deep.equal(['GET', 'POST', 'PATCH', 'PUT']);
    expect(format.methodsFor('resource')).to.deep.equal(['GET', 'PATCH', 'PUT', 'DELETE']);
    expect(format.methodsFor('related')).to.deep.equal(['GET']);
    expect(format.methodsFor('related-item')).to.deep.equal(['GET', 'DELETE']);
    expect(format.methodsFor('relationship')).to.deep.equal(['GET', 'DELETE']);
    expect(format.methodsFor('evaluate')).to.deep.equal(['GET']);
  });
});
