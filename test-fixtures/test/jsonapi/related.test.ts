import { describeEachDatabase, filterParam } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectError, getOk, ids } from './helpers.js';

interface RelatedCase {
  readonly name: string;
  readonly path: string;
  readonly expected: readonly string[];
  readonly total: number;
}

const RELATED_COLLECTIONS: RelatedCase[] = [
  { name: 'to-many', path: '/api/person/1/articles', expected: ['1', '2'], total: 2 },
  {
    name: 'to-many with a filter',
    path: `/api/person/1/articles?${filterParam([{ name: 'title', op: 'like', val: 'h%' }])}`,
    expected: ['2'],
    total: 1,
  },
  { name: 'to-many with a sort', path: '/api/person/1/articles?sort=-id', expected: ['2', '1'], total: 2 },
  {
    name: 'to-many with a page',
    path: '/api/person/1/articles?page[size]=1&page[number]=2',
    expected: ['2'],
    total: 2,
  },
  { name: 'to-many with no members', path: '/api/person/3/articles', expected: [], total: 0 },
  { name: 'another to-many', path: '/api/article/1/comments', expected: ['1', '2'], total: 2 },
  { name: 'many-to-many', path: '/api/article/1/tags', expected: ['1', '2'], total: 2 },
  { name: 'many-to-many the other way', path: '/api/tag/2/articles', expected: ['1', '3'], total: 2 },
  {
    name: 'many-to-many with a relation filter',
    path: `/api/tag/2/articles?${filterParam([{ name: 'author', op: 'has', val: { name: 'name', op: '==', val: 'bob' } }])}`,
    expected: ['3'],
    total: 1,
  },
  {
    name: 'of a collection with excluded fields',
    path: '/api/person_private/1/articles',
    expected: ['1', '2'],
    total: 2,
  },
];

const NOT_FOUND: [string, string][] = [
  ['an unknown collection', '/api/nope'],
  ['an unknown collection with an id', '/api/nope/1'],
  ['an unknown id', '/api/person/99'],
  ['a non-numeric id', '/api/person/abc'],
  ['an id with a fraction', '/api/person/1.5'],
  ['an id with a leading zero', '/api/person/01'],
  ['an id with a plus sign', '/api/person/+1'],
  ['an id with a minus zero', '/api/person/-0'],
  ['an id with an exponent', '/api/person/1e0'],
  ['a related item id with a leading zero', '/api/article/1/comments/02'],
  ['an id beyond the safe integers', '/api/person/99999999999999999999'],
  ['a related collection of an unknown id', '/api/person/99/articles'],
  ['a related resource of an unknown id', '/api/article/99/author'],
  ['an unknown relationship', '/api/person/1/nope'],
  ['a relationship the collection excludes', '/api/person_private/1/comments'],
  ['a relationship of a collection that shows none', '/api/person_names/1/articles'],
  ['linkage of an unknown relationship', '/api/person/1/relationships/nope'],
  ['linkage of an unknown id', '/api/person/99/relationships/articles'],
  ['a related item that is not related', '/api/article/1/comments/3'],
  ['a related item that does not exist', '/api/article/1/comments/99'],
  ['a related item with a non-numeric id', '/api/article/1/comments/x'],
  ['a trailing slash on a collection', '/api/person/'],
  ['a trailing slash on a resource', '/api/person/1/'],
  ['a trailing slash on a related collection', '/api/person/1/articles/'],
  ['the prefix with a slash', '/api/'],
  ['too many path segments', '/api/article/1/comments/2/author'],
  ['function evaluation of a collection without functions', '/api/eval/comment'],
];

describeEachDatabase('Format A: resources, related resources and relationships', (t) => {
  const origin = () => t().target.origin;

  describe('related collections', () => {
    for (const c of RELATED_COLLECTIONS) {
      it(c.name, async () => {
        const res = await getOk(t(), c.path);
        expect(ids(res)).to.deep.equal(c.expected);
        expect(res.body.meta.total).to.equal(c.total);
        expect(res.body.links.self).to.equal(`${origin()}${c.path}`);
        expect(res.body.links).to.have.keys(['self', 'first', 'last', 'prev', 'next']);
      });
    }

    it('shows related resources as their own type with their own links', async () => {
      const res = await getOk(t(), '/api/person_private/1/articles');
      expect(res.body.data[0].type).to.equal('article');
      expect(res.body.data[0].links.self).to.equal(`${origin()}/api/article/1`);
    });
  });

  describe('to-one related resources', () => {
    it('answers the related resource', async () => {
      const res = await getOk(t(), '/api/article/1/author');
      expect(res.body.data).to.include({ type: 'person', id: '1' });
      expect(res.body.data.attributes.name).to.equal('Alice');
      expect(res.body.links.self).to.equal(`${origin()}/api/article/1/author`);
    });

    it('answers data null when there is none', async () => {
      const res = await getOk(t(), '/api/article/4/author');
      expect(res.body.data).to.equal(null);
      expect(res.body.links.self).to.equal(`${origin()}/api/article/4/author`);
    });

    it('follows a to-one relationship of a comment', async () => {
      const res = await getOk(t(), '/api/comment/3/article');
      expect(res.body.data).to.include({ type: 'article', id: '3' });
    });

    it('refuses collection parameters on a to-one related resource', async () => {
      expectError(await t().http.get('/api/article/1/author?sort=name'), 400, 'sort');
    });
  });

  describe('related items', () => {
    it('answers one related resource', async () => {
      const res = await getOk(t(), '/api/article/1/comments/2');
      expect(res.body.data).to.include({ type: 'comment', id: '2' });
      expect(res.body.data.attributes).to.deep.equal({ content: 'meh' });
      expect(res.body.data.links.self).to.equal(`${origin()}/api/comment/2`);
    });

    it('answers one resource of a many-to-many relationship', async () => {
      const res = await getOk(t(), '/api/tag/2/articles/3');
      expect(res.body.data).to.include({ type: 'article', id: '3' });
    });

    // Flask-Restless 1.0: a to-one relationship has no member ids, even the id of its one related resource.
    for (const path of ['/api/article/1/author/1', '/api/article/1/author/2', '/api/comment/1/article/1']) {
      it(`answers 404 for an id under a to-one relationship, saying why (${path})`, async () => {
        const error = expectError(await t().http.get(path), 404);
        const related = path.replace(/\/\d+$/, '');
        expect(error.detail).to.contain('to-one').and.contain('no member ids').and.contain(`${origin()}${related}`);
      });
    }
  });

  describe('relationship linkage', () => {
    it('answers to-many linkage', async () => {
      const res = await getOk(t(), '/api/article/1/relationships/tags');
      expect(res.body.data).to.deep.equal([
        { type: 'tag', id: '1' },
        { type: 'tag', id: '2' },
      ]);
      expect(res.body.links).to.deep.equal({
        self: `${origin()}/api/article/1/relationships/tags`,
        related: `${origin()}/api/article/1/tags`,
      });
    });

    it('answers empty to-many linkage', async () => {
      expect((await getOk(t(), '/api/person/3/relationships/articles')).body.data).to.deep.equal([]);
    });

    it('answers to-one linkage', async () => {
      const res = await getOk(t(), '/api/article/1/relationships/author');
      expect(res.body.data).to.deep.equal({ type: 'person', id: '1' });
      expect(res.body.links.related).to.equal(`${origin()}/api/article/1/author`);
    });

    it('answers null to-one linkage', async () => {
      expect((await getOk(t(), '/api/article/4/relationships/author')).body.data).to.equal(null);
    });

    it('types linkage by the first collection of the model', async () => {
      const res = await getOk(t(), '/api/comment/1/relationships/author');
      expect(res.body.data).to.deep.equal({ type: 'person', id: '2' });
      const privateOne = await getOk(t(), '/api/person_private/1/relationships/articles');
      expect(privateOne.body.data).to.deep.equal([
        { type: 'article', id: '1' },
        { type: 'article', id: '2' },
      ]);
      expect(privateOne.body.links.self).to.equal(`${origin()}/api/person_private/1/relationships/articles`);
    });
  });

  describe('errors', () => {
    for (const [why, path] of NOT_FOUND) {
      it(`answers 404 for ${why}`, async () => {
        expectError(await t().http.get(path), 404);
      });
    }

    it('answers 405 with Allow for DELETE on /api/comment/1', async () => {
      const res = await t().http.delete('/api/comment/1');
      expectError(res, 405);
      expect(res.headers.get('allow')).to.equal('GET');
    });

    it('answers 405 with Allow for POST on /api/network', async () => {
      const res = await t().http.post('/api/network', {
        data: { type: 'network', attributes: { address: '10.0.0.1' } },
      });
      expectError(res, 405);
      expect(res.headers.get('allow')).to.equal('GET');
    });

    it('answers 405 with Allow for PATCH on a related collection', async () => {
      const res = await t().http.patch('/api/person/1/articles', { data: [] });
      expectError(res, 405);
      expect(res.headers.get('allow')).to.equal('GET');
    });
  });

  describe('collections with only and exclude', () => {
    it('person_names shows the name only', async () => {
      const res = await getOk(t(), '/api/person_names/2');
      expect(res.body.data).to.deep.equal({
        type: 'person_names',
        id: '2',
        attributes: { name: 'bob' },
        links: { self: `${origin()}/api/person_names/2` },
      });
      const list = await getOk(t(), '/api/person_names');
      for (const r of list.body.data)
        expect(Object.keys(r).sort()).to.deep.equal(['attributes', 'id', 'links', 'type']);
    });

    it('person_private shows every field but age, other and comments', async () => {
      const res = await getOk(t(), '/api/person_private/1');
      expect(res.body.data.type).to.equal('person_private');
      expect(res.body.data.attributes).to.deep.equal({
        name: 'Alice',
        birthday: '1999-01-15',
        birth_datetime: '1999-01-15T08:30:00',
        bedtime: '22:30:00',
      });
      expect(Object.keys(res.body.data.relationships)).to.deep.equal(['articles']);
      expect(res.body.data.relationships.articles.links.related).to.equal(`${origin()}/api/person_private/1/articles`);
    });

    it('refuses filters and sorts on what a collection hides', async () => {
      expectError(
        await t().http.get(`/api/person_names?${filterParam([{ name: 'age', op: '==', val: 17 }])}`),
        400,
        'filter[objects]',
      );
      expectError(await t().http.get('/api/person_private?sort=other'), 400, 'sort');
      expectError(await t().http.get('/api/person_private?include=comments'), 400, 'include');
    });

    it('links other resources to person, not person_names', async () => {
      const res = await getOk(t(), '/api/article/3');
      expect(res.body.data.relationships.author.data).to.deep.equal({ type: 'person', id: '2' });
      expect(res.body.data.relationships.author.links.related).to.equal(`${origin()}/api/article/3/author`);
    });
  });
});
