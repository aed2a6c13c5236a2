import { describeEachDatabase, type TestTarget } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { count, expectMessage, expectStatus, getOk, rows, snapshot, tagIds } from './helpers.js';

/** The ids of a nested to-many relation of an object. */
const idsOf = (list: { id: number }[]) => list.map((o) => o.id);

/** One row of the relationship table of the specification, with what it must leave behind. */
interface RelationCase {
  readonly name: string;
  readonly path: string;
  readonly body: unknown;
  /** Checks the response object and the database. */
  readonly check: (body: Record<string, unknown>, t: TestTarget) => Promise<unknown>;
}

const RELATION_CASES: RelationCase[] = [
  {
    name: 'add existing instances to a to-many relation',
    path: '/api/person/2',
    body: { articles: { add: [{ id: 4 }, { id: 5 }] } },
    check: async (body) => expect(idsOf(body.articles as never)).to.deep.equal([3, 4, 5]),
  },
  {
    name: 'add new instances to a to-many relation',
    path: '/api/person/2',
    body: { articles: { add: [{ title: 'Fresh' }] } },
    check: async (body, t) => {
      expect(body.articles).to.deep.equal([
        { id: 3, title: 'Databases 101', publishtime: '2021-05-05T09:30:00', author_id: 2 },
        { id: 6, title: 'Fresh', publishtime: null, author_id: 2 },
      ]);
      expect(await count(t, 'article')).to.equal(6);
    },
  },
  {
    name: 'add existing and new instances to a many-to-many relation',
    path: '/api/article/3',
    body: { tags: { add: [{ id: 1 }, { name: 'fresh' }] } },
    check: async (body, t) => {
      expect(idsOf(body.tags as never)).to.deep.equal([1, 2, 4]);
      expect(await tagIds(t, 3)).to.deep.equal([1, 2, 4]);
    },
  },
  {
    name: 'adding an instance already related changes nothing',
    path: '/api/article/1',
    body: { tags: { add: [{ id: 1 }] } },
    check: async (_body, t) => expect(await tagIds(t, 1)).to.deep.equal([1, 2]),
  },
  {
    name: 'add an existing instance to a to-one relation',
    path: '/api/article/4',
    body: { author: { add: { id: 3 } } },
    check: async (body) =>
      expect(body).to.include({ author_id: 3 }).and.to.have.nested.property('author.name', 'Carol'),
  },
  {
    name: 'add a new instance to a to-one relation',
    path: '/api/article/4',
    body: { author: { add: { name: 'Zed', age: 50 } } },
    check: async (body) => expect(body.author).to.include({ id: 6, name: 'Zed', age: 50 }),
  },
  {
    name: 'set a to-one relation with an object',
    path: '/api/article/4',
    body: { author: { id: 5 } },
    check: async (body) => expect(body).to.include({ author_id: 5 }).and.to.have.nested.property('author.name', 'Eve'),
  },
  {
    name: 'unset a to-one relation with null',
    path: '/api/article/1',
    body: { author: null },
    check: async (body) => expect(body).to.include({ author_id: null, author: null }),
  },
  {
    name: 'remove from a to-one relation',
    path: '/api/article/1',
    body: { author: { remove: { id: 1 } } },
    check: async (body, t) => {
      expect(body).to.include({ author_id: null, author: null });
      expect(await count(t, 'person')).to.equal(5);
    },
  },
  {
    name: 'remove instances from a to-many relation, keeping them',
    path: '/api/person/1',
    body: { articles: { remove: [{ id: 1 }] } },
    check: async (body, t) => {
      expect(idsOf(body.articles as never)).to.deep.equal([2]);
      expect(await rows(t, 'article', { id: 1 })).to.have.nested.property('[0].author_id', null);
    },
  },
  {
    name: 'remove instances from a many-to-many relation, keeping them',
    path: '/api/article/1',
    body: { tags: { remove: [{ id: 1 }] } },
    check: async (body, t) => {
      expect(idsOf(body.tags as never)).to.deep.equal([2]);
      expect(await count(t, 'tag')).to.equal(3);
    },
  },
  {
    name: 'remove and delete instances of a many-to-many relation',
    path: '/api/article/5',
    body: { tags: { remove: [{ id: 3, __delete__: true }] } },
    check: async (body, t) => {
      expect(body.tags).to.deep.equal([]);
      expect(await rows(t, 'tag', { id: 3 })).to.deep.equal([]);
    },
  },
  {
    name: 'remove and delete instances of a to-many relation',
    path: '/api/person/3',
    body: { comments: { remove: [{ id: 2, __delete__: true }] } },
    check: async (body, t) => {
      expect(body.comments).to.deep.equal([]);
      expect(await rows(t, 'comment', { id: 2 })).to.deep.equal([]);
    },
  },
  {
    name: 'replace a many-to-many relation with existing and new instances',
    path: '/api/article/1',
    body: { tags: [{ id: 3 }, { name: 'brand' }] },
    check: async (body, t) => {
      expect(body.tags).to.deep.equal([
        { id: 3, name: 'life' },
        { id: 4, name: 'brand' },
      ]);
      expect(await tagIds(t, 1)).to.deep.equal([3, 4]);
      expect(await count(t, 'tag')).to.equal(4);
    },
  },
  {
    name: 'replace a to-many relation: those left out are unlinked, not deleted',
    path: '/api/person/1',
    body: { articles: [{ id: 2 }, { id: 4 }] },
    check: async (body, t) => {
      expect(idsOf(body.articles as never)).to.deep.equal([2, 4]);
      expect((await rows(t, 'article', { id: 1 }))[0]).to.include({ author_id: null });
    },
  },
  {
    name: 'replace a relation and update fields of its existing instances',
    path: '/api/article/1',
    body: { tags: [{ id: 1, name: 'NEWS' }, { id: 3 }] },
    check: async (body, t) => {
      expect(body.tags).to.deep.equal([
        { id: 1, name: 'NEWS' },
        { id: 3, name: 'life' },
      ]);
      expect((await rows(t, 'tag', { id: 1 }))[0]).to.include({ name: 'NEWS' });
    },
  },
  {
    name: 'an empty list empties a relation',
    path: '/api/article/1',
    body: { tags: [] },
    check: async (body, t) => {
      expect(body.tags).to.deep.equal([]);
      expect(await tagIds(t, 1)).to.deep.equal([]);
    },
  },
];

describeEachDatabase(
  'Format B: updating one instance with PATCH and PUT',
  (t) => {
    beforeEach(() => t().seed());

    for (const method of ['PATCH', 'PUT']) {
      it(`${method} answers 200 with the full updated object`, async () => {
        const res = expectStatus(
          await t().http.request(method, '/api/person/1', { body: { name: 'Alicia', age: 26 } }),
          200,
        );
        expect(res.body).to.include({ id: 1, name: 'Alicia', age: 26, other: 1.5, is_minor: false });
        expect(idsOf(res.body.articles)).to.deep.equal([1, 2]);
        expect((await getOk(t(), '/api/person/1')).body).to.deep.equal(res.body);
      });
    }

    for (const c of RELATION_CASES) {
      it(c.name, async () => {
        const res = expectStatus(await t().http.patch(c.path, c.body), 200, `PATCH ${c.path}`);
        await c.check(res.body, t());
        expect((await getOk(t(), c.path)).body).to.deep.equal(res.body);
      });
    }

    it('sets fields and changes relations in one request', async () => {
      const res = expectStatus(
        await t().http.put('/api/article/4', {
          title: 'Titled',
          publishtime: '2023-03-03T03:03:03',
          author: { id: 5 },
          tags: { add: [{ id: 2 }] },
        }),
        200,
      );
      expect(res.body).to.include({ title: 'Titled', publishtime: '2023-03-03T03:03:03', author_id: 5 });
      expect(idsOf(res.body.tags)).to.deep.equal([2]);
    });

    it('accepts the object it answered, id and nested relations included', async () => {
      const object = (await getOk(t(), '/api/article/3')).body;
      const { author: _author, comments: _comments, ...fields } = object;
      const res = expectStatus(await t().http.patch('/api/article/3', { ...fields, tags: object.tags }), 200);
      expect(res.body).to.deep.equal(object);
    });

    it('an empty body changes nothing and answers the object', async () => {
      const before = await snapshot(t());
      expect(expectStatus(await t().http.patch('/api/tag/1', {}), 200).body).to.deep.equal({
        id: 1,
        name: 'news',
        articles: [{ id: 1, title: 'Hello World', publishtime: '2020-01-01T10:00:00', author_id: 1 }],
      });
      expect(await snapshot(t())).to.equal(before);
    });

    const REFUSED: [string, string, string, unknown, number, RegExp][] = [
      [
        'a field that does not exist',
        'PATCH',
        '/api/person/1',
        { name: 'x', height: 2 },
        400,
        /"height" is not a field of person/,
      ],
      ['a computed attribute', 'PUT', '/api/person/1', { is_minor: true }, 400, /computed/],
      ['an excluded field', 'PATCH', '/api/person_private/1', { age: 3 }, 400, /"age"/],
      ['another id', 'PATCH', '/api/person/1', { id: 2, name: 'x' }, 400, /cannot be changed/],
      [
        'add and remove at once',
        'PATCH',
        '/api/article/1',
        { tags: { add: [{ id: 3 }], remove: [{ id: 1 }] } },
        400,
        /exactly one member/,
      ],
      [
        'an element to remove without id',
        'PATCH',
        '/api/article/1',
        { tags: { remove: [{ name: 'news' }] } },
        400,
        /needs the id/,
      ],
      [
        '__delete__ that is not a boolean',
        'PATCH',
        '/api/article/1',
        { tags: { remove: [{ id: 1, __delete__: 'yes' }] } },
        400,
        /__delete__ must be true or false/,
      ],
      [
        '__delete__ on a to-one relation',
        'PATCH',
        '/api/article/1',
        { author: { remove: { id: 1, __delete__: true } } },
        400,
        /to-many/,
      ],
      [
        'a nested field of the wrong type',
        'PATCH',
        '/api/article/1',
        { title: 'x', tags: [{ id: 1, name: 5.5 }, { id: 'two' }] },
        400,
        /not an integer/,
      ],
      [
        'a related instance that does not exist',
        'PATCH',
        '/api/person/1',
        { name: 'x', articles: { add: [{ id: 99 }] } },
        404,
        /article 99 does not exist/,
      ],
      ['an instance that does not exist', 'PATCH', '/api/person/99', { name: 'x' }, 404, /person 99 does not exist/],
      [
        'PUT where the collection does not enable it',
        'PUT',
        '/api/person_private/1',
        { name: 'x' },
        405,
        /not allowed/,
      ],
    ];
    for (const [name, method, path, body, status, message] of REFUSED) {
      it(`refuses ${name} (${status}) and changes nothing`, async () => {
        const before = await snapshot(t());
        expectMessage(await t().http.request(method, path, { body }), status, message);
        expect(await snapshot(t())).to.equal(before);
      });
    }
  },
  { format: 'legacy' },
);
