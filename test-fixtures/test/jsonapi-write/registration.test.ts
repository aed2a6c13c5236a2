import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { census, expectError, expectStatus, ref, refs, resource, rows } from './helpers.js';

/** The registration options of conformance/SCHEMA.md, on every dialect. */
describeEachDatabase('Format A: registration options', (t) => {
  beforeEach(() => t().seed());

  describe('methods: a method the collection does not enable is 405 with Allow, and changes nothing', () => {
    const CASES: [string, string, unknown, string][] = [
      ['POST', '/api/comment', resource('comment', { content: 'x' }), 'GET'],
      ['PATCH', '/api/comment/1', resource('comment', { content: 'x' }, undefined, '1'), 'GET'],
      ['DELETE', '/api/comment/1', undefined, 'GET'],
      ['POST', '/api/network', resource('network', { address: '10.0.0.1' }), 'GET'],
      ['DELETE', '/api/network/1', undefined, 'GET'],
      ['POST', '/api/person_names', resource('person_names', { name: 'x' }), 'GET'],
      ['PATCH', '/api/person_names/1', resource('person_names', { name: 'x' }, undefined, '1'), 'GET'],
      ['DELETE', '/api/person_names/1', undefined, 'GET'],
      ['DELETE', '/api/person_private/1', undefined, 'GET, PATCH'],
      ['DELETE', '/api/person_private/1/relationships/articles', { data: refs('article', 1) }, 'GET, PATCH, POST'],
      ['PATCH', '/api/comment/1/relationships/article', { data: null }, 'GET'],
      ['PUT', '/api/person/1', resource('person', { name: 'x' }, undefined, '1'), 'GET, PATCH, DELETE'],
      ['PUT', '/api/person', resource('person', { name: 'x' }), 'GET, POST'],
      ['DELETE', '/api/person', undefined, 'GET, POST'],
      ['POST', '/api/person/1/articles', { data: refs('article', 4) }, 'GET'],
    ];
    for (const [method, path, body, allow] of CASES) {
      it(`${method} ${path}: Allow ${allow}`, async () => {
        const before = await census(t());
        const res = await t().http.request(method, path, body === undefined ? {} : { body });
        expectError(res, 405);
        expect(res.headers.get('allow')).to.equal(allow);
        expect(await census(t())).to.deep.equal(before);
        expect((await rows(t(), 'person', { id: 1 }))[0]!.name).to.equal('Alice');
      });
    }
  });

  describe('only (person_names) and exclude (person_private) show exactly their fields', () => {
    it('person_names shows the name and nothing else', async () => {
      const res = expectStatus(await t().http.get('/api/person_names/1'), 200);
      expect(res.body.data).to.deep.equal({
        type: 'person_names',
        id: '1',
        attributes: { name: 'Alice' },
        links: { self: `${t().target.origin}/api/person_names/1` },
      });
      const list = expectStatus(await t().http.get('/api/person_names'), 200);
      for (const r of list.body.data) expect(Object.keys(r.attributes)).to.deep.equal(['name']);
    });

    it('person_private shows all but age, other and comments', async () => {
      const res = expectStatus(await t().http.get('/api/person_private/1'), 200);
      expect(res.body.data.type).to.equal('person_private');
      expect(res.body.data.attributes).to.deep.equal({
        name: 'Alice',
        birthday: '1999-01-15',
        birth_datetime: '1999-01-15T08:30:00',
        bedtime: '22:30:00',
      });
      expect(Object.keys(res.body.data.relationships)).to.deep.equal(['articles']);
    });

    it('person_private creates and updates through its own fields', async () => {
      const created = expectStatus(
        await t().http.post('/api/person_private', resource('person_private', { name: 'Priv', bedtime: '21:00:00' })),
        201,
      );
      expect(created.body.data.type).to.equal('person_private');
      expect(created.headers.get('location')).to.equal(
        `${t().target.origin}/api/person_private/${created.body.data.id}`,
      );
      expect(created.body.data.attributes).to.deep.equal({
        name: 'Priv',
        birthday: null,
        birth_datetime: null,
        bedtime: '21:00:00',
      });
      const updated = expectStatus(
        await t().http.patch('/api/person_private/1', resource('person_private', { name: 'Al' }, undefined, '1')),
        200,
      );
      expect(updated.body.data.attributes.name).to.equal('Al');
      expect((await rows(t(), 'person', { id: 1 }))[0]).to.include({ name: 'Al', age: 25, other: 1.5 });
    });

    const EXCLUDED: [string, string, unknown, string][] = [
      ['POST', '/api/person_private', resource('person_private', { name: 'x', age: 30 }), '/data/attributes/age'],
      [
        'PATCH',
        '/api/person_private/1',
        resource('person_private', { other: 2 }, undefined, '1'),
        '/data/attributes/other',
      ],
      [
        'PATCH',
        '/api/person_private/1',
        resource('person_private', {}, { comments: refs('comment', 4) }, '1'),
        '/data/relationships/comments',
      ],
      ['POST', '/api/person_private', resource('person_private', { is_minor: true }), '/data/attributes/is_minor'],
    ];
    for (const [method, path, body, pointer] of EXCLUDED) {
      it(`${method} ${path} writing an excluded field: 400 pointing at ${pointer}`, async () => {
        const before = await census(t());
        expectError(await t().http.request(method, path, { body }), 400, { pointer });
        expect(await census(t())).to.deep.equal(before);
        expect((await rows(t(), 'person', { id: 1 }))[0]).to.include({ age: 25, other: 1.5 });
      });
    }
  });

  describe('additional_attributes: person.is_minor', () => {
    it('is computed for every person (age <= 18, null is not a minor)', async () => {
      const res = expectStatus(await t().http.get('/api/person'), 200);
      const minors = Object.fromEntries(
        res.body.data.map((r: { id: string; attributes: { is_minor: boolean } }) => [r.id, r.attributes.is_minor]),
      );
      expect(minors).to.deep.equal({ 1: false, 2: true, 3: false, 4: false, 5: true });
    });

    it('follows writes, in the write response itself', async () => {
      const created = expectStatus(await t().http.post('/api/person', resource('person', { age: 10 })), 201);
      expect(created.body.data.attributes.is_minor).to.equal(true);
      const updated = expectStatus(
        await t().http.patch('/api/person/2', resource('person', { age: 30 }, undefined, '2')),
        200,
      );
      expect(updated.body.data.attributes.is_minor).to.equal(false);
    });

    it('cannot be written', async () => {
      expectError(await t().http.patch('/api/person/1', resource('person', { is_minor: true }, undefined, '1')), 400, {
        pointer: '/data/attributes/is_minor',
      });
    });
  });

  describe('several collections over one model: linkage names the first registered', () => {
    it('relationships of person_private link to article, and article.author to person', async () => {
      const priv = expectStatus(await t().http.get('/api/person_private/1'), 200);
      expect(priv.body.data.relationships.articles.data).to.deep.equal(refs('article', 1, 2));
      expect(priv.body.data.relationships.articles.links.self).to.equal(
        `${t().target.origin}/api/person_private/1/relationships/articles`,
      );
      const article = expectStatus(await t().http.get('/api/article/1'), 200);
      expect(article.body.data.relationships.author.data).to.deep.equal(ref('person', 1));
      const comment = expectStatus(await t().http.get('/api/comment/1'), 200);
      expect(comment.body.data.relationships.author.data).to.deep.equal(ref('person', 2));
    });

    it('related resources are shown as the first collection', async () => {
      const author = expectStatus(await t().http.get('/api/article/1/author'), 200);
      expect(author.body.data.type).to.equal('person');
      expect(author.body.data.attributes).to.have.property('age');
    });

    it('linkage written names the first collection; another type is 409', async () => {
      expectStatus(await t().http.patch('/api/article/4/relationships/author', { data: ref('person', 3) }), 204);
      expectError(
        await t().http.patch('/api/article/4/relationships/author', { data: ref('person_private', 3) }),
        409,
        { pointer: '/data/type' },
      );
      expect((await rows(t(), 'article', { id: 4 }))[0]!.author_id).to.equal(3);
    });

    it('a write through one collection shows through the others', async () => {
      expectStatus(
        await t().http.patch(
          '/api/person_private/3',
          resource('person_private', {}, { articles: refs('article', 4) }, '3'),
        ),
        200,
      );
      const names = expectStatus(await t().http.get('/api/person/3'), 200);
      expect(names.body.data.relationships.articles.data).to.deep.equal(refs('article', 4));
    });
  });
});
