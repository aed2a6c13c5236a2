import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { census, expectError, expectStatus, ref, refs, resource, rows, tagsOf } from './helpers.js';

describeEachDatabase('Format A: PATCH updates a resource', (t) => {
  beforeEach(() => t().seed());

  const authorOf = async (article: number) => (await rows(t(), 'article', { id: article }))[0]!.author_id;

  it('answers 200 with the full document: every attribute and relationship, changed or not', async () => {
    const res = expectStatus(
      await t().http.patch('/api/person/1', resource('person', { name: 'Alicia', age: 26 }, undefined, '1')),
      200,
    );
    expect(res.headers.get('content-type')).to.match(/^application\/vnd\.api\+json/);
    const data = res.body.data;
    expect(data).to.include({ type: 'person', id: '1' });
    expect(data.attributes).to.deep.equal({
      name: 'Alicia',
      age: 26,
      other: 1.5,
      birthday: '1999-01-15',
      birth_datetime: '1999-01-15T08:30:00',
      bedtime: '22:30:00',
      is_minor: false,
    });
    expect(data.relationships.articles.data).to.deep.equal(refs('article', 1, 2));
    expect(data.relationships.comments.data).to.deep.equal(refs('comment', 3));
    expect(data.links.self).to.equal(`${t().target.origin}/api/person/1`);
    expect(res.body.links.self).to.equal(`${t().target.origin}/api/person/1`);
    const fetched = expectStatus(await t().http.get('/api/person/1'), 200);
    expect(fetched.body.data.attributes).to.deep.equal(data.attributes);
  });

  it('changes attributes and relationships of every kind in one request', async () => {
    const body = resource('article', { title: 'Renamed' }, { author: ref('person', 2), tags: refs('tag', 3) }, '1');
    const res = expectStatus(await t().http.patch('/api/article/1', body), 200);
    expect(res.body.data.attributes.title).to.equal('Renamed');
    expect(res.body.data.relationships.author.data).to.deep.equal(ref('person', 2));
    expect(res.body.data.relationships.tags.data).to.deep.equal(refs('tag', 3));
    expect(await authorOf(1)).to.equal(2);
    expect(await tagsOf(t(), 1)).to.deep.equal([3]);
  });

  it('replaces a to-many relationship kept by the foreign key of the others (person.articles)', async () => {
    const res = expectStatus(
      await t().http.patch('/api/person/1', resource('person', undefined, { articles: refs('article', 2, 4) }, '1')),
      200,
    );
    expect(res.body.data.relationships.articles.data).to.deep.equal(refs('article', 2, 4));
    expect(await authorOf(1)).to.equal(null);
    expect(await authorOf(4)).to.equal(1);
  });

  it('clears a to-one relationship with null and a to-many one with []', async () => {
    const res = expectStatus(
      await t().http.patch('/api/article/1', resource('article', undefined, { author: null, tags: [] }, '1')),
      200,
    );
    expect(res.body.data.relationships.author.data).to.equal(null);
    expect(res.body.data.relationships.tags.data).to.deep.equal([]);
    expect(await tagsOf(t(), 1)).to.deep.equal([]);
    expect((await rows(t(), 'tag')).length, 'the tags themselves stay').to.equal(3);
  });

  it('keeps what the document leaves out, and sets null where asked', async () => {
    expectStatus(await t().http.patch('/api/person/1', resource('person', { other: null }, undefined, '1')), 200);
    const [row] = await rows(t(), 'person', { id: 1 });
    expect(row).to.include({ name: 'Alice', age: 25, other: null });
  });

  it('accepts a document with nothing to change', async () => {
    const res = expectStatus(await t().http.patch('/api/tag/2', { data: { type: 'tag', id: '2' } }), 200);
    expect(res.body.data.attributes).to.deep.equal({ name: 'tech' });
  });

  const REFUSED: [string, string, unknown, number, string?][] = [
    ['a missing id', '/api/person/99', resource('person', { name: 'X' }, undefined, '99'), 404],
    ['an id that cannot be a key', '/api/person/abc', resource('person', { name: 'X' }, undefined, 'abc'), 404],
    ["an id other than the URL's", '/api/person/1', resource('person', { name: 'X' }, undefined, '2'), 409, '/data/id'],
    [
      'a type other than the collection',
      '/api/person/1',
      resource('article', { title: 'X' }, undefined, '1'),
      409,
      '/data/type',
    ],
    ['no id', '/api/person/1', resource('person', { name: 'X' }), 400, '/data/id'],
    [
      'an id that is not a string',
      '/api/person/1',
      { data: { type: 'person', id: 1, attributes: { name: 'X' } } },
      400,
      '/data/id',
    ],
    ['no type', '/api/person/1', { data: { id: '1', attributes: { name: 'X' } } }, 400, '/data/type'],
    [
      'an unknown attribute',
      '/api/person/1',
      resource('person', { shoe_size: 44 }, undefined, '1'),
      400,
      '/data/attributes/shoe_size',
    ],
    [
      'the key as an attribute',
      '/api/person/1',
      resource('person', { id: 7 }, undefined, '1'),
      400,
      '/data/attributes/id',
    ],
    [
      'null where the column takes none',
      '/api/tag/1',
      resource('tag', { name: null }, undefined, '1'),
      400,
      '/data/attributes/name',
    ],
    [
      'a foreign key as an attribute',
      '/api/article/1',
      resource('article', { author_id: 2 }, undefined, '1'),
      400,
      '/data/attributes/author_id',
    ],
    [
      'a missing related resource',
      '/api/article/1',
      resource('article', { title: 'X' }, { author: ref('person', 99) }, '1'),
      404,
    ],
  ];
  for (const [name, path, body, status, pointer] of REFUSED) {
    it(`${name}: ${status}${pointer ? ` pointing at ${pointer}` : ''}, nothing changed`, async () => {
      const before = await census(t());
      const [alice] = await rows(t(), 'person', { id: 1 });
      expectError(await t().http.patch(path, body), status, pointer ? { pointer } : undefined);
      expect(await census(t())).to.deep.equal(before);
      expect((await rows(t(), 'person', { id: 1 }))[0]).to.deep.equal(alice);
      expect((await rows(t(), 'article', { id: 1 }))[0]).to.include({ title: 'Hello World', author_id: 1 });
      expect((await rows(t(), 'tag', { id: 1 }))[0]).to.include({ name: 'news' });
    });
  }
});
