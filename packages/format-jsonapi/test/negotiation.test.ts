import { expect } from 'chai';
import { appliedMediaType, jsonApi11, negotiate11, requestedProfiles, type MediaTypeSupport } from '../src/index.js';
import { request } from './fixtures.js';

const JSONAPI = 'application/vnd.api+json';
const EXT = 'https://example.com/ext/a';
const PROFILE = 'https://example.com/profiles/p';
const SUPPORT: MediaTypeSupport = { extensions: new Set([EXT]), profiles: new Set([PROFILE]) };

const get = (accept?: string) => request('GET', '/api/x', accept === undefined ? {} : { headers: { accept } });
const post = (contentType: string) =>
  request('POST', '/api/x', { headers: { 'content-type': contentType }, body: { data: null } });
const status = (run: () => unknown): number | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as { status?: number }).status;
  }
};

describe('JSON:API 1.1 negotiation (negotiate11)', () => {
  it('answers the body’s extensions, the chosen Accept entry’s extensions and its known profiles', () => {
    const req = request('POST', '/api/x', {
      headers: {
        'content-type': `${JSONAPI}; ext="${EXT}"; profile="https://unknown.example/p"`,
        accept: `${JSONAPI}; ext=${EXT}; profile="${PROFILE} https://unknown.example/q"`,
      },
      body: {},
    });
    expect(negotiate11(req, SUPPORT)).to.deep.equal({ ext: [EXT], acceptedExt: [EXT], profiles: [PROFILE] });
  });

  const ACCEPTED: [string | undefined, readonly string[] | undefined][] = [
    [undefined, undefined],
    ['*/*', undefined],
    ['application/*', undefined],
    [JSONAPI, []],
    [`${JSONAPI}; profile="https://unknown.example/p"`, []],
    [`${JSONAPI}; ext="https://other.example/x", ${JSONAPI}; ext="${EXT}"`, [EXT]],
    [`${JSONAPI}; ext="${EXT}";q=0.5, ${JSONAPI}`, []],
    [`${JSONAPI}; charset=utf-8, ${JSONAPI}; ext="${EXT}"`, [EXT]],
  ];
  for (const [accept, acceptedExt] of ACCEPTED) {
    it(`Accept ${accept ?? '(none)'}: allowed, extensions ${JSON.stringify(acceptedExt)}`, () => {
      expect(negotiate11(get(accept), SUPPORT).acceptedExt).to.deep.equal(acceptedExt);
    });
  }

  const REFUSED = [
    `${JSONAPI}; ext="https://other.example/x"`,
    `${JSONAPI}; ext="${EXT} https://other.example/x"`,
    `${JSONAPI}; charset=utf-8`,
    `${JSONAPI}; charset=utf-8, */*`,
    `${JSONAPI};q=0, */*`,
    'text/html',
  ];
  for (const accept of REFUSED) {
    it(`Accept ${accept}: 406`, () => expect(status(() => negotiate11(get(accept), SUPPORT))).to.equal(406));
  }

  const CONTENT: [string, number | undefined][] = [
    [JSONAPI, undefined],
    [`${JSONAPI}; ext="${EXT}"`, undefined],
    [`${JSONAPI}; profile="https://unknown.example/p"`, undefined],
    [`${JSONAPI}; ext="https://other.example/x"`, 415],
    [`${JSONAPI}; ext="${EXT} https://other.example/x"`, 415],
    [`${JSONAPI}; charset=utf-8`, 415],
    ['application/json', 415],
  ];
  for (const [type, expected] of CONTENT) {
    it(`Content-Type ${type}: ${expected ?? 'accepted'}`, () =>
      expect(status(() => negotiate11(post(type), SUPPORT))).to.equal(expected));
  }
  it('a body without Content-Type: 415', () => {
    const req = request('POST', '/api/x', { body: {} });
    expect(status(() => negotiate11(req, SUPPORT))).to.equal(415);
  });

  it('an entry applying the preferred extension is chosen over a heavier plain one', () => {
    const accept = `${JSONAPI}, ${JSONAPI}; ext="${EXT}";q=0.2`;
    expect(negotiate11(get(accept), SUPPORT).acceptedExt).to.deep.equal([]);
    expect(negotiate11(get(accept), SUPPORT, EXT).acceptedExt).to.deep.equal([EXT]);
    expect(status(() => negotiate11(get(`${JSONAPI}; ext="${EXT}";q=0`), SUPPORT, EXT))).to.equal(406);
  });

  it('requestedProfiles: the known profiles asked for, none when Accept would be refused', () => {
    expect(requestedProfiles(get(`${JSONAPI}; profile="${PROFILE}"`), SUPPORT)).to.deep.equal([PROFILE]);
    expect(requestedProfiles(get(`${JSONAPI}; profile="https://unknown.example/p"`), SUPPORT)).to.deep.equal([]);
    expect(requestedProfiles(get(JSONAPI), SUPPORT)).to.deep.equal([]);
    expect(requestedProfiles(get('text/html'), SUPPORT)).to.deep.equal([]);
  });

  it('appliedMediaType and jsonApi11 name what an answer applies', () => {
    expect(appliedMediaType([EXT], [PROFILE])).to.equal(`${JSONAPI}; ext="${EXT}"; profile="${PROFILE}"`);
    expect(appliedMediaType([])).to.equal(JSONAPI);
    expect(jsonApi11([EXT])).to.deep.equal({ version: '1.1', ext: [EXT] });
    expect(jsonApi11([], [PROFILE])).to.deep.equal({ version: '1.1', profile: [PROFILE] });
  });
});
