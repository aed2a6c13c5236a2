import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { ATOMIC_EXT, ATOMIC_TYPE, atomic, expectOneError, res, resultsOf } from './helpers.js';

const JSONAPI = 'application/vnd.api+json';
const addTag = (name: string) => [{ op: 'add', data: res('tag', { name }) }];

describeEachDatabase(
  'Atomic operations: media types, methods and query parameters',
  (t) => {
    beforeEach(() => t().seed());

    it('answers the extension media type, jsonapi 1.1 with the extension, and varies on Accept', async () => {
      const r = await atomic(t(), addTag('n1'));
      const [result] = resultsOf(r);
      expect(result!.data).to.include({ type: 'tag' });
      expect(result!.data.attributes).to.deep.equal({ name: 'n1' });
    });

    const accepted: [string, string][] = [
      ['a wildcard', '*/*'],
      ['application/*', 'application/*'],
      ['the extension beside an unknown profile', `${ATOMIC_TYPE}; profile="https://example.com/unknown"`],
      [
        'an entry with an unsupported extension beside one with the atomic one',
        `${JSONAPI}; ext="https://example.com/x", ${ATOMIC_TYPE}`,
      ],
      ['the extension unquoted', `${JSONAPI}; ext=${ATOMIC_EXT}`],
      ['plain JSON:API first, the extension after at a lower weight', `${JSONAPI}, ${ATOMIC_TYPE};q=0.5`],
    ];
    for (const [name, accept] of accepted) {
      it(`Accept with ${name}: 200`, async () => {
        resultsOf(await atomic(t(), addTag(`a-${name.length}`), { accept }));
      });
    }
    it('no Accept at all: 200', async () => {
      const r = await fetch(`${t().target.origin}/api/operations`, {
        method: 'POST',
        headers: { 'content-type': ATOMIC_TYPE },
        body: JSON.stringify({ 'atomic:operations': addTag('noaccept') }),
      });
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.equal(ATOMIC_TYPE);
    });

    const notAcceptable: [string, string][] = [
      ['plain JSON:API only', JSONAPI],
      ['an unsupported extension only', `${JSONAPI}; ext="https://example.com/x"`],
      [
        'the atomic extension beside an unsupported one in the same entry',
        `${JSONAPI}; ext="${ATOMIC_EXT} https://example.com/x"`,
      ],
      ['another media type parameter', `${ATOMIC_TYPE}; charset=utf-8`],
      ['text/html', 'text/html'],
    ];
    for (const [name, accept] of notAcceptable) {
      it(`Accept with ${name}: 406, nothing written`, async () => {
        const before = await t().target.database.knex('tag').count({ n: '*' });
        const r = await atomic(t(), addTag('refused'), { accept });
        expectOneError(r, 406);
        expect(r.headers.get('vary')).to.match(/\bAccept\b/);
        expect(await t().target.database.knex('tag').count({ n: '*' })).to.deep.equal(before);
      });
    }

    const unsupported: [string, string][] = [
      ['plain JSON:API (no extension)', JSONAPI],
      ['an unsupported extension', `${JSONAPI}; ext="https://example.com/x"`],
      ['the atomic extension and an unsupported one', `${JSONAPI}; ext="${ATOMIC_EXT} https://example.com/x"`],
      ['another parameter', `${ATOMIC_TYPE}; charset=utf-8`],
      ['application/json', 'application/json'],
    ];
    for (const [name, type] of unsupported) {
      it(`Content-Type with ${name}: 415`, async () => {
        expectOneError(await atomic(t(), addTag('refused'), { 'content-type': type }), 415);
      });
    }
    it('Content-Type with the extension and an unknown profile: the profile is ignored', async () => {
      const type = `${ATOMIC_TYPE}; profile="https://example.com/unknown"`;
      resultsOf(await atomic(t(), addTag('profiled'), { 'content-type': type }));
    });

    for (const method of ['GET', 'PATCH', 'PUT', 'DELETE']) {
      it(`${method} /api/operations: 405 with Allow: POST`, async () => {
        const r = await t().http.request(method, '/api/operations', { headers: { accept: ATOMIC_TYPE } });
        expectOneError(r, 405);
        expect(r.headers.get('allow')).to.equal('POST');
      });
    }

    for (const query of ['include=author', 'fields[tag]=name', 'foo=bar', 'page[size]=1', 'callback=handle']) {
      it(`a query parameter (${query}): 400 naming it, nothing written`, async () => {
        const r = await atomic(t(), addTag('q'), {}, `/api/operations?${query}`);
        expect(r.status, r.text).to.equal(400);
        expect(r.headers.get('content-type')).to.match(/^application\/vnd\.api\+json/);
        expect(r.body.errors[0].source).to.deep.equal({ parameter: query.split('=')[0] });
        expect(await t().target.database.knex('tag').where({ name: 'q' })).to.have.lengthOf(0);
      });
    }

    it('the atomic media type on another path: 415', async () => {
      const r = await t().http.post(
        '/api/tag',
        { data: res('tag', { name: 'x' }) },
        { headers: { 'content-type': ATOMIC_TYPE } },
      );
      expectOneError(r, 415);
    });
    it('an Accept of only the atomic media type on another path: 406', async () => {
      expectOneError(await t().http.get('/api/tag', { headers: { accept: ATOMIC_TYPE } }), 406);
    });
    it('every Format A answer varies on Accept (a read, a write, an error)', async () => {
      expect((await t().http.get('/api/tag')).headers.get('vary')).to.match(/\bAccept\b/);
      expect((await t().http.get('/api/nothing')).headers.get('vary')).to.match(/\bAccept\b/);
      const created = await t().http.post('/api/tag', { data: res('tag', { name: 'v' }) });
      expect(created.headers.get('vary')).to.match(/\bAccept\b/);
      expect(created.body.jsonapi).to.deep.equal({ version: '1.0' });
    });
  },
  { api: { atomic: true } },
);

describeEachDatabase('Atomic operations are off by default', (t) => {
  it('POST /api/operations: 404, the endpoint does not exist', async () => {
    expectOneError(await t().http.post('/api/operations', { 'atomic:operations': addTag('off') }), 404);
  });
  it('POST /api/operations with the atomic media type: refused by JSON:API 1.0 negotiation first (406)', async () => {
    expectOneError(await atomic(t(), addTag('off')), 406);
  });
  it('GET /api/operations: 404', async () => {
    expectOneError(await t().http.get('/api/operations'), 404);
  });
  it('the atomic media type on a collection: 415', async () => {
    const r = await t().http.post(
      '/api/tag',
      { data: res('tag', { name: 'x' }) },
      { headers: { 'content-type': ATOMIC_TYPE } },
    );
    expectOneError(r, 415);
  });
});
