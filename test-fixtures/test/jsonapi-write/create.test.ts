import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { count, expectError, expectStatus, ref, refs, resource, rows, tagsOf } from './helpers.js';

describeEachDatabase('Format A: POST creates a resource', (t) => {
  beforeEach(() => t().seed());

  it('answers 201, an absolute Location equal to data.links.self, and the complete resource object', async () => {
    const res = expectStatus(
      await t().http.post('/api/person', resource('person', { name: 'Frank', age: 30, bedtime: '22:00:00' })),
      201,
    );
    expect(res.headers.get('content-type')).to.match(/^application\/vnd\.api\+json/);
    const data = res.body.data;
    expect(data.type).to.equal('person');
    expect(data.id).to.equal('6');
    const self = `${t().target.origin}/api/person/6`;
    expect(res.headers.get('location')).to.equal(self);
    expect(data.links.self).to.equal(self);
    expect(data.meta).to.deep.equal({});
    expect(data.jsonapi).to.deep.equal({ version: '1.0' });
    expect(res.body.jsonapi).to.deep.equal({ version: '1.0' });
    expect(data.attributes).to.deep.equal({
      name: 'Frank',
      age: 30,
      other: null,
      birthday: null,
      birth_datetime: null,
      bedtime: '22:00:00',
      is_minor: false,
    });
    expect(data.relationships.articles.data).to.deep.equal([]);
    expect(data.relationships.comments.data).to.deep.equal([]);
    expect(data.relationships.articles.links).to.deep.equal({
      self: `${self}/relationships/articles`,
      related: `${self}/articles`,
    });
    // What the Location names is what was stored.
    const fetched = expectStatus(await t().http.get('/api/person/6'), 200);
    expect(fetched.body.data.attributes).to.deep.equal(data.attributes);
  });

  it('answers with the included resources the query asks for', async () => {
    const res = expectStatus(
      await t().http.post(
        '/api/article?include=author',
        resource('article', { title: 'Inc' }, { author: ref('person', 2) }),
      ),
      201,
    );
    expect(res.body.included.map((r: { type: string; id: string }) => [r.type, r.id])).to.deep.equal([['person', '2']]);
  });

  it('creates a resource with no attributes at all', async () => {
    const res = expectStatus(await t().http.post('/api/person', { data: { type: 'person' } }), 201);
    expect(res.body.data.attributes.name).to.equal(null);
    expect(await count(t(), 'person')).to.equal(6);
  });

  describe('client-generated ids', () => {
    it('are accepted where allow_client_generated_ids is set (tag): 201 with the complete object', async () => {
      const res = expectStatus(
        await t().http.post('/api/tag', resource('tag', { name: 'sport' }, undefined, '42')),
        201,
      );
      expect(res.body.data.id).to.equal('42');
      expect(res.body.data.attributes).to.deep.equal({ name: 'sport' });
      expect(res.headers.get('location')).to.equal(`${t().target.origin}/api/tag/42`);
      expect(await rows(t(), 'tag', { id: 42 })).to.have.lengthOf(1);
    });

    it('do not stop the server from generating the next ids', async () => {
      // The database's own counter must move past a key the client chose (PostgreSQL's sequences do not by themselves).
      expectStatus(await t().http.post('/api/tag', resource('tag', { name: 'four' }, undefined, '4')), 201);
      const next = expectStatus(await t().http.post('/api/tag', resource('tag', { name: 'five' })), 201);
      expect(Number(next.body.data.id)).to.be.greaterThan(4);
    });

    it('are refused with 403 elsewhere (person), and nothing is created', async () => {
      expectError(await t().http.post('/api/person', resource('person', { name: 'X' }, undefined, '99')), 403, {
        pointer: '/data/id',
      });
      expect(await count(t(), 'person')).to.equal(5);
    });

    it('answer 409 when the id exists', async () => {
      expectError(await t().http.post('/api/tag', resource('tag', { name: 'other' }, undefined, '1')), 409, {
        pointer: '/data/id',
      });
      expect((await rows(t(), 'tag', { id: 1 }))[0]!.name).to.equal('news');
    });

    it('answer 400 when the id is not a string, cannot be a key, or is not spelt as the key it stands for', async () => {
      expectError(await t().http.post('/api/tag', { data: { type: 'tag', id: 7, attributes: { name: 'x' } } }), 400, {
        pointer: '/data/id',
      });
      for (const id of ['seven', '007', '+7', '7.0', '', ' 7']) {
        expectError(await t().http.post('/api/tag', resource('tag', { name: 'x' }, undefined, id)), 400, {
          pointer: '/data/id',
        });
      }
      expect(await count(t(), 'tag')).to.equal(3);
    });
  });

  describe('malformed documents', () => {
    const CASES: [string, string, unknown, number, string][] = [
      ['no type', 'person', { data: { attributes: { name: 'X' } } }, 400, '/data/type'],
      ['a wrong type', 'person', resource('article', { title: 'X' }), 409, '/data/type'],
      [
        'an unknown attribute',
        'person',
        resource('person', { name: 'X', nickname: 'x' }),
        400,
        '/data/attributes/nickname',
      ],
      [
        'an unknown relationship',
        'person',
        resource('person', { name: 'X' }, { friends: [] }),
        400,
        '/data/relationships/friends',
      ],
      ['a computed attribute', 'person', resource('person', { is_minor: true }), 400, '/data/attributes/is_minor'],
      ['a value of the wrong type', 'person', resource('person', { age: 'old' }), 400, '/data/attributes/age'],
      [
        'a relationship without data',
        'person',
        { data: { type: 'person', relationships: { articles: {} } } },
        400,
        '/data/relationships/articles',
      ],
      [
        'a to-one given a list',
        'article',
        resource('article', {}, { author: [ref('person', 1)] }),
        400,
        '/data/relationships/author/data',
      ],
      ['the key as an attribute', 'person', resource('person', { id: 9 }), 400, '/data/attributes/id'],
      [
        'attributes that are not an object',
        'person',
        { data: { type: 'person', attributes: ['x'] } },
        400,
        '/data/attributes',
      ],
      [
        'a to-many given one identifier',
        'person',
        resource('person', {}, { articles: ref('article', 1) }),
        400,
        '/data/relationships/articles/data',
      ],
      [
        'linkage of the wrong type',
        'article',
        resource('article', {}, { author: ref('article', 1) }),
        409,
        '/data/relationships/author/data/type',
      ],
      [
        'linkage without an id',
        'article',
        resource('article', {}, { author: { type: 'person' } }),
        400,
        '/data/relationships/author/data/id',
      ],
      ['data that is a list', 'person', { data: [{ type: 'person' }] }, 400, '/data'],
      ['no data', 'person', { meta: {} }, 400, '/data'],
      ['a member a resource object cannot have', 'person', { data: { type: 'person', name: 'X' } }, 400, '/data/name'],
    ];
    for (const [name, collection, body, status, pointer] of CASES) {
      it(`${name}: ${status} pointing at ${pointer}`, async () => {
        expectError(await t().http.post(`/api/${collection}`, body), status, { pointer });
        expect(await count(t(), 'person')).to.equal(5);
        expect(await count(t(), 'article')).to.equal(5);
      });
    }

    it('a foreign key sent as an attribute (author_id): 400 naming the relationship', async () => {
      const error = expectError(
        await t().http.post('/api/article', resource('article', { title: 'X', author_id: 1 })),
        400,
        {
          pointer: '/data/attributes/author_id',
        },
      );
      expect(error.detail).to.include('author');
      expect(await count(t(), 'article')).to.equal(5);
    });
  });

  describe('relationship linkage in the body', () => {
    it('sets a to-one relationship (article.author)', async () => {
      const res = expectStatus(
        await t().http.post('/api/article', resource('article', { title: 'New' }, { author: ref('person', 3) })),
        201,
      );
      expect(res.body.data.relationships.author.data).to.deep.equal(ref('person', 3));
      expect((await rows(t(), 'article', { id: Number(res.body.data.id) }))[0]!.author_id).to.equal(3);
    });

    it('sets a to-one relationship to null', async () => {
      const res = expectStatus(
        await t().http.post('/api/article', resource('article', { title: 'New' }, { author: null })),
        201,
      );
      expect(res.body.data.relationships.author.data).to.equal(null);
    });

    it('sets a to-many relationship through the foreign key of the others (person.articles)', async () => {
      const res = expectStatus(
        await t().http.post('/api/person', resource('person', { name: 'Gina' }, { articles: refs('article', 4, 5) })),
        201,
      );
      const id = Number(res.body.data.id);
      expect(res.body.data.relationships.articles.data).to.deep.equal(refs('article', 4, 5));
      const owned = await t().target.database.knex('article').where({ author_id: id }).orderBy('id').select('id');
      expect(owned.map((r: { id: unknown }) => Number(r.id))).to.deep.equal([4, 5]);
    });

    it('sets a many-to-many relationship through the join table (article.tags)', async () => {
      const res = expectStatus(
        await t().http.post('/api/article', resource('article', { title: 'Tagged' }, { tags: refs('tag', 1, 3) })),
        201,
      );
      expect(res.body.data.relationships.tags.data).to.deep.equal(refs('tag', 1, 3));
      expect(await tagsOf(t(), Number(res.body.data.id))).to.deep.equal([1, 3]);
    });

    it('takes a list naming the same resource twice once', async () => {
      const res = expectStatus(
        await t().http.post('/api/article', resource('article', { title: 'Twice' }, { tags: refs('tag', 2, 2) })),
        201,
      );
      expect(await tagsOf(t(), Number(res.body.data.id))).to.deep.equal([2]);
    });

    const MISSING: [string, string, unknown][] = [
      ['a missing to-one target', 'article', resource('article', { title: 'X' }, { author: ref('person', 99) })],
      ['a missing to-many target', 'person', resource('person', { name: 'X' }, { articles: refs('article', 1, 99) })],
      ['a missing many-to-many target', 'article', resource('article', { title: 'X' }, { tags: refs('tag', 1, 99) })],
    ];
    it('an id that cannot be a key: 400 at its pointer, nothing created', async () => {
      const body = resource('article', { title: 'X' }, { author: ref('person', 'abc') });
      expectError(await t().http.post('/api/article', body), 400, { pointer: '/data/relationships/author/data/id' });
      expect(await count(t(), 'article')).to.equal(5);
    });
    for (const [name, collection, body] of MISSING) {
      it(`${name}: 404 and nothing created`, async () => {
        expectError(await t().http.post(`/api/${collection}`, body), 404);
        expect(await count(t(), 'person')).to.equal(5);
        expect(await count(t(), 'article')).to.equal(5);
        expect(await count(t(), 'article_tag')).to.equal(4);
        expect((await rows(t(), 'article', { id: 1 }))[0]!.author_id).to.equal(1);
      });
    }
  });
});
