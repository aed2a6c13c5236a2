import { expect } from 'chai';
import type { Operation } from '@colapi/query-ast';
import { jsonApiFormat } from '../src/index.js';
import { collection, ctx, expectError, request } from './fixtures.js';

const format = jsonApiFormat();
const person = collection('person');
const article = collection('article');
const tag = collection('tag');

const TYPE = { 'content-type': 'application/vnd.api+json' };
const SINGLE_QUERY = { sort: [], group: [], paging: { offset: 0 }, fields: {}, include: [], single: false };

function decode(method: string, target: string, body?: unknown): Operation {
  const req = request(method, target, body === undefined ? { headers: TYPE } : { headers: TYPE, body });
  return format.decode(req, collection(req.route.collection), ctx);
}

const create = (name: string, data: unknown) => decode('POST', `/api/${name}`, { data });
const update = (name: string, id: string, data: unknown) => decode('PATCH', `/api/${name}/${id}`, { data });

describe('Format A decode: writes', () => {
  describe('POST of a resource', () => {
    it('checks and coerces the attributes', () => {
      const op = create('person', { type: 'person', attributes: { name: 'Ann', age: '30', born: '1990-01-02' } });
      expect(op).to.deep.equal({
        kind: 'create',
        collection: person,
        write: { values: { name: 'Ann', age: 30, born: '1990-01-02' }, relationships: {} },
        query: SINGLE_QUERY,
      });
    });

    it("counts a text in characters (code points), not UTF-16 units, against the column's length", () => {
      for (const name of ['x'.repeat(10), '😀'.repeat(10), `${'😀'.repeat(9)}é`]) {
        const op = create('person', { type: 'person', attributes: { name } });
        expect(op.kind === 'create' && op.write.values.name).to.equal(name);
      }
      for (const name of ['x'.repeat(11), '😀'.repeat(11), `${'é'.repeat(10)}😀`]) {
        expectError(() => create('person', { type: 'person', attributes: { name } }), {
          status: 400,
          detail: '"name" holds at most 10 characters',
          source: { pointer: '/data/attributes/name' },
        });
      }
    });

    it("takes CURRENT_DATE as the database's current date", () => {
      const op = create('person', { type: 'person', attributes: { name: 'Ann', born: 'CURRENT_DATE' } });
      expect(op.kind === 'create' && op.write.values).to.deep.equal({
        name: 'Ann',
        born: { kind: 'now', fn: 'CURRENT_DATE' },
      });
    });

    it('takes null where the column does', () => {
      const op = create('person', { type: 'person', attributes: { name: 'Ann', age: null } });
      expect(op.kind === 'create' && op.write.values).to.deep.equal({ name: 'Ann', age: null });
    });

    it('takes a resource without attributes, and ignores links and meta', () => {
      const op = create('person', { type: 'person', links: { self: 'x' }, meta: { a: 1 } });
      expect(op.kind === 'create' && op.write).to.deep.equal({ values: {}, relationships: {} });
    });

    it('reads relationships as linkage: to-one set, to-many replaced', () => {
      const op = create('article', {
        type: 'article',
        attributes: { title: 'T' },
        relationships: {
          author: { data: { type: 'person', id: '7' } },
          tags: {
            data: [
              { type: 'tag', id: 'go' },
              { type: 'tag', id: 'ts' },
            ],
          },
          comments: { data: [] },
        },
      });
      expect(op).to.deep.equal({
        kind: 'create',
        collection: article,
        write: {
          values: { title: 'T' },
          relationships: {
            author: { mode: 'set', target: { kind: 'existing', id: '7' } },
            tags: {
              mode: 'replace',
              targets: [
                { kind: 'existing', id: 'go' },
                { kind: 'existing', id: 'ts' },
              ],
            },
            comments: { mode: 'replace', targets: [] },
          },
        },
        query: SINGLE_QUERY,
      });
    });

    it('reads a null to-one linkage as no related resource', () => {
      const op = create('article', {
        type: 'article',
        attributes: { title: 'T' },
        relationships: { author: { data: null } },
      });
      expect(op.kind === 'create' && op.write.relationships).to.deep.equal({ author: { mode: 'set', target: null } });
    });

    it('takes a client-generated id where the collection allows it', () => {
      expect(create('tag', { type: 'tag', id: 'go', attributes: { color: 'blue' } })).to.deep.equal({
        kind: 'create',
        collection: tag,
        id: 'go',
        write: { values: { color: 'blue' }, relationships: {} },
        query: SINGLE_QUERY,
      });
    });

    it('keeps include and fields of the query for the answer', () => {
      const op = decode('POST', '/api/article?include=author&fields[person]=name', {
        data: { type: 'article', attributes: { title: 'T' } },
      });
      expect(op.kind === 'create' && op.query).to.deep.equal({
        ...SINGLE_QUERY,
        fields: { person: ['name'] },
        include: [['author']],
      });
    });

    describe('refuses', () => {
      const CASES: {
        name: string;
        collection?: string;
        body: unknown;
        status: number;
        pointer: string;
        detail: string;
      }[] = [
        {
          name: 'a body that is no object',
          body: [],
          status: 400,
          pointer: '',
          detail: 'the request body must be a JSON:API document (an object with data)',
        },
        {
          name: 'a body of null',
          body: null,
          status: 400,
          pointer: '',
          detail: 'the request body must be a JSON:API document (an object with data)',
        },
        {
          name: 'a document without data',
          body: { attributes: {} },
          status: 400,
          pointer: '/data',
          detail: 'the document has no data member',
        },
        {
          name: 'data that is a list',
          body: { data: [] },
          status: 400,
          pointer: '/data',
          detail: 'data must be a resource object',
        },
        {
          name: 'data that is null',
          body: { data: null },
          status: 400,
          pointer: '/data',
          detail: 'data must be a resource object',
        },
        {
          name: 'a resource without type',
          body: { data: { attributes: { name: 'A' } } },
          status: 400,
          pointer: '/data/type',
          detail: 'the resource object needs a type',
        },
        {
          name: 'a type of another collection, with 409',
          body: { data: { type: 'people', attributes: {} } },
          status: 409,
          pointer: '/data/type',
          detail: 'type "people" does not match the collection "person"',
        },
        {
          name: 'a type that is no string, with 409',
          body: { data: { type: 1 } },
          status: 409,
          pointer: '/data/type',
          detail: 'type 1 does not match the collection "person"',
        },
        {
          name: 'a member a resource object does not have',
          body: { data: { type: 'person', attribute: { name: 'A' } } },
          status: 400,
          pointer: '/data/attribute',
          detail: '"attribute" is not a member of a resource object',
        },
        {
          name: 'a member whose name needs JSON Pointer escapes (~ and /)',
          body: { data: { type: 'person', 'a~b/c': 1 } },
          status: 400,
          pointer: '/data/a~0b~1c',
          detail: '"a~b/c" is not a member of a resource object',
        },
        {
          name: 'attributes that are no object',
          body: { data: { type: 'person', attributes: ['A'] } },
          status: 400,
          pointer: '/data/attributes',
          detail: 'attributes must be an object',
        },
        {
          name: 'a field the model does not have',
          body: { data: { type: 'person', attributes: { nope: 1 } } },
          status: 400,
          pointer: '/data/attributes/nope',
          detail: '"nope" is not a field of person',
        },
        {
          name: 'the key among the attributes',
          body: { data: { type: 'person', attributes: { id: '5' } } },
          status: 400,
          pointer: '/data/attributes/id',
          detail: '"id" is the resource\'s identity: it goes in data.id, never in attributes',
        },
        {
          name: 'a foreign key among the attributes',
          collection: 'article',
          body: { data: { type: 'article', attributes: { title: 'T', author_id: 7 } } },
          status: 400,
          pointer: '/data/attributes/author_id',
          detail: '"author_id" is set through the relationship "author"',
        },
        {
          name: 'a relationship among the attributes',
          body: { data: { type: 'person', attributes: { articles: [] } } },
          status: 400,
          pointer: '/data/attributes/articles',
          detail: '"articles" is a relationship: give it under relationships',
        },
        {
          name: 'a computed attribute',
          body: { data: { type: 'person', attributes: { initial: 'A' } } },
          status: 400,
          pointer: '/data/attributes/initial',
          detail: '"initial" is computed and cannot be written',
        },
        {
          name: 'a field the collection does not expose',
          collection: 'person_names',
          body: { data: { type: 'person_names', attributes: { age: 3 } } },
          status: 400,
          pointer: '/data/attributes/age',
          detail: '"age" is not a field of person_names',
        },
        {
          name: 'null where the column refuses it',
          body: { data: { type: 'person', attributes: { name: null } } },
          status: 400,
          pointer: '/data/attributes/name',
          detail: '"name" cannot be null',
        },
        {
          name: 'a value of the wrong type',
          body: { data: { type: 'person', attributes: { age: 'old' } } },
          status: 400,
          pointer: '/data/attributes/age',
          detail: 'age: "old" is not an integer (field "age")',
        },
        {
          name: 'a date that is none',
          body: { data: { type: 'person', attributes: { born: '1990-02-30' } } },
          status: 400,
          pointer: '/data/attributes/born',
          detail: 'born: "1990-02-30" is not a valid date (YYYY-MM-DD) (field "born")',
        },
        {
          name: 'a string longer than the column holds, counted in code points',
          body: { data: { type: 'person', attributes: { name: '😀'.repeat(11) } } },
          status: 400,
          pointer: '/data/attributes/name',
          detail: '"name" holds at most 10 characters',
        },
        {
          name: 'relationships that are no object',
          collection: 'article',
          body: { data: { type: 'article', relationships: [] } },
          status: 400,
          pointer: '/data/relationships',
          detail: 'relationships must be an object',
        },
        {
          name: 'a relationship the collection does not have',
          collection: 'article',
          body: { data: { type: 'article', relationships: { editor: { data: null } } } },
          status: 400,
          pointer: '/data/relationships/editor',
          detail: '"editor" is not a relationship of article',
        },
        {
          name: 'a relationship without data',
          collection: 'article',
          body: { data: { type: 'article', relationships: { author: { type: 'person', id: '7' } } } },
          status: 400,
          pointer: '/data/relationships/author',
          detail: 'a relationship must be an object with data',
        },
        {
          name: 'a resource identifier that is no object',
          collection: 'article',
          body: { data: { type: 'article', relationships: { author: { data: '7' } } } },
          status: 400,
          pointer: '/data/relationships/author/data',
          detail: 'a resource identifier must be an object {type, id}',
        },
        {
          name: 'a resource identifier without type',
          collection: 'article',
          body: { data: { type: 'article', relationships: { author: { data: { id: '7' } } } } },
          status: 400,
          pointer: '/data/relationships/author/data/type',
          detail: 'a resource identifier needs a type',
        },
        {
          name: 'a resource identifier with a numeric id',
          collection: 'article',
          body: { data: { type: 'article', relationships: { author: { data: { type: 'person', id: 7 } } } } },
          status: 400,
          pointer: '/data/relationships/author/data/id',
          detail: 'a resource identifier needs an id, as a string',
        },
        {
          name: 'a resource identifier of another type, with 409',
          collection: 'article',
          body: { data: { type: 'article', relationships: { author: { data: { type: 'article', id: '7' } } } } },
          status: 409,
          pointer: '/data/relationships/author/data/type',
          detail: 'type "article" does not match the relationship\'s type "person"',
        },
        {
          name: 'a linkage id that cannot be a key',
          collection: 'article',
          body: { data: { type: 'article', relationships: { author: { data: { type: 'person', id: '07' } } } } },
          status: 400,
          pointer: '/data/relationships/author/data/id',
          detail: '"07" is not a valid id of person: not an integer written in its canonical form',
        },
        {
          name: 'one resource identifier for a to-many relationship',
          collection: 'article',
          body: { data: { type: 'article', relationships: { tags: { data: { type: 'tag', id: 'go' } } } } },
          status: 400,
          pointer: '/data/relationships/tags/data',
          detail: 'tags is a to-many relationship: data must be a list of resource identifiers',
        },
        {
          name: 'a wrong element of a to-many linkage, at its index',
          collection: 'article',
          body: {
            data: {
              type: 'article',
              relationships: {
                tags: {
                  data: [
                    { type: 'tag', id: 'go' },
                    { type: 'tag', id: 'far too long' },
                  ],
                },
              },
            },
          },
          status: 400,
          pointer: '/data/relationships/tags/data/1/id',
          detail: '"far too long" is not a valid id of tag: longer than the key column holds',
        },
        {
          name: 'a client-generated id where the collection generates them, with 403',
          body: { data: { type: 'person', id: '5', attributes: { name: 'A' } } },
          status: 403,
          pointer: '/data/id',
          detail: 'person does not accept client-generated ids',
        },
        {
          name: 'a client-generated id that is no string',
          collection: 'tag',
          body: { data: { type: 'tag', id: 5 } },
          status: 400,
          pointer: '/data/id',
          detail: 'id must be a string',
        },
        {
          name: 'a client-generated id that cannot be a key',
          collection: 'tag',
          body: { data: { type: 'tag', id: '' } },
          status: 400,
          pointer: '/data/id',
          detail: '"" is not a valid id of tag: empty or holding a NUL character',
        },
      ];
      for (const c of CASES) {
        it(c.name, () => {
          const name = c.collection ?? 'person';
          expectError(() => decode('POST', `/api/${name}`, c.body), {
            status: c.status,
            detail: c.detail,
            source: { pointer: c.pointer },
          });
        });
      }
    });

    it('refuses a POST without a body as a document without data', () => {
      expectError(() => decode('POST', '/api/person'), {
        status: 400,
        detail: 'the request body must be a JSON:API document (an object with data)',
        source: { pointer: '' },
      });
    });

    it('accepts a to-many replacement on create where updates may not replace', () => {
      const op = create('locked_article', {
        type: 'locked_article',
        attributes: { title: 'T' },
        relationships: { tags: { data: [{ type: 'tag', id: 'go' }] } },
      });
      expect(op.kind === 'create' && op.write.relationships).to.deep.equal({
        tags: { mode: 'replace', targets: [{ kind: 'existing', id: 'go' }] },
      });
    });
  });

  describe('PATCH of a resource', () => {
    it('is an update of the resource in the path', () => {
      expect(update('person', '7', { type: 'person', id: '7', attributes: { age: 31 } })).to.deep.equal({
        kind: 'update',
        collection: person,
        id: '7',
        write: { values: { age: 31 }, relationships: {} },
        query: SINGLE_QUERY,
      });
    });

    it('changes relationships as linkage', () => {
      const op = update('article', '3', {
        type: 'article',
        id: '3',
        relationships: { author: { data: null }, tags: { data: [] } },
      });
      expect(op.kind === 'update' && op.write.relationships).to.deep.equal({
        author: { mode: 'set', target: null },
        tags: { mode: 'replace', targets: [] },
      });
    });

    it('refuses a whole to-many replacement where the collection forbids it, with 403 at the relationship', () => {
      expectError(
        () => update('locked_article', '3', { type: 'locked_article', id: '3', relationships: { tags: { data: [] } } }),
        {
          status: 403,
          title: 'Forbidden',
          detail: 'locked_article does not allow replacing all of tags',
          source: { pointer: '/data/relationships/tags' },
        },
      );
      // A to-one relationship of the same collection may still change.
      const op = update('locked_article', '3', {
        type: 'locked_article',
        id: '3',
        relationships: { author: { data: { type: 'person', id: '1' } } },
      });
      expect(op.kind === 'update' && op.write.relationships).to.deep.equal({
        author: { mode: 'set', target: { kind: 'existing', id: '1' } },
      });
    });

    it("needs the id, as a string, equal to the path's", () => {
      expectError(() => update('person', '7', { type: 'person', attributes: { age: 1 } }), {
        status: 400,
        detail: 'the resource object needs an id',
        source: { pointer: '/data/id' },
      });
      expectError(() => update('person', '7', { type: 'person', id: 7 }), {
        status: 400,
        detail: 'id must be a string',
        source: { pointer: '/data/id' },
      });
      expectError(() => update('person', '7', { type: 'person', id: '8' }), {
        status: 409,
        title: 'Conflict',
        detail: 'id "8" does not match the URL\'s id "7"',
        source: { pointer: '/data/id' },
      });
    });

    it('checks the type before the id', () => {
      expectError(() => update('person', '7', { id: '8' }), {
        status: 400,
        detail: 'the resource object needs a type',
        source: { pointer: '/data/type' },
      });
      expectError(() => update('person', '7', { type: 'article', id: '7' }), {
        status: 409,
        detail: 'type "article" does not match the collection "person"',
        source: { pointer: '/data/type' },
      });
    });

    it('checks the attributes as a create does', () => {
      expectError(() => update('person', '7', { type: 'person', id: '7', attributes: { name: null } }), {
        status: 400,
        detail: '"name" cannot be null',
        source: { pointer: '/data/attributes/name' },
      });
    });
  });

  describe('DELETE of a resource', () => {
    it('is a delete of the resource in the path, whatever the body', () => {
      expect(decode('DELETE', '/api/person/7')).to.deep.equal({ kind: 'delete', collection: person, id: '7' });
    });
  });

  describe('paths without a write', () => {
    for (const [method, target] of [
      ['POST', '/api/person/7'],
      ['PATCH', '/api/person'],
      ['DELETE', '/api/person'],
      ['PUT', '/api/person/7'],
    ] as const) {
      it(`${method} ${target} is 405`, () => {
        expectError(() => decode(method, target, { data: { type: 'person', id: '7' } }), {
          status: 405,
          title: 'Method Not Allowed',
          detail: `${method} is not allowed on this path`,
        });
      });
    }
  });

  describe('relationship endpoints', () => {
    const linkage = (method: string, target: string, data: unknown) => decode(method, target, { data });

    it('PATCH of a to-one relationship sets it', () => {
      expect(linkage('PATCH', '/api/article/3/relationships/author', { type: 'person', id: '7' })).to.deep.equal({
        kind: 'update-linkage',
        collection: article,
        id: '3',
        relation: 'author',
        change: { mode: 'set', target: { kind: 'existing', id: '7' } },
      });
      const cleared = linkage('PATCH', '/api/article/3/relationships/author', null);
      expect(cleared.kind === 'update-linkage' && cleared.change).to.deep.equal({ mode: 'set', target: null });
    });

    it('PATCH, POST and DELETE of a to-many relationship replace, add and remove', () => {
      const data = [
        { type: 'article', id: '1' },
        { type: 'article', id: '2' },
      ];
      const targets = [
        { kind: 'existing', id: '1' },
        { kind: 'existing', id: '2' },
      ];
      for (const [method, mode] of [
        ['PATCH', 'replace'],
        ['POST', 'add'],
        ['DELETE', 'remove'],
      ] as const) {
        expect(linkage(method, '/api/person/7/relationships/articles', data), method).to.deep.equal({
          kind: 'update-linkage',
          collection: person,
          id: '7',
          relation: 'articles',
          change: { mode, targets },
        });
      }
      const emptied = linkage('PATCH', '/api/person/7/relationships/articles', []);
      expect(emptied.kind === 'update-linkage' && emptied.change).to.deep.equal({ mode: 'replace', targets: [] });
    });

    it('POST or DELETE of a to-one relationship is 405 before its body is read, allowing what the collection enables', () => {
      for (const method of ['POST', 'DELETE']) {
        expectError(() => decode(method, '/api/article/3/relationships/author'), {
          status: 405,
          detail: 'author is a to-one relationship: change it with PATCH',
          headers: { allow: 'GET, PATCH' },
        });
      }
      // comment enables GET, POST and DELETE only: PATCH is not offered.
      expectError(() => decode('POST', '/api/comment/1/relationships/article'), {
        status: 405,
        detail: 'article is a to-one relationship: change it with PATCH',
        headers: { allow: 'GET' },
      });
    });

    it('refuses replacing or removing where the collection forbids it, with 403 and no source', () => {
      expectError(() => linkage('PATCH', '/api/locked_article/3/relationships/tags', []), {
        status: 403,
        detail: 'locked_article does not allow replacing all of tags',
      });
      expectError(() => linkage('DELETE', '/api/locked_article/3/relationships/tags', []), {
        status: 403,
        detail: 'locked_article does not allow removing from tags',
      });
      const added = linkage('POST', '/api/locked_article/3/relationships/tags', [{ type: 'tag', id: 'go' }]);
      expect(added.kind === 'update-linkage' && added.change).to.deep.equal({
        mode: 'add',
        targets: [{ kind: 'existing', id: 'go' }],
      });
    });

    it('refuses a body that is no relationship document, at its place', () => {
      expectError(() => decode('PATCH', '/api/person/7/relationships/articles', {}), {
        status: 400,
        detail: 'the document has no data member',
        source: { pointer: '/data' },
      });
      expectError(() => linkage('PATCH', '/api/person/7/relationships/articles', null), {
        status: 400,
        detail: 'articles is a to-many relationship: data must be a list of resource identifiers',
        source: { pointer: '/data' },
      });
      expectError(() => linkage('PATCH', '/api/article/3/relationships/author', []), {
        status: 400,
        detail: 'a resource identifier must be an object {type, id}',
        source: { pointer: '/data' },
      });
      expectError(
        () =>
          linkage('POST', '/api/person/7/relationships/articles', [
            { type: 'article', id: '1' },
            { type: 'person', id: '2' },
          ]),
        {
          status: 409,
          detail: 'type "person" does not match the relationship\'s type "article"',
          source: { pointer: '/data/1/type' },
        },
      );
      expectError(() => linkage('POST', '/api/person/7/relationships/articles', [{ type: 'article', id: '1.0' }]), {
        status: 400,
        detail: '"1.0" is not a valid id of article: not an integer written in its canonical form',
        source: { pointer: '/data/0/id' },
      });
    });

    it('answers 404 to a relationship the collection does not have', () => {
      expectError(() => linkage('PATCH', '/api/person/7/relationships/nope', []), {
        status: 404,
        detail: 'person has no relationship "nope"',
      });
    });
  });
});
