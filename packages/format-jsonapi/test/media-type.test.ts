import { expect } from 'chai';
import { checkContentType, chooseResponseType, JSONAPI_MEDIA_TYPE, jsonApiFormat } from '../src/index.js';
import { apiError, expectError, request } from './fixtures.js';

const format = jsonApiFormat();

const get = (accept: string | undefined, target = '/api/person') =>
  request('GET', target, accept === undefined ? {} : { headers: { accept } });
const post = (headers: Record<string, string>) =>
  request('POST', '/api/person', { headers, body: { data: { type: 'person' } } });

const NOT_ACCEPTABLE_PARAMETERS =
  'every application/vnd.api+json in Accept carries a media type parameter other than profile, or an extension this path does not support';
const NOT_ACCEPTABLE = 'Accept must allow application/vnd.api+json';

describe('Format A negotiation', () => {
  it('names its media type', () => {
    expect(JSONAPI_MEDIA_TYPE).to.equal('application/vnd.api+json');
    expect(format.name).to.equal('jsonapi');
    expect(format.mediaType).to.equal(JSONAPI_MEDIA_TYPE);
    expect(format.bodyTypes).to.deep.equal([JSONAPI_MEDIA_TYPE]);
  });

  describe('Accept', () => {
    const ACCEPTED = [
      undefined,
      '',
      'application/vnd.api+json',
      'APPLICATION/VND.API+JSON',
      'application/vnd.api+json;q=0.5',
      'text/html, application/vnd.api+json',
      'application/vnd.api+json; ext="https://a.example/x"; q=0.9, application/vnd.api+json',
      '*/*',
      'application/*',
      'text/html, */*;q=0.1',
      // RFC 9110 §12.5.1: the most specific range decides, whatever its place.
      '*/*;q=0, application/vnd.api+json',
      'application/*;q=0, application/vnd.api+json;q=0.2',
      '*/*;q=0, application/*',
      'application/vnd.api+json;profile=x;q=0, */*',
      // JSON:API 1.1: a profile the server does not apply is ignored, so the entry stands for the plain type.
      'application/vnd.api+json; profile="https://example.com/p"',
      'application/vnd.api+json;profile=x, */*',
      'application/vnd.api+json; profile="a b"; q=0.5, text/html',
      // A malformed weight is no refusal.
      'application/vnd.api+json;q=, */*',
      'application/vnd.api+json;q=abc',
    ];
    for (const accept of ACCEPTED) {
      it(`answers JSON:API to ${JSON.stringify(accept)}`, () => {
        expect(() => format.negotiate(get(accept))).not.to.throw();
        expect(chooseResponseType(get(accept), false)).to.equal(JSONAPI_MEDIA_TYPE);
      });
    }

    const REFUSED: [string, string][] = [
      ['application/vnd.api+json; ext="https://a.example/x,https://b.example/y"', NOT_ACCEPTABLE_PARAMETERS],
      ['application/vnd.api+json;charset=utf-8', NOT_ACCEPTABLE_PARAMETERS],
      // The parameters make JSON:API unacceptable even where a wildcard would allow another type.
      ['application/vnd.api+json;charset=utf-8, */*', NOT_ACCEPTABLE_PARAMETERS],
      ['application/vnd.api+json;profile=x;charset=utf-8', NOT_ACCEPTABLE_PARAMETERS],
      ['application/vnd.api+json;profile=x;q=0', NOT_ACCEPTABLE],
      ['text/html', NOT_ACCEPTABLE],
      ['text/*', NOT_ACCEPTABLE],
      ['application/json', NOT_ACCEPTABLE],
      ['application/vnd.api+json;q=0', NOT_ACCEPTABLE],
      // An explicit refusal of JSON:API is more specific than a wildcard that would allow it.
      ['application/vnd.api+json;q=0, */*', NOT_ACCEPTABLE],
      ['application/vnd.api+json;q=0, application/*', NOT_ACCEPTABLE],
      ['*/*, application/vnd.api+json;q=0', NOT_ACCEPTABLE],
      ['application/vnd.api+json;q=0.000, text/html, */*;q=0.5', NOT_ACCEPTABLE],
      ['APPLICATION/VND.API+JSON; Q=0, */*', NOT_ACCEPTABLE],
      ['application/*;q=0, */*', NOT_ACCEPTABLE],
      ['*/*;q=0', NOT_ACCEPTABLE],
    ];
    for (const [accept, detail] of REFUSED) {
      it(`answers 406 to ${JSON.stringify(accept)}`, () => {
        expectError(() => format.negotiate(get(accept)), { status: 406, title: 'Not Acceptable', detail });
      });
    }

    it("answers plain JSON to function evaluation when asked for it, as the specification's samples do", () => {
      expect(() => format.negotiate(get('application/json', '/api/eval/person'))).not.to.throw();
      expect(chooseResponseType(get('application/json'), true)).to.equal('application/json');
      // JSON:API first when the client takes either.
      expect(chooseResponseType(get('application/json, application/vnd.api+json'), true)).to.equal(JSONAPI_MEDIA_TYPE);
      expect(chooseResponseType(get(undefined), true)).to.equal(JSONAPI_MEDIA_TYPE);
      expectError(() => format.negotiate(get('text/html', '/api/eval/person')), {
        status: 406,
        detail: NOT_ACCEPTABLE,
      });
      // Refused JSON:API leaves plain JSON where the client names it, and nothing where only a wildcard would allow it.
      expect(chooseResponseType(get('application/vnd.api+json;q=0, application/json'), true)).to.equal(
        'application/json',
      );
      expectError(() => format.negotiate(get('application/vnd.api+json;q=0, */*', '/api/eval/person')), {
        status: 406,
        detail: NOT_ACCEPTABLE,
      });
      expectError(
        () => format.negotiate(get('application/json;q=0, application/vnd.api+json;q=0, */*', '/api/eval/person')),
        { status: 406, detail: NOT_ACCEPTABLE },
      );
    });
  });

  describe('Content-Type', () => {
    it('takes a body sent as application/vnd.api+json, in any case, with a profile or none', () => {
      expect(() => format.negotiate(post({ 'content-type': 'application/vnd.api+json' }))).not.to.throw();
      expect(() =>
        format.negotiate(post({ 'content-type': 'application/vnd.api+json; profile="https://example.com/p"' })),
      ).not.to.throw();
      expect(() => checkContentType(post({ 'content-type': 'Application/Vnd.Api+JSON' }))).not.to.throw();
    });

    it('does not look at it without a body', () => {
      expect(() =>
        format.negotiate(request('DELETE', '/api/person/1', { headers: { 'content-type': 'text/plain' } })),
      ).not.to.throw();
      expect(() => format.negotiate(request('DELETE', '/api/person/1'))).not.to.throw();
    });

    const REFUSED: [Record<string, string>, string][] = [
      [{}, 'a request body must have Content-Type application/vnd.api+json'],
      [{ 'content-type': 'application/json' }, 'Content-Type must be application/vnd.api+json, not application/json'],
      [
        { 'content-type': 'application/vnd.api+json; charset=utf-8' },
        'Content-Type application/vnd.api+json may carry no media type parameter but profile (charset=utf-8)',
      ],
      [
        { 'content-type': 'application/vnd.api+json; profile="p"; charset=utf-8' },
        'Content-Type application/vnd.api+json may carry no media type parameter but profile (charset=utf-8)',
      ],
      [
        { 'content-type': 'application/vnd.api+json;ext="https://a.example/x"' },
        'Content-Type application/vnd.api+json names an extension this path does not support (ext="https://a.example/x")',
      ],
    ];
    for (const [headers, detail] of REFUSED) {
      it(`answers 415 to a body with ${JSON.stringify(headers)}`, () => {
        expectError(() => format.negotiate(post(headers)), { status: 415, title: 'Unsupported Media Type', detail });
      });
    }

    it('checks Accept first: 406 wins over 415', () => {
      expect(
        apiError(() => format.negotiate(post({ accept: 'text/html', 'content-type': 'text/plain' }))).status,
      ).to.equal(406);
    });
  });

  describe('methods', () => {
    it('answers per kind of path', () => {
      expect(format.methodsFor('collection')).to.deep.equal(['GET', 'POST']);
      expect(format.methodsFor('resource')).to.deep.equal(['GET', 'PATCH', 'DELETE']);
      expect(format.methodsFor('related')).to.deep.equal(['GET']);
      expect(format.methodsFor('related-item')).to.deep.equal(['GET']);
      expect(format.methodsFor('relationship')).to.deep.equal(['GET', 'PATCH', 'POST', 'DELETE']);
      expect(format.methodsFor('evaluate')).to.deep.equal(['GET']);
    });
  });
});
