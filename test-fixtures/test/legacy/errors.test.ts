import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { count, expectMessage, expectStatus, snapshot } from './helpers.js';

/** Body requests and the Content-Type they send (undefined: none at all). */
const CONTENT_TYPES: [string, string | undefined][] = [
  ['no Content-Type at all', undefined],
  ['text/plain', 'text/plain'],
  ['the JSON:API media type', 'application/vnd.api+json'],
  ['a form', 'application/x-www-form-urlencoded'],
];
const BODY_REQUESTS: [string, string][] = [
  ['POST', '/api/person'],
  ['PATCH', '/api/person/1'],
  ['PUT', '/api/person/1'],
  ['PATCH', '/api/person'],
  ['PUT', '/api/person'],
];

/**
 * Requests that fail inside the database after an earlier statement of the same request succeeded:
 * each must leave every table as it was.
 */
const DATABASE_ERRORS: [string, string, string, unknown, number][] = [
  ['a unique violation creating a nested tag, after the article was inserted', 'POST', '/api/article', { title: 'T', tags: [{ id: 1 }, { name: 'news' }] }, 409],
  ['a unique violation adding a tag, after the title was updated', 'PATCH', '/api/article/1', { title: 'Changed', tags: { add: [{ name: 'tech' }] } }, 409],
  ['a NOT NULL violation in a nested new tag', 'POST', '/api/article', { title: 'T', tags: [{}] }, 400],
  ['a foreign key violation in a nested new comment', 'PUT', '/api/article/1', { title: 'Changed', comments: { add: [{ content: 'c', author_id: 99 }] } }, 404],
  ['a unique violation on the second row of a bulk update', 'PATCH', '/api/tag', { name: 'same' }, 409],
  ['a unique violation updating a nested existing instance', 'PATCH', '/api/article/1', { title: 'Changed', tags: [{ id: 1, name: 'life' }] }, 409],
];

describeEachDatabase(
  'Format B: errors',
  (t) => {
    beforeEach(() => t().seed());

    for (const [method, path] of BODY_REQUESTS) {
      for (const [name, type] of CONTENT_TYPES) {
        it(`${method} ${path} with ${name} is 415`, async () => {
          const before = await snapshot(t());
          const headers: Record<string, string> = type ? { 'content-type': type } : {};
          const body = type === undefined ? undefined : '{"name":"x"}';
          const res = await fetch(`${t().target.origin}${path}`, { method, headers, ...(body ? { body } : {}) });
          expect(res.status).to.equal(415);
          expect(await res.json()).to.have.all.keys('message');
          expect(await snapshot(t())).to.equal(before);
        });
      }
    }

    it('accepts application/json with a charset parameter', async () => {
      expectStatus(await t().http.post('/api/tag', { name: 'x' }, { headers: { 'content-type': 'application/json; charset=utf-8' } }), 201);
    });

    it('asks nothing of Accept', async () => {
      expectStatus(await t().http.get('/api/tag', { headers: { accept: 'text/html' } }), 200);
    });

    it('a body that is not JSON is 400 with a message', async () => {
      expectMessage(await t().http.post('/api/tag', '{"name": '), 400, /not valid JSON/);
      expect(await count(t(), 'tag')).to.equal(3);
    });

    it('405 carries an Allow header and a message', async () => {
      const res = await t().http.post('/api/person/1', { name: 'x' });
      expectMessage(res, 405);
      expect(res.headers.get('allow')).to.equal('GET, PATCH, PUT, DELETE');
    });

    it('404 for an unknown collection carries a message', async () => {
      expectMessage(await t().http.post('/api/nope', {}), 404, /no collection/);
    });

    for (const [name, method, path, body, status] of DATABASE_ERRORS) {
      it(`rolls the whole request back on ${name}`, async () => {
        const before = await snapshot(t());
        expectMessage(await t().http.request(method, path, { body }), status);
        expect(await snapshot(t())).to.equal(before);
      });
    }
  },
  { format: 'legacy' },
);
