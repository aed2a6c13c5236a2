import { countQueries, describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { ALICE, expectMessage, getList, getOk, ids } from './helpers.js';

const HELLO = { id: 1, title: 'Hello World', publishtime: '2020-01-01T10:00:00', author_id: 1 };
const AGAIN = { id: 2, title: 'hello again', publishtime: '2020-02-01T10:00:00', author_id: 1 };

describeEachDatabase(
  'Format B: fetching',
  (t) => {
    it('lists a collection as a list object, never a bare list', async () => {
      const res = await getList(t(), '/api/person');
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(res.body).to.include({ num_results: 5, total_pages: 1, page: 1 });
      expect(ids(res)).to.deep.equal([1, 2, 3, 4, 5]);
    });

    it('shows each listed object with its related instances nested', async () => {
      const res = await getList(t(), '/api/person');
      expect(res.body.objects[0]).to.deep.equal({
        ...ALICE,
        articles: [HELLO, AGAIN],
        comments: [{ id: 3, content: 'Nice', article_id: 3, author_id: 1 }],
      });
    });

    it('fetches one object with every column, foreign keys and numeric ids included', async () => {
      const res = await getOk(t(), '/api/article/1');
      expect(res.body).to.deep.equal({
        ...HELLO,
        author: ALICE,
        comments: [
          { id: 1, content: 'Great', article_id: 1, author_id: 2 },
          { id: 2, content: 'meh', article_id: 1, author_id: 3 },
        ],
        tags: [
          { id: 1, name: 'news' },
          { id: 2, name: 'tech' },
        ],
      });
    });

    const NESTED: [string, string, string, unknown][] = [
      ['a to-one relationship without a target is null', '/api/article/4', 'author', null],
      ['an empty to-many relationship is an empty array', '/api/article/4', 'tags', []],
      [
        'a to-one relationship is an object',
        '/api/comment/3',
        'article',
        { id: 3, title: 'Databases 101', publishtime: '2021-05-05T09:30:00', author_id: 2 },
      ],
      [
        'a many-to-many relationship is an array',
        '/api/tag/2',
        'articles',
        [HELLO, { id: 3, title: 'Databases 101', publishtime: '2021-05-05T09:30:00', author_id: 2 }],
      ],
    ];
    for (const [name, path, relation, expected] of NESTED) {
      it(name, async () => expect((await getOk(t(), path)).body[relation]).to.deep.equal(expected));
    }

    it('reads dates, times, fractions, intervals and network addresses in their wire form', async () => {
      expect((await getOk(t(), '/api/person/2')).body).to.include({
        birth_datetime: '2007-06-01T12:00:00.25',
        is_minor: true,
        other: null,
      });
      expect((await getOk(t(), '/api/person/4')).body.bedtime).to.equal('23:15:30.5');
      expect((await getOk(t(), '/api/task/1')).body).to.deep.equal({
        id: 1,
        title: 'write',
        duration: 3600,
        due: '2024-01-01',
      });
      expect((await getOk(t(), '/api/network/1')).body).to.deep.equal({ id: 1, address: '192.168.1.5' });
    });

    it('honours only and exclude of the registration', async () => {
      expect((await getOk(t(), '/api/person_names/1')).body).to.deep.equal({ id: 1, name: 'Alice' });
      const res = await getOk(t(), '/api/person_private/1');
      expect(res.body).to.have.all.keys('id', 'name', 'birthday', 'birth_datetime', 'bedtime', 'articles');
    });

    it('GET of a to-many relation answers a list object of the related instances', async () => {
      const res = await getList(t(), '/api/person/1/articles');
      expect(res.body).to.include({ num_results: 2, total_pages: 1, page: 1 });
      expect(res.body.objects[0]).to.deep.equal({
        ...HELLO,
        author: ALICE,
        comments: res.body.objects[0].comments,
        tags: res.body.objects[0].tags,
      });
      expect(ids(res)).to.deep.equal([1, 2]);
    });

    it('GET of a many-to-many relation answers a list object', async () => {
      expect(ids(await getList(t(), '/api/tag/2/articles'))).to.deep.equal([1, 3]);
    });

    it('GET of a to-one relation answers a list object too, empty when it is unset', async () => {
      const res = await getList(t(), '/api/article/3/author');
      expect(res.body).to.include({ num_results: 1, page: 1 });
      expect(res.body.objects[0]).to.include({ id: 2, name: 'bob' });
      const none = await getList(t(), '/api/article/4/author');
      expect(none.body).to.deep.equal({ num_results: 0, total_pages: 0, page: 1, objects: [] });
    });

    it('searches and pages the related instances with q and page', async () => {
      const q = encodeURIComponent(JSON.stringify({ order_by: [{ field: 'id', direction: 'desc' }] }));
      const res = await getList(t(), `/api/person/1/articles?q=${q}&results_per_page=1&page=2`);
      expect(res.body).to.include({ num_results: 2, total_pages: 2, page: 2 });
      expect(ids(res)).to.deep.equal([1]);
    });

    it('GET of one related instance answers that object', async () => {
      expect((await getOk(t(), '/api/person/1/articles/2')).body).to.include(AGAIN);
    });

    it('GET of one related instance answers it through a to-one relation too (unlike Format A)', async () => {
      expect((await getOk(t(), '/api/article/1/author/1')).body).to.include({ id: 1, name: 'Alice' });
    });

    const NOT_FOUND: [string, string][] = [
      ['an unknown id', '/api/person/99'],
      ['an id that cannot be a key', '/api/person/abc'],
      ['an unknown collection', '/api/nope'],
      ['a path with a trailing slash', '/api/person/'],
      ['an unknown relation', '/api/person/1/friends'],
      ['the relations of an unknown owner', '/api/person/99/articles'],
      ['a related instance that is not related', '/api/person/1/articles/3'],
      ['a relationships path, which Format B does not have', '/api/person/1/relationships/articles'],
    ];
    for (const [name, path] of NOT_FOUND) {
      it(`404 with a message for ${name}`, async () => expectMessage(await t().http.get(path), 404));
    }

    it('loads a page set-wise: rows, total and one query per relationship, whatever the page size', async () => {
      const { knex } = t().target.database;
      const small = await countQueries(knex, () => t().http.get('/api/article?results_per_page=1'));
      const large = await countQueries(knex, () => t().http.get('/api/article?results_per_page=5'));
      expect(small.count).to.equal(large.count);
      // rows, total, and comments and tags (the author comes through the same one-query-per-relationship path).
      expect(large.count).to.be.at.most(5);
    });
  },
  { format: 'legacy' },
);
