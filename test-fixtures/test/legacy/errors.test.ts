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

const UNIQUE_NAME = /^"name" must be unique: another tag has the same value$/;

/**
 * Requests that fail inside the database after an earlier statement of the same request succeeded:
 * each must leave every table as it was.
 */
const DATABASE_ERRORS: [string, string, string, unknown, number, RegExp?][] = [
  // Unique violations are 400 in Format B, as Flask-Restless 0.17 answers every integrity error; the message names the field.
  [
    'a unique violation creating a nested tag, after the article was inserted',
    'POST',
    '/api/article',
    { title: 'T', tags: [{ id: 1 }, { name: 'news' }] },
    400,
    UNIQUE_NAME,
  ],
  [
    'a unique violation adding a tag, after the title was updated',
    'PATCH',
    '/api/article/1',
    { title: 'Changed', tags: { add: [{ name: 'tech' }] } },
    400,
    UNIQUE_NAME,
  ],
  ['a NOT NULL violation in a nested new tag', 'POST', '/api/article', { title: 'T', tags: [{}] }, 400],
  [
    'a foreign key violation in a nested new comment',
    'PUT',
    '/api/article/1',
    { title: 'Changed', comments: { add: [{ content: 'c', author_id: 99 }] } },
    404,
  ],
  ['a unique violation on the second row of a bulk update', 'PATCH', '/api/tag', { name: 'same' }, 400, UNIQUE_NAME],
  [
    'a unique violation updating a nested existing instance',
    'PATCH',
    '/api/article/1',
    { title: 'Changed', tags: [{ id: 1, name: 'life' }] },
    400,
    UNIQUE_NAME,
  ],
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
      expectStatus(
        await t().http.post(
          '/api/tag',
          { name: 'x' },
          { headers: { 'content-type': 'application/json; charset=utf-8' } },
        ),
        201,
      );
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

    for (const [name, method, path, body, status, message] of DATABASE_ERRORS) {
      it(`rolls the whole request back on ${name}`, async () => {
        const before = await snapshot(t());
        expectMessage(await t().http.request(method, path, { body }), status, message);
        expect(await snapshot(t())).to.equal(before);
      });
    }

    it('a unique violation is 400 naming the field, on create and on update', async () => {
      const before = await snapshot(t());
      expectMessage(await t().http.post('/api/tag', { name: 'news' }), 400, UNIQUE_NAME);
      expectMessage(await t().http.patch('/api/tag/2', { name: 'news' }), 400, UNIQUE_NAME);
      expectMessage(await t().http.put('/api/tag/2', { name: 'news' }), 400, UNIQUE_NAME);
      expect(await snapshot(t())).to.equal(before);
    });

    it("an integer out of its column's 32-bit range is 400, on create and on update", async () => {
      const before = await snapshot(t());
      // PostgreSQL's error does not name the column; the other two do.
      const message =
        t().kind === 'postgres'
          ? /^a number is out of the range its field holds$/
          : /^"age": the number is out of the range the field holds$/;
      expectMessage(await t().http.post('/api/person', { name: 'big', age: 2147483648 }), 400, message);
      expectMessage(await t().http.patch('/api/person/1', { age: -2147483649 }), 400, message);
      expect(await snapshot(t())).to.equal(before);
    });

    it('a member named __proto__ is 400 saying so, with its place, not "not valid JSON"', async () => {
      for (const [path, body, at] of [
        ['/api/person', '{"name": "p", "__proto__": {"x": 1}}', '/__proto__'],
        ['/api/article', '{"title": "t", "tags": [{"name": "n", "__proto__": null}]}', '/tags/0/__proto__'],
      ] as const) {
        expectMessage(
          await t().http.post(path, body),
          400,
          `"__proto__" is not an acceptable member name in a request body (at ${at})`,
        );
      }
    });
  },
  { format: 'legacy' },
);
