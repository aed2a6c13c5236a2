import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectError, getOk } from './helpers.js';

interface Resource {
  type: string;
  id: string;
  attributes?: Record<string, unknown>;
  relationships?: Record<string, { data?: unknown }>;
}

const key = (r: Resource) => `${r.type}:${r.id}`;
/** The shape of a resource object: which attributes and relationships it shows. */
const shape = (r: Resource) => ({
  attributes: Object.keys(r.attributes ?? {}),
  relationships: Object.keys(r.relationships ?? {}),
});

interface FieldsCase {
  readonly name: string;
  readonly path: string;
  readonly attributes: readonly string[];
  readonly relationships: readonly string[];
}

const PERSON_ATTRIBUTES = ['name', 'age', 'other', 'birthday', 'birth_datetime', 'bedtime', 'is_minor'];

const FIELDS_CASES: FieldsCase[] = [
  {
    name: 'fields[person] with an attribute and a relationship',
    path: '/api/person/1?fields[person]=name,articles',
    attributes: ['name'],
    relationships: ['articles'],
  },
  { name: 'only with one attribute', path: '/api/person/1?only=name', attributes: ['name'], relationships: [] },
  {
    name: 'only with a relationship',
    path: '/api/person/1?only=comments',
    attributes: [],
    relationships: ['comments'],
  },
  {
    name: 'a virtual attribute',
    path: '/api/person/1?fields[person]=is_minor,age',
    attributes: ['age', 'is_minor'],
    relationships: [],
  },
  {
    name: 'id and type are accepted and always kept',
    path: '/api/person/1?fields[person]=id,type,name',
    attributes: ['name'],
    relationships: [],
  },
  {
    name: 'an empty fieldset keeps id, type and links only',
    path: '/api/person/1?fields[person]=',
    attributes: [],
    relationships: [],
  },
  {
    name: 'a fieldset of another type changes nothing',
    path: '/api/person/1?fields[article]=title',
    attributes: PERSON_ATTRIBUTES,
    relationships: ['articles', 'comments'],
  },
  {
    name: 'no fieldset shows everything',
    path: '/api/person/1',
    attributes: PERSON_ATTRIBUTES,
    relationships: ['articles', 'comments'],
  },
  {
    name: 'only on a to-one related resource',
    path: '/api/article/1/author?only=name',
    attributes: ['name'],
    relationships: [],
  },
  {
    name: 'fields on a related item',
    path: '/api/article/1/comments/2?fields[comment]=content',
    attributes: ['content'],
    relationships: [],
  },
  { name: 'only on a collection', path: '/api/person?only=age', attributes: ['age'], relationships: [] },
  {
    name: 'only within what the collection exposes',
    path: '/api/person_private/1?only=name,articles',
    attributes: ['name'],
    relationships: ['articles'],
  },
];

const BAD: [string, string, string][] = [
  ['an unknown field in fields', 'fields[person]=name,nope', 'fields[person]'],
  ['an unknown field in only', 'only=nope', 'only'],
  ['an unknown type in fields', 'fields[nope]=name', 'fields[nope]'],
  ['a field the collection excludes', 'fields[person]=name&fields[person_private]=age', 'fields[person_private]'],
  ['a relationship path in fields', 'fields[person]=articles.title', 'fields[person]'],
  ['a foreign key column, shown as a relationship', 'fields[article]=title,author_id', 'fields[article]'],
  ['another foreign key column', 'fields[comment]=content,article_id', 'fields[comment]'],
  ['only and fields of the same type', 'only=name&fields[person]=age', 'only'],
  ['an unknown relationship in include', 'include=nope', 'include'],
  ['an unknown step of an include path', 'include=articles.nope', 'include'],
  ['an attribute in include', 'include=name', 'include'],
  ['an include deeper than 3 relationships', 'include=articles.comments.author.articles', 'include'],
  ['an empty include path', 'include=articles,', 'include'],
];

describeEachDatabase('Format A: sparse fieldsets and compound documents', (t) => {
  describe('fieldsets', () => {
    for (const c of FIELDS_CASES) {
      it(c.name, async () => {
        const res = await getOk(t(), c.path);
        for (const r of [res.body.data].flat() as Resource[]) {
          expect(shape(r)).to.deep.equal({ attributes: [...c.attributes], relationships: [...c.relationships] });
          expect(r).to.have.property('id').that.is.a('string');
          expect(r).to.have.property('type').that.is.a('string');
          expect(r).to.have.nested.property('links.self');
          if (r.attributes) expect(Object.keys(r.attributes)).to.not.be.empty;
          if (r.relationships) expect(Object.keys(r.relationships)).to.not.be.empty;
        }
      });
    }

    it('keeps linkage in the relationships a fieldset names', async () => {
      const res = await getOk(t(), '/api/person/1?fields[person]=articles');
      expect(res.body.data.relationships.articles.data).to.deep.equal([
        { type: 'article', id: '1' },
        { type: 'article', id: '2' },
      ]);
    });
  });

  for (const [why, query, parameter] of BAD) {
    it(`answers 400 for ${why}`, async () => {
      expectError(await t().http.get(`/api/person?${query}`), 400, parameter);
    });
  }

  describe('include', () => {
    it('includes each related resource once, beside the primary data', async () => {
      const res = await getOk(t(), '/api/article?include=author,comments.author');
      expect(res.body.data.map(key)).to.deep.equal(['article:1', 'article:2', 'article:3', 'article:4', 'article:5']);
      const included: Resource[] = res.body.included;
      expect(included.map(key).sort()).to.deep.equal([
        'comment:1',
        'comment:2',
        'comment:3',
        'person:1',
        'person:2',
        'person:3',
        'person:4',
      ]);
      const bob = included.find((r) => key(r) === 'person:2')!;
      expect(bob.attributes).to.include({ name: 'bob', age: 17 });
      expect(bob.relationships!.articles!.data).to.deep.equal([{ type: 'article', id: '3' }]);
      const great = included.find((r) => key(r) === 'comment:1')!;
      expect(great.relationships!.author!.data).to.deep.equal({ type: 'person', id: '2' });
      expect(res.body.data[3].relationships.author.data).to.equal(null);
    });

    it('never repeats primary data in included', async () => {
      const res = await getOk(t(), '/api/person?include=articles.author');
      expect(res.body.included.map(key).sort()).to.deep.equal(['article:1', 'article:2', 'article:3', 'article:5']);
      const one = await getOk(t(), '/api/person/1?include=articles.author,comments.article.author');
      expect(one.body.included.map(key).sort()).to.deep.equal([
        'article:1',
        'article:2',
        'article:3',
        'comment:3',
        'person:2',
      ]);
    });

    it('follows many-to-many relationships both ways', async () => {
      const res = await getOk(t(), '/api/article/1?include=tags.articles');
      expect(res.body.included.map(key).sort()).to.deep.equal(['article:3', 'tag:1', 'tag:2']);
    });

    it('accepts a path of exactly 3 relationships', async () => {
      const res = await getOk(t(), '/api/comment/1?include=article.author.articles');
      expect(res.body.included.map(key).sort()).to.deep.equal(['article:1', 'article:2', 'person:1']);
    });

    it('gives an empty included list when nothing is related', async () => {
      const res = await getOk(t(), '/api/article/4?include=author,comments,tags');
      expect(res.body.included).to.deep.equal([]);
      expect(res.body.data.relationships.author.data).to.equal(null);
      expect(res.body.data.relationships.tags.data).to.deep.equal([]);
    });

    it('has no included member without include', async () => {
      const res = await getOk(t(), '/api/article/1');
      expect(res.body).to.not.have.property('included');
    });

    it('applies fields[...] to included resources', async () => {
      const res = await getOk(
        t(),
        '/api/article?include=author,comments&fields[person]=name&fields[comment]=content,author&fields[article]=title,author',
      );
      for (const r of res.body.data as Resource[])
        expect(shape(r)).to.deep.equal({ attributes: ['title'], relationships: ['author'] });
      for (const r of res.body.included as Resource[]) {
        if (r.type === 'person') expect(shape(r)).to.deep.equal({ attributes: ['name'], relationships: [] });
        else expect(shape(r)).to.deep.equal({ attributes: ['content'], relationships: ['author'] });
      }
      expect((res.body.included as Resource[]).map(key).sort()).to.deep.equal([
        'comment:1',
        'comment:2',
        'comment:3',
        'person:1',
        'person:2',
        'person:4',
      ]);
    });

    it('includes from a related collection and a related resource', async () => {
      const many = await getOk(t(), '/api/person/1/articles?include=tags');
      expect(many.body.included.map(key).sort()).to.deep.equal(['tag:1', 'tag:2']);
      const one = await getOk(t(), '/api/article/1/author?include=articles');
      expect(one.body.data.id).to.equal('1');
      expect(one.body.included.map(key).sort()).to.deep.equal(['article:1', 'article:2']);
    });

    it('shows included people as the first collection of their model', async () => {
      const res = await getOk(t(), '/api/person_private/2?include=articles.author');
      expect(res.body.data.type).to.equal('person_private');
      expect(res.body.included.map(key)).to.deep.equal(['article:3', 'person:2']);
      expect(res.body.included[1].attributes).to.have.property('age', 17);
    });

    it('counts include depth per path', async () => {
      expectError(await t().http.get('/api/comment?include=article.author.articles.tags'), 400, 'include');
      expectError(await t().http.get('/api/tag/1/articles?include=comments.author.comments.article'), 400, 'include');
    });
  });
});
