import { withHeaders, type ResponseHook } from '@colapi/server-koa';
import { describeEachDatabase, type TestResponse } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectError, expectStatus, resource } from './helpers.js';

const ORIGIN = 'https://app.example';

/** The CORS hook of the README: allowed origins only; preflights answered from the Allow header. */
const cors: ResponseHook = (response, request) => {
  const origin = request.headers.origin;
  if (origin !== ORIGIN) return;
  const headers: Record<string, string> = {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': 'Location',
    vary: 'Origin',
  };
  if (request.method === 'OPTIONS') {
    headers['access-control-allow-methods'] = response.headers.allow ?? 'GET';
    headers['access-control-allow-headers'] = 'Accept, Content-Type';
    headers['access-control-max-age'] = '600';
  }
  return withHeaders(response, headers);
};

describeEachDatabase(
  'Format A: onResponse runs on every response (CORS)',
  (t) => {
    beforeEach(() => t().seed());

    const fromApp = { headers: { origin: ORIGIN } };
    const expectCors = (res: TestResponse) => {
      expect(res.headers.get('access-control-allow-origin'), `${res.status} ${res.text}`).to.equal(ORIGIN);
      expect(res.headers.get('vary')).to.match(/Origin/);
    };

    it('on a GET', async () => {
      expectCors(expectStatus(await t().http.get('/api/person/1', fromApp), 200));
    });

    it('on error responses: 404, 405, 400 and a path no route serves', async () => {
      expectCors(await t().http.get('/api/person/99', fromApp));
      expectError(await t().http.get('/api/person/99', fromApp), 404);
      const notAllowed = await t().http.post('/api/comment', resource('comment', { content: 'x' }), fromApp);
      expectError(notAllowed, 405);
      expectCors(notAllowed);
      const bad = await t().http.post('/api/person', resource('person', { shoe_size: 1 }), fromApp);
      expectError(bad, 400);
      expectCors(bad);
      const slash = await t().http.get('/api/person/', fromApp);
      expectError(slash, 404);
      expectCors(slash);
    });

    it('on a POST (201, Location exposed) and a DELETE (204)', async () => {
      const created = expectStatus(await t().http.post('/api/tag', resource('tag', { name: 'cors' }), fromApp), 201);
      expectCors(created);
      expect(created.headers.get('access-control-expose-headers')).to.equal('Location');
      expectCors(expectStatus(await t().http.delete(`/api/tag/${created.body.data.id}`, fromApp), 204));
    });

    it('on a preflight (OPTIONS), with the methods the path allows', async () => {
      const res = expectStatus(
        await t().http.request('OPTIONS', '/api/person/1', {
          headers: { origin: ORIGIN, 'access-control-request-method': 'PATCH' },
        }),
        204,
      );
      expectCors(res);
      expect(res.headers.get('access-control-allow-methods')).to.equal('GET, PATCH, DELETE, HEAD, OPTIONS');
    });

    it('on a JSONP answer', async () => {
      const res = expectStatus(await t().http.get('/api/person/1?callback=show', fromApp), 200);
      expect(res.headers.get('content-type')).to.match(/^application\/javascript/);
      expectCors(res);
    });

    it('not for other origins: the hook decides', async () => {
      const res = expectStatus(
        await t().http.get('/api/person/1', { headers: { origin: 'https://evil.example' } }),
        200,
      );
      expect(res.headers.get('access-control-allow-origin')).to.equal(null);
    });
  },
  { api: { onResponse: cors } },
);
