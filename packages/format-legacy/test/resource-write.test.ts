import { expect } from 'chai';
import type { RelatedRef, RelationshipWrite, ResourceWrite } from '@colapi/query-ast';
import { legacyFormat } from '../src/index.js';
import { collection, ctx, expectError, request } from './fixtures.js';

const format = legacyFormat();
const JSON_TYPE = { 'content-type': 'application/json' };

/** The write of a POST or PATCH body, as Format B decodes it. */
function write(method: 'POST' | 'PATCH', target: string, body: unknown): ResourceWrite {
  const req = request(method, target, { headers: JSON_TYPE, body });
  const op = format.decode(req, collection(req.route.collection), ctx);
  if (op.kind !== 'create' && op.kind !== 'update') expect.fail(`a ${op.kind}`);
  return op.write;
}
const relationships = (method: 'POST' | 'PATCH', target: string, body: unknown): Record<string, RelationshipWrite> =>
  write(method, target, body).relationships;
const fails = (method: 'POST' | 'PATCH', target: string, body: unknown) => () => write(method, target, body);

const existing = (id: string): RelatedRef => ({ kind: 'existing', id });
const created = (values: Record<string, unknown>, rels: Record<string, RelationshipWrite> = {}): RelatedRef => ({
  kind: 'new',
  write: { values, relationships: rels },
});

describe('Format B relationship operations in a body', () => {
  describe('a to-many relation', () => {
    it('is replaced by a list of existing ({id}) and new instances', () => {
      expect(
        relationships('PATCH', '/api/person/7', { articles: [{ id: 1 }, { id: '2' }, { title: 'New' }] }),
      ).to.deep.equal({
        articles: { mode: 'replace', targets: [existing('1'), existing('2'), created({ title: 'New' })] },
      });
    });

    it('updates the existing instances of a replacement that carry fields', () => {
      expect(relationships('PATCH', '/api/person/7', { articles: [{ id: 1, title: 'Renamed' }] })).to.deep.equal({
        articles: {
          mode: 'replace',
          targets: [{ kind: 'existing', id: '1', write: { values: { title: 'Renamed' }, relationships: {} } }],
        },
      });
    });

    it('is emptied by an empty list', () => {
      expect(relationships('PATCH', '/api/person/7', { articles: [] })).to.deep.equal({
        articles: { mode: 'replace', targets: [] },
      });
    });

    it('grows with add, by existing and new instances', () => {
      expect(
        relationships('PATCH', '/api/person/7', { articles: { add: [{ id: 1 }, { title: 'New' }] } }),
      ).to.deep.equal({
        articles: { mode: 'add', targets: [existing('1'), created({ title: 'New' })] },
      });
      // One instance needs no list.
      expect(relationships('PATCH', '/api/person/7', { articles: { add: { id: 1 } } })).to.deep.equal({
        articles: { mode: 'add', targets: [existing('1')] },
      });
    });

    it('shrinks with remove, deleting the instances marked __delete__', () => {
      expect(
        relationships('PATCH', '/api/person/7', {
          articles: { remove: [{ id: 1 }, { id: 2, __delete__: true }, { id: 3, __delete__: false }] },
        }),
      ).to.deep.equal({
        articles: {
          mode: 'remove',
          targets: [existing('1'), { kind: 'existing', id: '2', delete: true }, existing('3')],
        },
      });
    });

    it('names related instances by the key of their own model', () => {
      expect(
        relationships('PATCH', '/api/article/3', { tags: [{ name: 'go' }, { name: 'new', color: 'red' }] }),
      ).to.deep.equal({
        tags: {
          mode: 'replace',
          targets: [
            existing('go'),
            { kind: 'existing', id: 'new', write: { values: { color: 'red' }, relationships: {} } },
          ],
        },
      });
    });

    it('takes new instances with relations of their own, in a create too', () => {
      expect(
        relationships('POST', '/api/person', { name: 'Ann', articles: [{ title: 'T', tags: [{ name: 'go' }] }] }),
      ).to.deep.equal({
        articles: {
          mode: 'replace',
          targets: [created({ title: 'T' }, { tags: { mode: 'replace', targets: [existing('go')] } })],
        },
      });
    });
  });

  describe('a to-one relation', () => {
    it('is set by an object or {add: object}', () => {
      const set = { author: { mode: 'set', target: existing('7') } };
      expect(relationships('PATCH', '/api/article/3', { author: { id: 7 } })).to.deep.equal(set);
      expect(relationships('PATCH', '/api/article/3', { author: { add: { id: 7 } } })).to.deep.equal(set);
    });

    it('refuses a list in its add, of one element too, naming the place', () => {
      for (const add of [[{ id: 7 }], [], [{ id: 7 }, { id: 8 }]]) {
        expect(() => relationships('PATCH', '/api/article/3', { author: { add } }))
          .to.throw(/takes one object, not a list/)
          .with.property('source')
          .that.deep.equals({ pointer: '/author/add' });
      }
    });

    it('is set to a new instance by an object without id', () => {
      expect(relationships('POST', '/api/article', { title: 'T', author: { name: 'Ann' } })).to.deep.equal({
        author: { mode: 'set', target: created({ name: 'Ann' }) },
      });
    });

    it('is unset by null, whatever it holds', () => {
      expect(relationships('PATCH', '/api/article/3', { author: null })).to.deep.equal({
        author: { mode: 'set', target: null },
      });
    });

    it('unlinks the instance remove names by its key, which the executor checks is the related one', () => {
      const unlink = (id: string) => ({ author: { mode: 'unlink', id } });
      expect(relationships('PATCH', '/api/article/3', { author: { remove: { id: 7 } } })).to.deep.equal(unlink('7'));
      expect(relationships('PATCH', '/api/article/3', { author: { remove: { id: '99' } } })).to.deep.equal(
        unlink('99'),
      );
      expect(relationships('PATCH', '/api/article/3', { author: { remove: [{ id: 99 }] } })).to.deep.equal(
        unlink('99'),
      );
      // In a nested instance too.
      expect(
        relationships('PATCH', '/api/person/7', { articles: { add: [{ id: 1, author: { remove: { id: 7 } } }] } }),
      ).to.deep.equal({
        articles: {
          mode: 'add',
          targets: [{ kind: 'existing', id: '1', write: { values: {}, relationships: unlink('7') } }],
        },
      });
    });
  });

  describe('refuses with 400 at the place in the body', () => {
    const CASES: { name: string; target?: string; body: unknown; pointer: string; detail: string }[] = [
      {
        name: 'a to-many relation given one object',
        body: { articles: { id: 1 } },
        pointer: '/articles',
        detail: 'articles is a to-many relationship: give a list, {"add": […]} or {"remove": […]}',
      },
      {
        name: 'a to-many relation given a number',
        body: { articles: 1 },
        pointer: '/articles',
        detail: 'articles is a to-many relationship: give a list, {"add": […]} or {"remove": […]}',
      },
      {
        name: 'a to-one relation given something other than an object',
        target: '/api/article/3',
        body: { author: 7 },
        pointer: '/author',
        detail: 'author is a to-one relationship: give an object, {"add": object}, {"remove": object} or null',
      },
      {
        name: 'an operation with more than one member',
        body: { articles: { add: [], remove: [] } },
        pointer: '/articles',
        detail: 'an operation on articles has exactly one member, "add" or "remove"',
      },
      {
        name: 'an operation with another member',
        body: { articles: { add: [], id: 1 } },
        pointer: '/articles',
        detail: 'an operation on articles has exactly one member, "add" or "remove"',
      },
      {
        name: 'an element that is no object',
        body: { articles: [{ id: 1 }, 2] },
        pointer: '/articles/1',
        detail: 'a related article must be an object (at /articles/1)',
      },
      {
        name: 'an element to remove without id',
        body: { articles: { remove: [{ title: 'T' }] } },
        pointer: '/articles/remove/0',
        detail: 'an element to remove needs the id of a article (at /articles/remove/0)',
      },
      {
        name: 'an element to remove with fields',
        body: { articles: { remove: [{ id: 1, title: 'T' }] } },
        pointer: '/articles/remove/0/title',
        detail: 'an element to remove holds only id and __delete__, not "title" (at /articles/remove/0/title)',
      },
      {
        name: '__delete__ that is no boolean',
        body: { articles: { remove: [{ id: 1, __delete__: 'yes' }] } },
        pointer: '/articles/remove/0/__delete__',
        detail: '__delete__ must be true or false (at /articles/remove/0/__delete__)',
      },
      {
        name: '__delete__ outside remove',
        body: { articles: [{ id: 1, __delete__: true }] },
        pointer: '/articles/0/__delete__',
        detail: '__delete__ belongs to the elements of {"remove": […]} (at /articles/0/__delete__)',
      },
      {
        name: '__delete__ on a to-one relation',
        target: '/api/article/3',
        body: { author: { remove: [{ id: 7, __delete__: true }] } },
        pointer: '/author/remove',
        detail: '__delete__ applies to to-many relationships; author is to-one (at /author/remove)',
      },
      {
        name: 'a to-one remove of a number',
        target: '/api/article/3',
        body: { author: { remove: 42 } },
        pointer: '/author/remove',
        detail: 'a related person must be an object (at /author/remove)',
      },
      {
        name: 'a to-one remove of null',
        target: '/api/article/3',
        body: { author: { remove: null } },
        pointer: '/author/remove',
        detail: 'a related person must be an object (at /author/remove)',
      },
      {
        name: 'a to-one remove naming no key',
        target: '/api/article/3',
        body: { author: { remove: { id: 'not-a-key' } } },
        pointer: '/author/remove/id',
        detail:
          '"not-a-key" is not a valid id of person: not an integer written in its canonical form (at /author/remove/id)',
      },
      {
        name: 'a to-one remove naming a key in a non-canonical form',
        target: '/api/article/3',
        body: { author: { remove: [{ id: '07' }] } },
        pointer: '/author/remove/0/id',
        detail:
          '"07" is not a valid id of person: not an integer written in its canonical form (at /author/remove/0/id)',
      },
      {
        name: 'a to-one remove of an id that is neither a number nor a string',
        target: '/api/article/3',
        body: { author: { remove: { id: true } } },
        pointer: '/author/remove/id',
        detail: 'an id of person must be a number or a string (at /author/remove/id)',
      },
      {
        name: 'a to-one remove without id',
        target: '/api/article/3',
        body: { author: { remove: { title: 'x' } } },
        pointer: '/author/remove',
        detail: 'an element to remove needs the id of a person (at /author/remove)',
      },
      {
        name: 'a to-one remove of an empty object',
        target: '/api/article/3',
        body: { author: { remove: {} } },
        pointer: '/author/remove',
        detail: 'an element to remove needs the id of a person (at /author/remove)',
      },
      {
        name: 'a to-one remove with fields beside the id',
        target: '/api/article/3',
        body: { author: { remove: { id: 7, name: 'x' } } },
        pointer: '/author/remove/name',
        detail: 'an instance to remove from author holds only its id, not "name" (at /author/remove/name)',
      },
      {
        name: 'a to-one remove of several instances',
        target: '/api/article/3',
        body: { author: { remove: [{ id: 7 }, { id: 8 }] } },
        pointer: '/author/remove',
        detail:
          'author is a to-one relationship: {"remove": …} names the one related person, as {"id": …} (at /author/remove)',
      },
      {
        name: 'a to-one remove of an empty list',
        target: '/api/article/3',
        body: { author: { remove: [] } },
        pointer: '/author/remove',
        detail:
          'author is a to-one relationship: {"remove": …} names the one related person, as {"id": …} (at /author/remove)',
      },
      {
        name: 'a to-one remove inside a list',
        target: '/api/article/3',
        body: { author: { remove: [7] } },
        pointer: '/author/remove/0',
        detail: 'a related person must be an object (at /author/remove/0)',
      },
      {
        name: 'a related id that is no key',
        body: { articles: [{ id: 'one' }] },
        pointer: '/articles/0/id',
        detail: '"one" is not a valid id of article: not an integer written in its canonical form (at /articles/0/id)',
      },
      {
        name: 'a wrong field of a nested instance',
        body: { articles: [{ title: null }] },
        pointer: '/articles/0/title',
        detail: '"title" cannot be null (at /articles/0/title)',
      },
      {
        name: 'an unknown field of a nested instance',
        body: { articles: { add: [{ title: 'T', nope: 1 }] } },
        pointer: '/articles/add/0/nope',
        detail: '"nope" is not a field of article (at /articles/add/0/nope)',
      },
      {
        name: 'a foreign key and its relation together in a nested instance',
        body: { articles: [{ title: 'T', author_id: 1, author: null }] },
        pointer: '/articles/0/author',
        detail: 'give "author_id" or "author", not both (at /articles/0/author)',
      },
      {
        name: 'related instances nested deeper than the include depth',
        body: { articles: [{ title: 'T', author: { name: 'A', articles: [{ title: 'U', author: { name: 'B' } }] } }] },
        pointer: '/articles/0/author/articles/0/author',
        detail: 'related instances nest deeper than 3 levels (at /articles/0/author/articles/0/author)',
      },
    ];
    for (const c of CASES) {
      it(c.name, () => {
        expectError(fails('PATCH', c.target ?? '/api/person/7', c.body), {
          status: 400,
          title: 'Bad Request',
          detail: c.detail,
          source: { pointer: c.pointer },
        });
      });
    }

    it('nests up to the include depth', () => {
      const rels = relationships('PATCH', '/api/person/7', {
        articles: [{ title: 'T', author: { name: 'A', articles: [{ id: 1 }] } }],
      });
      expect(rels).to.deep.equal({
        articles: {
          mode: 'replace',
          targets: [
            created(
              { title: 'T' },
              {
                author: {
                  mode: 'set',
                  target: created({ name: 'A' }, { articles: { mode: 'replace', targets: [existing('1')] } }),
                },
              },
            ),
          ],
        },
      });
    });
  });

  describe('registration options', () => {
    it('refuse replacing or removing from a to-many relation with 403, on update only', () => {
      expectError(fails('PATCH', '/api/locked_article/3', { tags: [{ name: 'go' }] }), {
        status: 403,
        title: 'Forbidden',
        detail: 'locked_article does not allow replacing all of tags',
      });
      expectError(fails('PATCH', '/api/locked_article/3', { tags: { remove: [{ name: 'go' }] } }), {
        status: 403,
        detail: 'locked_article does not allow removing from tags',
      });
      expect(relationships('PATCH', '/api/locked_article/3', { tags: { add: [{ name: 'go' }] } })).to.deep.equal({
        tags: { mode: 'add', targets: [existing('go')] },
      });
      expect(relationships('POST', '/api/locked_article', { title: 'T', tags: [{ name: 'go' }] })).to.deep.equal({
        tags: { mode: 'replace', targets: [existing('go')] },
      });
    });
  });
});
