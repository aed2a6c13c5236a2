import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { ALICE, count, expectMessage, expectStatus, getOk, rows, snapshot, tagIds } from './helpers.js';

const todayUtc = () => new Date().toISOString().slice(0, 10);

describeEachDatabase(
  'Format B: creating with POST',
  (t) => {
    beforeEach(() => t().seed());

    it('answers 201 with the complete object, a Location header and empty lists for empty relations', async () => {
      const res = expectStatus(await t().http.post('/api/person', { name: 'Zed', age: 30 }), 201);
      expect(res.headers.get('location')).to.equal(`${t().target.origin}/api/person/6`);
      expect(res.body).to.deep.equal({
        id: 6,
        name: 'Zed',
        age: 30,
        other: null,
        birthday: null,
        birth_datetime: null,
        bedtime: null,
        is_minor: false,
        articles: [],
        comments: [],
      });
      expect((await getOk(t(), '/api/person/6')).body).to.deep.equal(res.body);
    });

    it('stores dates, times with fractions, intervals and CURRENT_DATE', async () => {
      const person = expectStatus(
        await t().http.post('/api/person', {
          birthday: '2000-02-29',
          birth_datetime: '2000-02-29T10:11:12.5',
          bedtime: '21:30',
        }),
        201,
      );
      expect(person.body).to.include({
        birthday: '2000-02-29',
        birth_datetime: '2000-02-29T10:11:12.5',
        bedtime: '21:30:00',
      });
      const task = expectStatus(
        await t().http.post('/api/task', { title: 'x', duration: 75, due: 'CURRENT_DATE' }),
        201,
      );
      expect(task.body).to.deep.equal({ id: 4, title: 'x', duration: 75, due: todayUtc() });
    });

    it('links an existing to-one instance given by id alone', async () => {
      const res = expectStatus(await t().http.post('/api/article', { title: 'T', author: { id: 1 } }), 201);
      expect(res.body).to.include({ id: 6, title: 'T', author_id: 1 });
      expect(res.body.author).to.deep.equal(ALICE);
      expect(res.body.comments).to.deep.equal([]);
      expect(res.body.tags).to.deep.equal([]);
    });

    it('takes a foreign key as a plain field too', async () => {
      const res = expectStatus(await t().http.post('/api/article', { title: 'T', author_id: 2 }), 201);
      expect(res.body.author).to.include({ id: 2, name: 'bob' });
    });

    it('creates a to-one instance given without id', async () => {
      const res = expectStatus(
        await t().http.post('/api/article', { title: 'T', author: { name: 'Newton', age: 84 } }),
        201,
      );
      expect(res.body.author).to.include({ id: 6, name: 'Newton', age: 84 });
      expect(res.body.author_id).to.equal(6);
    });

    it('links existing and creates new instances of a many-to-many relation', async () => {
      const res = expectStatus(
        await t().http.post('/api/article', { title: 'T', tags: [{ id: 2 }, { name: 'fresh' }] }),
        201,
      );
      expect(res.body.tags).to.deep.equal([
        { id: 2, name: 'tech' },
        { id: 4, name: 'fresh' },
      ]);
      expect(await tagIds(t(), 6)).to.deep.equal([2, 4]);
    });

    it('links existing and creates new instances of a to-many relation', async () => {
      const res = expectStatus(
        await t().http.post('/api/person', { name: 'Zed', articles: [{ id: 4 }, { title: 'Mine' }] }),
        201,
      );
      expect(res.body.articles).to.deep.equal([
        { id: 4, title: 'Untitled', publishtime: null, author_id: 6 },
        { id: 6, title: 'Mine', publishtime: null, author_id: 6 },
      ]);
    });

    it('creates instances nested in new instances', async () => {
      const res = expectStatus(
        await t().http.post('/api/person', { name: 'Zed', articles: [{ title: 'Deep', tags: [{ name: 'deep' }] }] }),
        201,
      );
      expect(res.body.articles).to.have.lengthOf(1);
      expect(await tagIds(t(), 6)).to.deep.equal([4]);
    });

    it('accepts an id where the collection allows client-generated ids', async () => {
      const res = expectStatus(await t().http.post('/api/tag', { id: 40, name: 'forty' }), 201);
      expect(res.body).to.deep.equal({ id: 40, name: 'forty', articles: [] });
    });

    const REFUSED: [string, string, unknown, number, RegExp][] = [
      [
        'a field that does not exist',
        '/api/person',
        { name: 'Zed', height: 180 },
        400,
        /"height" is not a field of person/,
      ],
      ['a computed attribute', '/api/person', { name: 'Zed', is_minor: true }, 400, /computed/],
      ['a field excluded from the collection', '/api/person_private', { name: 'Zed', age: 3 }, 400, /"age"/],
      ['a value of the wrong type', '/api/person', { age: 'old' }, 400, /not an integer/],
      ['an invalid date', '/api/person', { birthday: '2001-02-29' }, 400, /valid date/],
      ['null for a field that takes none', '/api/tag', { name: null }, 400, /cannot be null/],
      ['an id where the server generates ids', '/api/person', { id: 9, name: 'Zed' }, 400, /generates its ids/],
      [
        'an unknown field of a nested new instance',
        '/api/article',
        { title: 'T', tags: [{ label: 'x' }] },
        400,
        /"label" is not a field of tag.*\/tags\/0\/label/,
      ],
      ['a to-many relation given an object', '/api/article', { tags: { id: 1 } }, 400, /to-many relationship/],
      ['a to-one relation given a list', '/api/article', { author: [{ id: 1 }] }, 400, /to-one relationship/],
      ['a related id of the wrong type', '/api/article', { author: { id: 'one' } }, 400, /not an integer/],
      [
        'a foreign key and its relation at once',
        '/api/article',
        { author_id: 1, author: { id: 2 } },
        400,
        /"author_id" or "author"/,
      ],
      ['__delete__ outside a remove', '/api/article', { tags: [{ id: 1, __delete__: true }] }, 400, /__delete__/],
      ['a body that is a list', '/api/person', [{ name: 'Zed' }], 400, /Unable to decode data/],
      [
        'a related instance that does not exist',
        '/api/article',
        { title: 'T', tags: [{ id: 99 }] },
        404,
        /tag 99 does not exist/,
      ],
      // An integrity error is 400 in Format B, as Flask-Restless 0.17 answers it.
      ['a client id that exists already', '/api/tag', { id: 1, name: 'again' }, 400, /tag 1 exists already/],
    ];
    for (const [name, path, body, status, message] of REFUSED) {
      it(`refuses ${name} (${status}) and creates nothing`, async () => {
        const before = await snapshot(t());
        expectMessage(await t().http.post(path, body), status, message);
        expect(await snapshot(t())).to.equal(before);
      });
    }

    it('refuses an empty body with 400', async () => {
      expectMessage(
        await t().http.request('POST', '/api/person', { headers: { 'content-type': 'application/json' } }),
        400,
        /Unable to decode data/,
      );
      expect(await count(t(), 'person')).to.equal(5);
    });

    it('answers 405 with Allow where POST is not enabled', async () => {
      const res = await t().http.post('/api/comment', { content: 'x' });
      expectMessage(res, 405);
      expect(res.headers.get('allow')).to.equal('GET');
      expect(await rows(t(), 'comment')).to.have.lengthOf(4);
    });
  },
  { format: 'legacy' },
);
