import { countQueries, describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { census } from '../jsonapi-write/helpers.js';
import { ATOMIC_HEADERS, atomic, errorsOf, expectOneError, id, lid, res } from './helpers.js';

const OPS = '/atomic:operations';

describeEachDatabase(
  'Atomic operations: malformed requests are 400 before any SQL, every operation checked',
  (t) => {
    before(() => t().seed());

    /** Sends a body; expects `status` with one error at `pointer`, no statement sent and every table as it was. */
    const refused = async (body: unknown, status: number, pointer?: string) => {
      const before = await census(t());
      const { result, sql } = await countQueries(t().target.database.knex, () =>
        t().http.post('/api/operations', body, { headers: ATOMIC_HEADERS }),
      );
      expectOneError(result, status, pointer);
      expect(sql, 'no statement before the checks are over').to.deep.equal([]);
      expect(await census(t())).to.deep.equal(before);
    };

    it('no body: 400', async () => {
      const r = await t().http.request('POST', '/api/operations', { headers: ATOMIC_HEADERS });
      expectOneError(r, 400);
    });
    it('broken JSON: 400', () => refused('{"atomic:operations":[{"op":', 400));
    it('a list instead of an object: 400', () => refused([], 400));
    it('no atomic:operations (meta only): 400 at /atomic:operations', () => refused({ meta: { a: 1 } }, 400, OPS));
    it('atomic:operations empty: 400 at /atomic:operations', () => refused({ 'atomic:operations': [] }, 400, OPS));
    it('atomic:operations not a list: 400', () => refused({ 'atomic:operations': {} }, 400, OPS));
    it('data beside atomic:operations: 400 at /data', () =>
      refused({ 'atomic:operations': [{ op: 'add', data: res('tag', { name: 'x' }) }], data: null }, 400, '/data'));
    it('included beside atomic:operations: 400 at /included', () =>
      refused(
        { 'atomic:operations': [{ op: 'add', data: res('tag', { name: 'x' }) }], included: [] },
        400,
        '/included',
      ));

    const ops = (...operations: unknown[]) => ({ 'atomic:operations': operations });
    const CASES: [string, unknown, number, string][] = [
      ['an unknown op code', { op: 'merge', data: res('tag', {}) }, 400, `${OPS}/0/op`],
      ['no op code', { data: res('tag', {}) }, 400, `${OPS}/0/op`],
      ['an operation that is no object', 'add', 400, `${OPS}/0`],
      ['an unknown member of an operation', { op: 'add', data: res('tag', {}), extra: 1 }, 400, `${OPS}/0/extra`],
      ['ref and href both', { op: 'remove', ref: id('tag', 1), href: '/api/tag/1' }, 400, `${OPS}/0/href`],
      ['ref with id and lid', { op: 'remove', ref: { type: 'tag', id: '1', lid: 'x' } }, 400, `${OPS}/0/ref/lid`],
      ['ref without type', { op: 'remove', ref: { id: '1' } }, 400, `${OPS}/0/ref/type`],
      ['ref of an unknown type', { op: 'remove', ref: id('nothing', 1) }, 400, `${OPS}/0/ref/type`],
      ['ref with a non-string id', { op: 'remove', ref: { type: 'tag', id: 1 } }, 400, `${OPS}/0/ref/id`],
      ['an unknown member of ref', { op: 'remove', ref: { type: 'tag', id: '1', x: 1 } }, 400, `${OPS}/0/ref/x`],
      ['href outside the API', { op: 'remove', href: '/elsewhere/tag/1' }, 400, `${OPS}/0/href`],
      ['href with a query', { op: 'remove', href: '/api/tag/1?x=1' }, 400, `${OPS}/0/href`],
      ['href of too many segments', { op: 'remove', href: '/api/tag/1/a/b/c' }, 400, `${OPS}/0/href`],
      ['remove without a target', { op: 'remove' }, 400, `${OPS}/0`],
      ['remove of a collection', { op: 'remove', href: '/api/tag' }, 400, `${OPS}/0/href`],
      ['remove with data', { op: 'remove', ref: id('tag', 1), data: res('tag', {}) }, 400, `${OPS}/0/data`],
      ['add without data', { op: 'add' }, 400, `${OPS}/0/data`],
      ['add with a list as data', { op: 'add', data: [] }, 400, `${OPS}/0/data`],
      ['add without type', { op: 'add', data: { attributes: { name: 'x' } } }, 400, `${OPS}/0/data/type`],
      ['add of an unknown type', { op: 'add', data: res('nothing', {}) }, 400, `${OPS}/0/data/type`],
      [
        'add with a ref to the resource',
        { op: 'add', ref: { type: 'tag' }, data: res('tag', {}) },
        400,
        `${OPS}/0/ref`,
      ],
      [
        'add with an unknown attribute',
        { op: 'add', data: res('tag', { nope: 1 }) },
        400,
        `${OPS}/0/data/attributes/nope`,
      ],
      [
        'add with a wrongly typed attribute',
        { op: 'add', data: res('person', { age: 'old' }) },
        400,
        `${OPS}/0/data/attributes/age`,
      ],
      [
        'add with an unknown relationship',
        { op: 'add', data: res('article', {}, { nope: null }) },
        400,
        `${OPS}/0/data/relationships/nope`,
      ],
      ['add with a member no resource object has', { op: 'add', data: { type: 'tag', x: 1 } }, 400, `${OPS}/0/data/x`],
      [
        'add with data.id and data.lid',
        { op: 'add', data: { type: 'tag', id: '9', lid: 'x' } },
        400,
        `${OPS}/0/data/lid`,
      ],
      [
        'add with a client id where none is accepted',
        { op: 'add', data: { type: 'person', id: '99' } },
        403,
        `${OPS}/0/data/id`,
      ],
      [
        'add to a collection that does not take POST',
        { op: 'add', data: res('comment', { content: 'x' }) },
        403,
        `${OPS}/0`,
      ],
      [
        'add to an href of another collection',
        { op: 'add', href: '/api/person', data: res('tag', {}) },
        409,
        `${OPS}/0/data/type`,
      ],
      ['update without id or lid', { op: 'update', data: res('tag', { name: 'x' }) }, 400, `${OPS}/0/data/id`],
      [
        'update whose ref names another resource',
        { op: 'update', ref: id('tag', 2), data: { type: 'tag', id: '1' } },
        409,
        `${OPS}/0/data/id`,
      ],
      [
        'update whose ref names another type',
        { op: 'update', ref: id('person', 1), data: { type: 'tag', id: '1' } },
        409,
        `${OPS}/0/data/type`,
      ],
      ['update with an id no key can be', { op: 'update', data: { type: 'tag', id: 'abc' } }, 400, `${OPS}/0/data/id`],
      ['remove whose ref has an id no key can be', { op: 'remove', ref: id('tag', 'abc') }, 400, `${OPS}/0/ref/id`],
      [
        'a relationship that does not exist',
        { op: 'update', ref: { ...id('article', 1), relationship: 'nope' }, data: null },
        400,
        `${OPS}/0/ref/relationship`,
      ],
      [
        'a relationship without its resource',
        { op: 'update', ref: { type: 'article', relationship: 'author' }, data: null },
        400,
        `${OPS}/0/ref`,
      ],
      [
        'add to a to-one relationship',
        { op: 'add', ref: { ...id('article', 1), relationship: 'author' }, data: id('person', 1) },
        400,
        `${OPS}/0/op`,
      ],
      [
        'remove from a to-one relationship',
        { op: 'remove', ref: { ...id('article', 1), relationship: 'author' }, data: id('person', 1) },
        400,
        `${OPS}/0/op`,
      ],
      [
        'a relationship operation without data',
        { op: 'add', ref: { ...id('article', 1), relationship: 'tags' } },
        400,
        `${OPS}/0/data`,
      ],
      [
        'to-many linkage that is no list',
        { op: 'add', ref: { ...id('article', 1), relationship: 'tags' }, data: id('tag', 1) },
        400,
        `${OPS}/0/data`,
      ],
      [
        'linkage of another type',
        { op: 'add', ref: { ...id('article', 1), relationship: 'tags' }, data: [id('person', 1)] },
        409,
        `${OPS}/0/data/0/type`,
      ],
      [
        'lid used before it is assigned',
        { op: 'update', data: { type: 'tag', lid: 'later', attributes: {} } },
        400,
        `${OPS}/0/data/lid`,
      ],
      ['lid used in ref before it is assigned', { op: 'remove', ref: lid('tag', 'later') }, 400, `${OPS}/0/ref/lid`],
      [
        'lid used in linkage before it is assigned',
        { op: 'add', data: res('article', {}, { author: lid('person', 'p') }) },
        400,
        `${OPS}/0/data/relationships/author/data/lid`,
      ],
    ];
    for (const [name, op, status, pointer] of CASES) {
      it(`${name}: ${status} at ${pointer}`, () => refused(ops(op), status, pointer));
      it(`${name}, as the third operation: ${status} at its place, the two before not run`, () =>
        refused(
          ops({ op: 'add', data: res('tag', { name: 'first' }) }, { op: 'remove', ref: id('tag', 3) }, op),
          status,
          pointer.replace(`${OPS}/0`, `${OPS}/2`),
        ));
    }

    it('a lid its own operation assigns and uses: 400 before any SQL', () =>
      refused(
        ops(
          { op: 'remove', ref: id('tag', 99) },
          { op: 'add', data: res('person', { name: 'x' }, { articles: [lid('article', 'a')] }, { lid: 'a' }) },
        ),
        400,
        `${OPS}/1/data/relationships/articles/data/0/lid`,
      ));
    it('a lid assigned twice: 400 at the second', () =>
      refused(
        ops(
          { op: 'add', data: res('tag', { name: 'a' }, undefined, { lid: 'x' }) },
          { op: 'add', data: res('tag', { name: 'b' }, undefined, { lid: 'x' }) },
        ),
        400,
        `${OPS}/1/data/lid`,
      ));
    it('a lid assigned twice under two types: 400 at the second', () =>
      refused(
        ops(
          { op: 'add', data: res('tag', { name: 'a' }, undefined, { lid: 'x' }) },
          { op: 'add', data: res('person', { name: 'b' }, undefined, { lid: 'x' }) },
        ),
        400,
        `${OPS}/1/data/lid`,
      ));
    it('a lid used under another type: 400', () =>
      refused(
        ops(
          { op: 'add', data: res('tag', { name: 'a' }, undefined, { lid: 'x' }) },
          { op: 'add', data: res('article', { title: 'b' }, { author: lid('person', 'x') }) },
        ),
        400,
        `${OPS}/1/data/relationships/author/data/lid`,
      ));

    it('every malformed operation is answered together, in order, nothing run', async () => {
      const before = await census(t());
      const { result, sql } = await countQueries(t().target.database.knex, () =>
        t().http.post(
          '/api/operations',
          ops(
            { op: 'add', data: res('tag', { nope: 1 }) },
            { op: 'add', data: res('tag', { name: 'fine' }) },
            { op: 'merge' },
            { op: 'update', data: res('person', { age: 'x' }, undefined, { id: '1' }) },
          ),
          { headers: ATOMIC_HEADERS },
        ),
      );
      const errors = errorsOf(result, 400);
      expect(errors.map((e) => e.pointer)).to.deep.equal([
        `${OPS}/0/data/attributes/nope`,
        `${OPS}/2/op`,
        `${OPS}/3/data/attributes/age`,
      ]);
      expect(sql).to.deep.equal([]);
      expect(await census(t())).to.deep.equal(before);
    });
    it('errors of different statuses together: 400', async () => {
      const r = await atomic(t(), [{ op: 'add', data: { type: 'person', id: '99' } }, { op: 'merge' }]);
      expect(errorsOf(r, 400).map((e) => e.status)).to.deep.equal(['403', '400']);
    });

    it('100 operations are accepted (the default maximum)', async () => {
      const r = await atomic(
        t(),
        Array.from({ length: 100 }, (_, i) => ({
          op: 'update',
          data: { type: 'tag', id: '1', attributes: { name: `n${i}` } },
        })),
      );
      expect(r.status, r.text).to.equal(204);
      expect((await t().target.database.knex('tag').where({ id: 1 }))[0].name).to.equal('n99');
      await t().seed();
    });
    it('101 operations: 413 at /atomic:operations, nothing run', () =>
      refused(
        ops(...Array.from({ length: 101 }, () => ({ op: 'add', data: res('tag', { name: 'many' }) }))),
        413,
        OPS,
      ));
  },
  { api: { atomic: true } },
);

describeEachDatabase(
  'Atomic operations: maxAtomicOperations',
  (t) => {
    it('above the configured maximum: 413 at /atomic:operations', async () => {
      const ops = Array.from({ length: 3 }, (_, i) => ({ op: 'add', data: res('tag', { name: `m${i}` }) }));
      expectOneError(await atomic(t(), ops), 413, OPS);
      expect(await t().target.database.knex('tag').where('name', 'like', 'm%')).to.have.lengthOf(0);
    });
    it('at the maximum: run', async () => {
      const ops = Array.from({ length: 2 }, (_, i) => ({ op: 'add', data: res('tag', { name: `m${i}` }) }));
      expect((await atomic(t(), ops)).status).to.equal(200);
    });
  },
  { api: { atomic: true, maxAtomicOperations: 2 } },
);
