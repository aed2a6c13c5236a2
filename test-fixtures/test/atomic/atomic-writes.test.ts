import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { census, count, rows, tagsOf } from '../jsonapi-write/helpers.js';
import { atomic, expectOneError, id, lid, res, resultsOf } from './helpers.js';

const OPS = '/atomic:operations';

describeEachDatabase(
  'Atomic operations: each kind of operation',
  (t) => {
    beforeEach(() => t().seed());
    const knex = () => t().target.database.knex;

    describe('add a resource', () => {
      it('returns the created resource with its new id, as a create does', async () => {
        const [result] = resultsOf(await atomic(t(), [{ op: 'add', data: res('person', { name: 'Zoe', age: 30 }) }]));
        expect(result!.data).to.include({ type: 'person' });
        expect(result!.data.attributes).to.include({ name: 'Zoe', age: 30, is_minor: false });
        expect(result!.data.links.self).to.match(new RegExp(`/api/person/${result!.data.id}$`));
        expect(await rows(t(), 'person', { id: Number(result!.data.id) })).to.have.lengthOf(1);
      });
      it('several resources of several types, in order', async () => {
        const results = resultsOf(
          await atomic(t(), [
            { op: 'add', data: res('tag', { name: 'one' }) },
            { op: 'add', data: res('person', { name: 'two' }) },
            { op: 'add', data: res('tag', { name: 'three' }) },
          ]),
        );
        expect(results.map((r) => [r.data.type, r.data.attributes.name])).to.deep.equal([
          ['tag', 'one'],
          ['person', 'two'],
          ['tag', 'three'],
        ]);
      });
      it('with to-one and to-many relationships to existing resources', async () => {
        const [result] = resultsOf(
          await atomic(t(), [
            {
              op: 'add',
              data: res('article', { title: 'Rel' }, { author: id('person', 2), tags: [id('tag', 1), id('tag', 3)] }),
            },
          ]),
        );
        expect(result!.data.relationships.author.data).to.deep.equal(id('person', 2));
        const articleId = Number(result!.data.id);
        expect((await rows(t(), 'article', { id: articleId }))[0]!.author_id).to.equal(2);
        expect(await tagsOf(t(), articleId)).to.deep.equal([1, 3]);
      });
      it('with a one-to-many relationship, taking the comments over', async () => {
        const [result] = resultsOf(
          await atomic(t(), [{ op: 'add', data: res('person', { name: 'P' }, { articles: [id('article', 4)] }) }]),
        );
        expect((await rows(t(), 'article', { id: 4 }))[0]!.author_id).to.equal(Number(result!.data.id));
      });
      it('with a client-generated id where the collection takes them', async () => {
        const [result] = resultsOf(
          await atomic(t(), [{ op: 'add', data: { type: 'tag', id: '77', attributes: { name: 'mine' } } }]),
        );
        expect(result!.data.id).to.equal('77');
        expect(await rows(t(), 'tag', { id: 77 })).to.have.lengthOf(1);
      });
      it('with the href of its collection', async () => {
        const [result] = resultsOf(
          await atomic(t(), [{ op: 'add', href: '/api/tag', data: res('tag', { name: 'by href' }) }]),
        );
        expect(result!.data.attributes.name).to.equal('by href');
      });
      it('a client id that exists: 409 at the operation, nothing kept', async () => {
        const before = await census(t());
        const r = await atomic(t(), [
          { op: 'add', data: res('tag', { name: 'first' }) },
          { op: 'add', data: { type: 'tag', id: '1', attributes: { name: 'again' } } },
        ]);
        expect(r.status, r.text).to.equal(409);
        expect(r.body.errors[0].source.pointer).to.match(new RegExp(`^${OPS}/1`));
        expect(await census(t())).to.deep.equal(before);
      });
      it('a relationship to a missing resource: 404 at the operation, nothing kept', async () => {
        const before = await census(t());
        const r = await atomic(t(), [
          { op: 'add', data: res('tag', { name: 'first' }) },
          { op: 'add', data: res('article', { title: 'x' }, { author: id('person', 99) }) },
        ]);
        expectOneError(r, 404, `${OPS}/1`);
        expect(await census(t())).to.deep.equal(before);
      });
    });

    describe('update a resource', () => {
      it('its attributes, nothing else changing: an empty result, 204 when all are empty', async () => {
        const r = await atomic(t(), [
          { op: 'update', data: { type: 'tag', id: '1', attributes: { name: 'renamed' } } },
        ]);
        expect(r.status, r.text).to.equal(204);
        expect(r.text).to.equal('');
        expect((await rows(t(), 'tag', { id: 1 }))[0]!.name).to.equal('renamed');
      });
      it('an empty result beside a create keeps its place: {}', async () => {
        const results = resultsOf(
          await atomic(t(), [
            { op: 'update', data: { type: 'tag', id: '1', attributes: { name: 'renamed' } } },
            { op: 'add', data: res('tag', { name: 'new' }) },
          ]),
        );
        expect(results[0]).to.deep.equal({});
        expect(results[1]!.data.attributes.name).to.equal('new');
      });
      it('a change the client did not send (a computed attribute) returns the resource', async () => {
        // Bob is 17, a minor: at 30 the server's is_minor changes with the age.
        const [result] = resultsOf(
          await atomic(t(), [{ op: 'update', data: { type: 'person', id: '2', attributes: { age: 30 } } }]),
        );
        expect(result!.data.attributes).to.include({ age: 30, is_minor: false, name: 'bob' });
      });
      it('a change of the same computed attribute that leaves it as it was: 204', async () => {
        const r = await atomic(t(), [{ op: 'update', data: { type: 'person', id: '2', attributes: { age: 16 } } }]);
        expect(r.status, r.text).to.equal(204);
      });
      it('by ref, by href, and with relationships', async () => {
        const r = await atomic(t(), [
          { op: 'update', ref: id('article', 1), data: { type: 'article', id: '1', attributes: { title: 'A' } } },
          {
            op: 'update',
            href: '/api/article/2',
            data: { type: 'article', id: '2', relationships: { tags: { data: [id('tag', 3)] } } },
          },
          { op: 'update', data: { type: 'article', id: '3', relationships: { author: { data: null } } } },
        ]);
        expect(r.status, r.text).to.equal(204);
        expect((await rows(t(), 'article', { id: 1 }))[0]!.title).to.equal('A');
        expect(await tagsOf(t(), 2)).to.deep.equal([3]);
        expect((await rows(t(), 'article', { id: 3 }))[0]!.author_id).to.equal(null);
      });
      it('a missing resource: 404 at the operation, the earlier ones undone', async () => {
        const r = await atomic(t(), [
          { op: 'update', data: { type: 'tag', id: '1', attributes: { name: 'undone' } } },
          { op: 'update', data: { type: 'tag', id: '99', attributes: { name: 'x' } } },
        ]);
        expectOneError(r, 404, `${OPS}/1`);
        expect((await rows(t(), 'tag', { id: 1 }))[0]!.name).to.equal('news');
      });
      it('a value too long for its column: 400 at the attribute', async () => {
        const r = await atomic(t(), [
          { op: 'add', data: res('tag', { name: 'kept?' }) },
          { op: 'update', data: { type: 'article', id: '1', attributes: { title: 'x'.repeat(201) } } },
        ]);
        expectOneError(r, 400, `${OPS}/1/data/attributes/title`);
        expect(await count(t(), 'tag', { name: 'kept?' })).to.equal(0);
      });
    });

    describe('remove a resource', () => {
      it('by ref and by href: 204, gone', async () => {
        const r = await atomic(t(), [
          { op: 'remove', ref: id('article', 4) },
          { op: 'remove', href: '/api/tag/3' },
        ]);
        expect(r.status, r.text).to.equal(204);
        expect(await count(t(), 'article', { id: 4 })).to.equal(0);
        expect(await count(t(), 'tag', { id: 3 })).to.equal(0);
      });
      it('a missing resource: 404 at the operation, the earlier removal undone', async () => {
        const r = await atomic(t(), [
          { op: 'remove', ref: id('article', 4) },
          { op: 'remove', ref: id('article', 99) },
        ]);
        expectOneError(r, 404, `${OPS}/1`);
        expect(await count(t(), 'article', { id: 4 })).to.equal(1);
      });
      it('a resource others still refer to: 409 at the operation', async () => {
        const r = await atomic(t(), [
          { op: 'add', data: res('tag', { name: 'x' }) },
          { op: 'remove', ref: id('person', 1) },
        ]);
        expectOneError(r, 409, `${OPS}/1`);
        expect(await count(t(), 'tag', { name: 'x' })).to.equal(0);
      });
      it('removes what an earlier operation made referable no more', async () => {
        const r = await atomic(t(), [
          { op: 'update', ref: { ...id('article', 5), relationship: 'author' }, data: null },
          { op: 'remove', ref: id('person', 4) },
        ]);
        expect(r.status, r.text).to.equal(204);
        expect(await count(t(), 'person', { id: 4 })).to.equal(0);
      });
    });

    describe('relationships', () => {
      it('update a to-one relationship, to another resource and to null', async () => {
        const r = await atomic(t(), [
          { op: 'update', ref: { ...id('article', 1), relationship: 'author' }, data: id('person', 4) },
          { op: 'update', href: '/api/article/2/relationships/author', data: null },
        ]);
        expect(r.status, r.text).to.equal(204);
        expect((await rows(t(), 'article', { id: 1 }))[0]!.author_id).to.equal(4);
        expect((await rows(t(), 'article', { id: 2 }))[0]!.author_id).to.equal(null);
      });
      it('add to a to-many relationship (many-to-many), one already there', async () => {
        const r = await atomic(t(), [
          { op: 'add', ref: { ...id('article', 1), relationship: 'tags' }, data: [id('tag', 2), id('tag', 3)] },
        ]);
        expect(r.status, r.text).to.equal(204);
        expect(await tagsOf(t(), 1)).to.deep.equal([1, 2, 3]);
      });
      it('add to a one-to-many relationship', async () => {
        const r = await atomic(t(), [
          { op: 'add', ref: { ...id('person', 3), relationship: 'articles' }, data: [id('article', 4)] },
        ]);
        expect(r.status, r.text).to.equal(204);
        expect((await rows(t(), 'article', { id: 4 }))[0]!.author_id).to.equal(3);
      });
      it('remove from a to-many relationship', async () => {
        const r = await atomic(t(), [
          { op: 'remove', ref: { ...id('article', 1), relationship: 'tags' }, data: [id('tag', 1)] },
        ]);
        expect(r.status, r.text).to.equal(204);
        expect(await tagsOf(t(), 1)).to.deep.equal([2]);
      });
      it('replace a to-many relationship, then empty another', async () => {
        const r = await atomic(t(), [
          { op: 'update', ref: { ...id('article', 1), relationship: 'tags' }, data: [id('tag', 3)] },
          { op: 'update', href: '/api/article/5/relationships/tags', data: [] },
        ]);
        expect(r.status, r.text).to.equal(204);
        expect(await tagsOf(t(), 1)).to.deep.equal([3]);
        expect(await tagsOf(t(), 5)).to.deep.equal([]);
      });
      it('a missing related resource: 404, the earlier change undone', async () => {
        const r = await atomic(t(), [
          { op: 'update', ref: { ...id('article', 1), relationship: 'tags' }, data: [id('tag', 3)] },
          { op: 'add', ref: { ...id('article', 1), relationship: 'tags' }, data: [id('tag', 99)] },
        ]);
        expectOneError(r, 404, `${OPS}/1`);
        expect(await tagsOf(t(), 1)).to.deep.equal([1, 2]);
      });
      it('the relationship of a missing resource: 404', async () => {
        const r = await atomic(t(), [
          { op: 'add', ref: { ...id('article', 99), relationship: 'tags' }, data: [id('tag', 1)] },
        ]);
        expectOneError(r, 404, `${OPS}/0`);
      });
      it('removing what is not related answers as the single request does (204, nothing changed)', async () => {
        const single = await t().http.delete('/api/article/2/relationships/tags', { body: { data: [id('tag', 1)] } });
        const r = await atomic(t(), [
          { op: 'remove', ref: { ...id('article', 2), relationship: 'tags' }, data: [id('tag', 1)] },
        ]);
        expect([r.status, single.status]).to.deep.equal([204, 204]);
        expect(await tagsOf(t(), 2)).to.deep.equal([]);
      });
    });

    describe('local ids', () => {
      it('create resources linked by lid (to-one, one-to-many, many-to-many), then update and relate them by lid', async () => {
        const results = resultsOf(
          await atomic(t(), [
            { op: 'add', data: res('person', { name: 'Lid' }, undefined, { lid: 'p' }) },
            { op: 'add', data: res('tag', { name: 'lidtag' }, undefined, { lid: 't' }) },
            {
              op: 'add',
              data: res(
                'article',
                { title: 'By lid' },
                { author: lid('person', 'p'), tags: [lid('tag', 't')] },
                { lid: 'a' },
              ),
            },
            { op: 'update', data: { type: 'tag', lid: 't', attributes: { name: 'lidtag2' } } },
            { op: 'add', ref: { ...lid('article', 'a'), relationship: 'tags' }, data: [id('tag', 1)] },
            { op: 'update', ref: lid('person', 'p'), data: { type: 'person', lid: 'p', attributes: { age: 5 } } },
            { op: 'add', data: res('person', { name: 'Other' }, { articles: [lid('article', 'a')] }) },
          ]),
        );
        const [person, tag, article] = results.map((r) => r.data);
        expect(person.attributes.name).to.equal('Lid');
        expect(article.relationships.author.data).to.deep.equal(id('person', person.id));
        expect(article.relationships.tags.data).to.deep.equal([id('tag', tag.id)]);
        expect(results[3]).to.deep.equal({});
        expect(results[4]).to.deep.equal({});
        // is_minor is computed: it changed with the age, so the update answers the resource.
        expect(results[5]!.data.attributes).to.include({ age: 5, is_minor: true });
        expect(results[6]!.data.relationships.articles.data).to.deep.equal([id('article', article.id)]);
        expect(results.every((r) => !('data' in r) || !('lid' in r.data))).to.equal(true);
        expect((await rows(t(), 'tag', { id: Number(tag.id) }))[0]!.name).to.equal('lidtag2');
        expect(await tagsOf(t(), Number(article.id))).to.deep.equal([1, Number(tag.id)].sort((a, b) => a - b));
        expect((await rows(t(), 'article', { id: Number(article.id) }))[0]!.author_id).to.equal(
          Number(results[6]!.data.id),
        );
      });
      it('remove a resource by lid', async () => {
        const r = await atomic(t(), [
          { op: 'add', data: res('tag', { name: 'short-lived' }, undefined, { lid: 'x' }) },
          { op: 'remove', ref: lid('tag', 'x') },
        ]);
        expect(resultsOf(r)[1]).to.deep.equal({});
        expect(await count(t(), 'tag', { name: 'short-lived' })).to.equal(0);
      });
      it('the same lid under two types is two lids? no: a lid names one resource, 400', async () => {
        const r = await atomic(t(), [
          { op: 'add', data: res('tag', { name: 'a' }, undefined, { lid: 'x' }) },
          { op: 'update', data: { type: 'person', lid: 'x', attributes: {} } },
        ]);
        expectOneError(r, 400, `${OPS}/1/data/lid`);
      });
      it('a failure after the lid was assigned undoes the resource it named', async () => {
        const before = await census(t());
        const r = await atomic(t(), [
          { op: 'add', data: res('person', { name: 'Gone' }, undefined, { lid: 'p' }) },
          { op: 'add', data: res('article', { title: 'x' }, { author: lid('person', 'p'), tags: [id('tag', 99)] }) },
        ]);
        expectOneError(r, 404, `${OPS}/1`);
        expect(await census(t())).to.deep.equal(before);
        expect(await count(t(), 'person', { name: 'Gone' })).to.equal(0);
      });
    });

    it('the answer\u2019s resources read back as GET shows them', async () => {
      const [result] = resultsOf(
        await atomic(t(), [{ op: 'add', data: res('article', { title: 'Same' }, { author: id('person', 1) }) }]),
      );
      const got = await t().http.get(`/api/article/${result!.data.id}`);
      expect(result!.data).to.deep.equal(got.body.data);
      expect(await knex()('article').where({ title: 'Same' })).to.have.lengthOf(1);
    });
  },
  { api: { atomic: true } },
);
