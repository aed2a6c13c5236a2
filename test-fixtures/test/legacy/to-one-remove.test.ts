import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { count, expectMessage, expectStatus, rows, snapshot } from './helpers.js';

/**
 * `{"remove": …}` on a to-one relation is as strict as on a to-many one: it names the related instance by a
 * valid key (else 400), and unlinks it only when it is the related one now (else 404, as
 * `DELETE /api/article/3/author/<id>`); anything refused changes nothing. `null` still unsets whatever is there.
 * Article 3's author is bob (2); article 4 has none.
 */
describeEachDatabase(
  'Format B: a to-one {"remove": …} names the related instance',
  (t) => {
    beforeEach(() => t().seed());

    const UNLINKS: [string, unknown][] = [
      ['an object with its id', { remove: { id: 2 } }],
      ['a list of one object, the id as a string', { remove: [{ id: '2' }] }],
    ];
    for (const [what, author] of UNLINKS) {
      for (const method of ['PATCH', 'PUT'] as const) {
        it(`${method} unsets the relation given ${what}, keeping the person`, async () => {
          const res = expectStatus(
            await t().http.request(method, '/api/article/3', { body: { title: 'Unowned', author } }),
            200,
          );
          expect(res.body).to.include({ id: 3, title: 'Unowned', author_id: null, author: null });
          expect((await rows(t(), 'article', { id: 3 }))[0]).to.include({ author_id: null, title: 'Unowned' });
          expect(await count(t(), 'person')).to.equal(5);
        });
      }
    }

    it('unsets the relation whatever it holds with null', async () => {
      const res = expectStatus(await t().http.patch('/api/article/3', { author: null }), 200);
      expect(res.body).to.include({ author_id: null });
    });

    const NOT_RELATED: [string, string, unknown][] = [
      ['another person than the related one', '/api/article/3', { title: 'Changed', author: { remove: { id: 1 } } }],
      ['a person that does not exist', '/api/article/3', { title: 'Changed', author: { remove: { id: 404 } } }],
      ['an id beyond what the key column holds', '/api/article/3', { author: { remove: { id: 99999999999 } } }],
      ['a person, where the relation is empty', '/api/article/4', { title: 'Changed', author: { remove: { id: 1 } } }],
      [
        'a person, in a create (nothing is related yet)',
        '/api/article',
        { title: 'New', author: { remove: { id: 1 } } },
      ],
    ];
    for (const [what, path, body] of NOT_RELATED) {
      it(`answers 404 to the remove of ${what}, changing nothing`, async () => {
        const before = await snapshot(t());
        const method = path === '/api/article' ? 'POST' : 'PATCH';
        expectMessage(
          await t().http.request(method, path, { body }),
          404,
          /^person \d+ is not among the author of article \d+$/,
        );
        expect(await snapshot(t())).to.equal(before);
      });
    }

    const MALFORMED: [string, unknown, RegExp][] = [
      ['a number', 42, /^a related person must be an object \(at \/author\/remove\)$/],
      ['null', null, /^a related person must be an object \(at \/author\/remove\)$/],
      [
        'an id that is no key',
        { id: 'not-a-key' },
        /^"not-a-key" is not a valid id of person: .* \(at \/author\/remove\/id\)$/,
      ],
      [
        'an id in a non-canonical form',
        { id: '02' },
        /^"02" is not a valid id of person: .* \(at \/author\/remove\/id\)$/,
      ],
      [
        'an object without id',
        { title: 'x' },
        /^an element to remove needs the id of a person \(at \/author\/remove\)$/,
      ],
      [
        'an id with other fields',
        { id: 2, name: 'x' },
        /^an instance to remove from author holds only its id, not "name" \(at \/author\/remove\/name\)$/,
      ],
      [
        '__delete__',
        { id: 2, __delete__: true },
        /^__delete__ applies to to-many relationships; author is to-one \(at \/author\/remove\)$/,
      ],
      [
        'two instances',
        [{ id: 2 }, { id: 1 }],
        /^author is a to-one relationship: \{"remove": …\} names the one related person/,
      ],
      ['an empty list', [], /^author is a to-one relationship: \{"remove": …\} names the one related person/],
    ];
    for (const [what, remove, message] of MALFORMED) {
      it(`refuses a to-one remove of ${what} with 400, changing nothing`, async () => {
        const before = await snapshot(t());
        expectMessage(await t().http.patch('/api/article/3', { title: 'Changed', author: { remove } }), 400, message);
        expectMessage(await t().http.post('/api/article', { title: 'New', author: { remove } }), 400, message);
        expect(await snapshot(t())).to.equal(before);
        expect((await rows(t(), 'article', { id: 3 }))[0]).to.include({ author_id: 2, title: 'Databases 101' });
      });
    }

    it('unlinks in a nested instance too, and refuses there what it refuses at the top', async () => {
      const before = await snapshot(t());
      expectMessage(
        await t().http.patch('/api/tag/2', { articles: { add: [{ id: 3, author: { remove: { id: 1 } } }] } }),
        404,
      );
      expectMessage(
        await t().http.patch('/api/tag/2', { articles: { add: [{ id: 3, author: { remove: { id: 'x' } } }] } }),
        400,
        /\(at \/articles\/add\/0\/author\/remove\/id\)$/,
      );
      expect(await snapshot(t())).to.equal(before);
      expectStatus(
        await t().http.patch('/api/tag/2', { articles: { add: [{ id: 3, author: { remove: { id: 2 } } }] } }),
        200,
      );
      expect((await rows(t(), 'article', { id: 3 }))[0]).to.include({ author_id: null });
    });
  },
  { format: 'legacy' },
);
