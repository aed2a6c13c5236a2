import { expect } from 'chai';
import type { Operation } from '@colapi/query-ast';
import { legacyFormat } from '../src/index.js';
import { collection, ctx, expectError, request } from './fixtures.js';

const format = legacyFormat();
const person = collection('person');
const article = collection('article');

const JSON_TYPE = { 'content-type': 'application/json' };

function decode(method: string, target: string, body?: unknown): Operation {
  const req = request(method, target, body === undefined ? { headers: JSON_TYPE } : { headers: JSON_TYPE, body });
  return format.decode(req, collection(req.route.collection), ctx);
}

const PERSON_QUERY = {
  sort: [],
  group: [],
  paging: { offset: 0 },
  single: false,
  fields: { article: [] },
  include: [['articles']],
};
const name = (value: string) => ({ kind: 'compare', field: { relations: [], column: 'name' }, op: 'eq', value });

describe('Format B decode: writes', () => {
  describe('POST of an object', () => {
    it('is a create of its field values, answered with the nested object', () => {
      expect(decode('POST', '/api/person', { name: 'Ann', age: '30', born: '1990-01-02' })).to.deep.equal({
        kind: 'create',
        collection: person,
        write: { values: { name: 'Ann', age: 30, born: '1990-01-02' }, relationships: {} },
        query: PERSON_QUERY,
      });
    });

    it("takes CURRENT_TIMESTAMP as the database's current time", () => {
      const op = decode('POST', '/api/article', { title: 'T', published: 'CURRENT_TIMESTAMP' });
      expect(op.kind === 'create' && op.write.values).to.deep.equal({
        title: 'T',
        published: { kind: 'now', fn: 'CURRENT_TIMESTAMP' },
      });
    });

    it('writes a foreign key as a field', () => {
      const op = decode('POST', '/api/article', { title: 'T', author_id: 7 });
      expect(op.kind === 'create' && op.write).to.deep.equal({
        values: { title: 'T', author_id: 7 },
        relationships: {},
      });
    });

    it('ignores an id of null', () => {
      const op = decode('POST', '/api/person', { id: null, name: 'Ann' });
      expect(op).to.deep.include({ kind: 'create' });
      expect(op).not.to.have.property('id');
    });

    it('takes a client id where the collection allows it, as the canonical text of its key', () => {
      for (const id of [5, '5']) {
        const op = decode('POST', '/api/people_with_ids', { id, name: 'Ann' });
        expect(op, String(id)).to.deep.include({ kind: 'create', id: '5' });
        expect(op.kind === 'create' && op.write.values).to.deep.equal({ name: 'Ann' });
      }
    });

    it('takes the id of a collection whose key is not generated', () => {
      const op = decode('POST', '/api/tag', { name: 'go', color: 'blue' });
      expect(op).to.deep.equal({
        kind: 'create',
        collection: collection('tag'),
        id: 'go',
        write: { values: { color: 'blue' }, relationships: {} },
        query: { sort: [], group: [], paging: { offset: 0 }, single: false, fields: {}, include: [] },
      });
    });

    describe('refuses with 400 at the member', () => {
      const CASES: [string, string, unknown, string, string][] = [
        [
          'a body that is a list',
          'person',
          [{ name: 'Ann' }],
          '',
          'Unable to decode data: the body must be a JSON object of field values',
        ],
        [
          'a body that is a string',
          'person',
          'Ann',
          '',
          'Unable to decode data: the body must be a JSON object of field values',
        ],
        [
          'an id the collection generates',
          'person',
          { id: 5, name: 'Ann' },
          '/id',
          'person generates its ids: leave out "id"',
        ],
        [
          'an id that is neither number nor string',
          'people_with_ids',
          { id: true },
          '/id',
          'an id of people_with_ids must be a number or a string',
        ],
        [
          'an id that is no whole number',
          'people_with_ids',
          { id: 5.5 },
          '/id',
          '5.5 is not a valid id of people_with_ids: not a whole number in range',
        ],
        [
          'an id not in canonical form',
          'people_with_ids',
          { id: '05' },
          '/id',
          '"05" is not a valid id of people_with_ids: not an integer written in its canonical form',
        ],
        [
          'an id longer than the key holds',
          'tag',
          { name: 'far too long' },
          '/name',
          '"far too long" is not a valid id of tag: longer than the key column holds',
        ],
        [
          'a field the model does not have',
          'person',
          { name: 'Ann', nope: 1 },
          '/nope',
          '"nope" is not a field of person',
        ],
        [
          'a field the collection does not expose',
          'person_names',
          { name: 'Ann', age: 3 },
          '/age',
          '"age" is not a field of person_names',
        ],
        [
          'a computed attribute',
          'person',
          { name: 'Ann', initial: 'A' },
          '/initial',
          '"initial" is computed and cannot be written',
        ],
        ['null where the column refuses it', 'person', { name: null }, '/name', '"name" cannot be null'],
        [
          'a value of the wrong type',
          'person',
          { name: 'Ann', age: [1] },
          '/age',
          'age: [1] is not an integer (field "age")',
        ],
        [
          'a string longer than the column holds',
          'person',
          { name: 'Annabel-Lee' },
          '/name',
          '"name" holds at most 10 characters',
        ],
        [
          'a foreign key and its relationship together',
          'article',
          { title: 'T', author_id: 1, author: { id: 1 } },
          '/author',
          'give "author_id" or "author", not both',
        ],
      ];
      for (const [title, name, body, pointer, detail] of CASES) {
        it(title, () => {
          expectError(() => decode('POST', `/api/${name}`, body), {
            status: 400,
            title: 'Bad Request',
            detail,
            source: { pointer },
          });
        });
      }
    });
  });

  describe('PATCH or PUT of an object', () => {
    it('is an update of the object in the path', () => {
      for (const method of ['PATCH', 'PUT']) {
        expect(decode(method, '/api/person/7', { age: 31 }), method).to.deep.equal({
          kind: 'update',
          collection: person,
          id: '7',
          write: { values: { age: 31 }, relationships: {} },
          query: PERSON_QUERY,
        });
      }
    });

    it('takes the object just read back, id included', () => {
      for (const id of [7, '7']) {
        const op = decode('PATCH', '/api/person/7', { id, name: 'Ann', age: 31 });
        expect(op.kind === 'update' && op.write.values, String(id)).to.deep.equal({ name: 'Ann', age: 31 });
      }
    });

    it('refuses to change the id', () => {
      for (const [id, shown] of [
        [8, '8'],
        ['07', '"07"'],
        [true, 'true'],
        [{ n: 7 }, '{"n":7}'],
      ] as const) {
        expectError(() => decode('PATCH', '/api/person/7', { id }), {
          status: 400,
          detail: `"id" is 7 in the URL and cannot be changed to ${shown}`,
          source: { pointer: '/id' },
        });
      }
    });

    it('checks the field values as a create does', () => {
      expectError(() => decode('PUT', '/api/person/7', { age: 'old' }), {
        status: 400,
        detail: 'age: "old" is not an integer (field "age")',
        source: { pointer: '/age' },
      });
    });
  });

  describe('bulk PATCH or PUT of a collection', () => {
    it('sets the values on every object without q', () => {
      for (const method of ['PATCH', 'PUT']) {
        expect(decode(method, '/api/person', { age: 1 }), method).to.deep.equal({
          kind: 'update-many',
          collection: person,
          values: { age: 1 },
        });
      }
    });

    it('takes q in the body, as an object or as JSON text', () => {
      const expected = { kind: 'update-many', collection: person, values: { age: 1 }, filter: name('Ann') };
      const search = { filters: [{ name: 'name', op: 'eq', val: 'Ann' }] };
      expect(decode('PATCH', '/api/person', { age: 1, q: search })).to.deep.equal(expected);
      expect(decode('PATCH', '/api/person', { age: 1, q: JSON.stringify(search) })).to.deep.equal(expected);
    });

    it('refuses q that is not valid JSON text with its place: /q in the body, the parameter in the query string', () => {
      for (const text of ['{', '', ' ', 'filters', '{"filters": [}', "{'filters': []}"]) {
        expectError(() => decode('PATCH', '/api/person', { age: 1, q: text }), {
          status: 400,
          title: 'Bad Request',
          detail: 'q is not valid JSON',
          source: { pointer: '/q' },
        });
        expectError(() => decode('PUT', `/api/person?q=${encodeURIComponent(text)}`, { age: 1 }), {
          status: 400,
          detail: 'q is not valid JSON',
          source: { parameter: 'q' },
        });
        // JSON text holding JSON text, in the query string.
        expectError(() => decode('PUT', `/api/person?q=${encodeURIComponent(JSON.stringify(text))}`, { age: 1 }), {
          status: 400,
          detail: 'q is not valid JSON',
          source: { parameter: 'q' },
        });
      }
    });

    it('takes q in the query string, the earlier form', () => {
      const search = encodeURIComponent(
        JSON.stringify({
          filters: [
            { name: 'name', op: 'eq', val: 'Ann' },
            { name: 'name', op: 'eq', val: 'Bob' },
          ],
          disjunction: true,
        }),
      );
      expect(decode('PUT', `/api/person?q=${search}`, { age: 1 })).to.deep.equal({
        kind: 'update-many',
        collection: person,
        values: { age: 1 },
        filter: { kind: 'or', filters: [name('Ann'), name('Bob')] },
      });
    });

    it('refuses q in both places', () => {
      expectError(() => decode('PATCH', `/api/person?q=${encodeURIComponent('{}')}`, { age: 1, q: {} }), {
        status: 400,
        detail: 'give q in the body or in the query string, not both',
        source: { pointer: '/q' },
      });
    });

    it('takes only filters and disjunction of a search, naming where q came from', () => {
      expectError(() => decode('PATCH', '/api/person', { age: 1, q: { limit: 2 } }), {
        status: 400,
        detail: 'q: unknown member "limit" (expected filters, disjunction)',
        source: { pointer: '/q' },
      });
      expectError(() => decode('PATCH', `/api/person?q=${encodeURIComponent('{"order_by": []}')}`, { age: 1 }), {
        status: 400,
        detail: 'q: unknown member "order_by" (expected filters, disjunction)',
        source: { parameter: 'q' },
      });
      expectError(() => decode('PATCH', '/api/person', { age: 1, q: [] }), {
        status: 400,
        detail: 'q must be a JSON object',
        source: { pointer: '/q' },
      });
    });

    it('sets field values only: no relationships, no key', () => {
      expectError(() => decode('PATCH', '/api/person', { articles: [] }), {
        status: 400,
        detail: '"articles" is a relationship; a bulk update sets field values only',
        source: { pointer: '/articles' },
      });
      expectError(() => decode('PATCH', '/api/person', { id: 3 }), {
        status: 400,
        detail: '"id" is the key of person and cannot be set here',
        source: { pointer: '/id' },
      });
    });
  });

  describe('DELETE', () => {
    it('of an object is a delete', () => {
      expect(decode('DELETE', '/api/person/7')).to.deep.equal({ kind: 'delete', collection: person, id: '7' });
    });

    it('of a related instance takes it out of the relation, through a to-one relation too', () => {
      expect(decode('DELETE', '/api/person/7/articles/9')).to.deep.equal({
        kind: 'update-linkage',
        collection: person,
        id: '7',
        relation: 'articles',
        change: { mode: 'unlink', id: '9' },
      });
      expect(decode('DELETE', '/api/article/3/author/7')).to.deep.equal({
        kind: 'update-linkage',
        collection: article,
        id: '3',
        relation: 'author',
        change: { mode: 'unlink', id: '7' },
      });
      expect(decode('DELETE', '/api/article/3/tags/go')).to.deep.include({ change: { mode: 'unlink', id: 'go' } });
    });

    it('of a related instance needs a valid key of the related collection', () => {
      expectError(() => decode('DELETE', '/api/person/7/articles/x'), {
        status: 400,
        detail: '"x" is not a valid id of article: not an integer written in its canonical form',
      });
    });

    it('of a related instance is refused where the collection forbids removing', () => {
      expectError(() => decode('DELETE', '/api/locked_article/3/tags/go'), {
        status: 403,
        title: 'Forbidden',
        detail: 'locked_article does not allow removing from tags',
      });
      // A to-one relation of the same collection may still be unset.
      expect(decode('DELETE', '/api/locked_article/3/author/7')).to.deep.include({
        change: { mode: 'unlink', id: '7' },
      });
    });

    it('of a relation that does not exist is 404', () => {
      expectError(() => decode('DELETE', '/api/person/7/nope/1'), {
        status: 404,
        detail: 'person has no relationship "nope"',
      });
    });
  });

  describe('paths without a write', () => {
    for (const [method, target] of [
      ['DELETE', '/api/person'],
      ['POST', '/api/person/7'],
      ['PATCH', '/api/person/7/articles'],
      ['POST', '/api/person/7/articles'],
      ['PATCH', '/api/person/7/articles/9'],
    ] as const) {
      it(`${method} ${target} is 405`, () => {
        expectError(() => decode(method, target, {}), {
          status: 405,
          title: 'Method Not Allowed',
          detail: `${method} is not allowed on this path`,
        });
      });
    }
  });
});
