import { describeEachDatabase, type TestResponse } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { ACCESS, bearer, MARK, TENANT_2_IDS, TENANT_DATA, tampered, token } from './tenants.js';

/*
 * Format B has no `type`/`id` pairs: what an object is follows from where it stands. The answer of a path is
 * objects of its collection (or of the relationship's target), and each object nests its related instances
 * under the relationship's name, one level deep.
 */
const RELATIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  person: { articles: 'article', comments: 'comment' },
  article: { author: 'person', comments: 'comment', tags: 'tag' },
  comment: { article: 'article', author: 'person' },
  tag: { articles: 'article' },
};

/** The foreign key columns shown in a Format B object, and the collection whose ids they hold. */
const FOREIGN_KEYS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  article: { author_id: 'person' },
  comment: { article_id: 'article', author_id: 'person' },
};

/**
 * The one foreign key of a tenant-1 row that holds a tenant-2 id: comment 1 was written by bob. It is a
 * column of a row the rules show (read excludes nothing of comment), so the value shows; the row it points
 * to does not (its nested `author` is null).
 */
const SHOWN_FOREIGN_KEYS = new Set(['comment/1/author_id']);

const isTenant2 = (collection: string, id: unknown) => (TENANT_2_IDS[collection] ?? []).includes(String(id as number));

/** Every object of `collection` in a Format B answer and the instances nested in it: the tenant-2 ids it shows. */
function tenant2Objects(value: unknown, collection: string, found: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const v of value) tenant2Objects(v, collection, found);
    return found;
  }
  if (!value || typeof value !== 'object') return found;
  const o = value as Record<string, unknown>;
  if (Array.isArray(o.objects)) return tenant2Objects(o.objects, collection, found);
  expect(o, `an object of ${collection} without an id: ${JSON.stringify(o)}`).to.have.property('id');
  if (isTenant2(collection, o.id)) found.push(`${collection} ${String(o.id)}`);
  for (const [column, target] of Object.entries(FOREIGN_KEYS[collection] ?? {})) {
    if (isTenant2(target, o[column]) && !SHOWN_FOREIGN_KEYS.has(`${collection}/${String(o.id)}/${column}`))
      found.push(`${collection} ${String(o.id)}.${column} = ${String(o[column])}`);
  }
  for (const [relation, target] of Object.entries(RELATIONS[collection] ?? {})) {
    if (relation in o) tenant2Objects(o[relation], target, found);
  }
  return found;
}

/** The collection whose objects a path answers (undefined for function evaluation). */
function answered(path: string): string | undefined {
  const [collection, , relation] = new URL(path, 'http://x').pathname.split('/').slice(2);
  if (collection === 'eval') return undefined;
  return relation === undefined ? collection : RELATIONS[collection!]![relation];
}

/** The argument of a JSONP callback `cb`, parsed. */
function jsonp(res: TestResponse): { meta: Record<string, unknown>; data: unknown } {
  const prefix = '/**/cb(';
  expect(res.text.startsWith(prefix), res.text).to.equal(true);
  return JSON.parse(res.text.slice(prefix.length, -2));
}

/** Nothing of tenant 2 anywhere in a response: its texts, its ids in any object or nested instance, links, headers. */
function expectNothingOfTenant2(res: TestResponse, path: string): void {
  const headers = [...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n');
  expect(res.text, path).not.to.contain(MARK);
  expect(headers, path).not.to.contain(MARK);
  const collection = answered(path);
  const body = path.includes('callback=') ? jsonp(res).data : res.body;
  if (collection && res.status === 200) expect(tenant2Objects(body, collection), path).to.deep.equal([]);
  for (const [type, ids] of Object.entries(TENANT_2_IDS)) {
    for (const n of ids) {
      expect(`${res.text}\n${headers}`, `${path}: a link to ${type}/${n}`).not.to.match(
        new RegExp(`/${type}/${n}(?![0-9])`),
      );
    }
  }
}

const q = (search: unknown) => `q=${encodeURIComponent(JSON.stringify(search))}`;
const all = (name: string) => ({ name, op: 'like', val: '%' });

/** Every read path of Format B, as tenant 1 asks them. */
const READS = [
  '/api/person',
  `/api/person?${q({ filters: [{ name: 'articles', op: 'any', val: all('title') }] })}`,
  `/api/person?${q({ filters: [{ name: 'comments', op: 'any', val: all('content') }] })}`,
  `/api/person?${q({ order_by: [{ field: 'name', direction: 'desc' }] })}&results_per_page=1&page=2`,
  `/api/person?${q({ group_by: [{ field: 'age' }] })}`,
  `/api/person?${q({ filters: [all('name')], limit: 1, offset: 1 })}`,
  '/api/person/1',
  '/api/person/3',
  '/api/person/1/articles',
  '/api/person/1/comments',
  '/api/person/1/articles/1',
  '/api/article',
  `/api/article?${q({ filters: [all('author__name')] })}`,
  `/api/article?${q({ filters: [{ name: 'author', op: 'has', val: all('name') }] })}`,
  `/api/article?${q({ filters: [{ name: 'comments', op: 'any', val: all('content') }] })}`,
  `/api/article?${q({ filters: [{ name: 'tags', op: 'any', val: all('name') }] })}`,
  `/api/article?${q({ filters: [all('title'), all('author__name')], disjunction: true })}`,
  `/api/article?${q({ order_by: [{ field: 'author__name', direction: 'desc' }] })}`,
  `/api/article?${q({ order_by: [{ field: 'author__age', direction: 'asc' }, { field: 'id' }] })}`,
  `/api/article?${q({ group_by: [{ field: 'author__name' }] })}`,
  `/api/article?${q({ group_by: [{ field: 'author_id' }] })}`,
  '/api/article/1',
  '/api/article/3',
  '/api/article/1/author',
  '/api/article/1/comments',
  '/api/article/1/tags',
  '/api/article/1/comments/1',
  '/api/comment',
  `/api/comment?${q({ filters: [all('author__name')] })}`,
  `/api/comment?${q({ filters: [all('article__title')] })}`,
  `/api/comment?${q({ filters: [{ name: 'author', op: 'has', val: all('name') }] })}`,
  `/api/comment?${q({ order_by: [{ field: 'author__name' }, { field: 'article__title' }] })}`,
  `/api/comment?${q({ group_by: [{ field: 'article__title' }] })}`,
  '/api/comment/1',
  '/api/comment/1/author',
  '/api/comment/1/article',
  '/api/tag',
  `/api/tag?${q({ filters: [{ name: 'articles', op: 'any', val: all('title') }] })}`,
  `/api/tag?${q({ filters: [{ name: 'articles', op: 'any', val: all('author__name') }] })}`,
  '/api/tag/1',
  '/api/tag/2',
  '/api/tag/1/articles',
  '/api/tag/2/articles',
  `/api/tag/1/articles?${q({ order_by: [{ field: 'author__name' }] })}`,
  '/api/tag/1/articles/1',
  `/api/person?${q({ filters: [{ name: 'id', op: '==', val: 1 }], single: true })}`,
  `/api/article?${q({ filters: [all('author__name'), { name: 'id', op: '>', val: 1 }], single: true })}`,
  `/api/eval/person?${q({
    functions: [
      { name: 'count', field: 'id' },
      { name: 'max', field: 'name' },
      { name: 'sum', field: 'age' },
    ],
  })}`,
  `/api/eval/article?${q({
    functions: [
      { name: 'count', field: 'id' },
      { name: 'max', field: 'title' },
    ],
  })}`,
  `/api/eval/article?${q({ functions: [{ name: 'count', field: 'id' }], filters: [all('author__name')] })}`,
  '/api/person?callback=cb&results_per_page=1',
  '/api/person/1?callback=cb',
  '/api/article/1/comments?callback=cb',
  '/api/tag/1/articles?callback=cb&results_per_page=1',
  `/api/eval/person?callback=cb&${q({ functions: [{ name: 'count', field: 'id' }] })}`,
];

describeEachDatabase(
  'access control: every Format B read path holds tenant 1 to its rows',
  (t) => {
    let tenant1: { headers: Record<string, string> };
    before(async () => {
      await t().seed(TENANT_DATA);
      tenant1 = bearer(await token('member', { tenant: 1 }));
    });

    const get = (path: string) => t().http.get(path, tenant1);

    for (const path of READS) {
      it(`GET ${decodeURIComponent(path)}`, async () => {
        const res = await get(path);
        expect(res.status, res.text).to.equal(200);
        expectNothingOfTenant2(res, path);
      });
    }

    it('nests only related instances of tenant 1, and a to-one it may not read as null', async () => {
      const ann = (await get('/api/person/1')).body;
      // Ann wrote comment 2, on tenant 2's article: it does not exist for tenant 1.
      expect(ann.comments).to.deep.equal([]);
      expect(ann.articles.map((a: { id: number }) => a.id)).to.deep.equal([1]);
      const comment = (await get('/api/comment/1')).body;
      expect(comment.author).to.equal(null);
      expect(comment.article).to.include({ id: 1 });
      expect((await get('/api/tag/1')).body.articles.map((a: { id: number }) => a.id)).to.deep.equal([1]);
      expect((await get('/api/tag/2')).body.articles).to.deep.equal([]);
      const related = await get('/api/comment/1/author');
      expect(related.body).to.deep.equal({ num_results: 0, total_pages: 0, page: 1, objects: [] });
    });

    it('counts only tenant 1 in num_results, total_pages, the Link header and eval', async () => {
      const people = await get('/api/person?results_per_page=1');
      expect(people.body).to.include({ num_results: 2, total_pages: 2, page: 1 });
      const link = people.headers.get('link') ?? '';
      expect(link).to.match(/page=2&results_per_page=1>; rel="last"/);
      expect(link).not.to.match(/page=[3-9]/);
      for (const [path, expected] of [
        ['/api/article', 2],
        ['/api/comment', 2],
        ['/api/tag', 2],
        ['/api/tag/1/articles', 1],
        ['/api/person/1/comments', 0],
        [`/api/article?${q({ filters: [all('author__name')] })}`, 2],
        [`/api/person?${q({ group_by: [{ field: 'age' }] })}`, 1],
      ] as const) {
        const res = await get(path);
        expect(res.body.num_results, path).to.equal(expected);
        expect(res.body.objects, path).to.have.lengthOf(expected);
      }
      const count = await get(
        `/api/eval/person?${q({
          functions: [
            { name: 'count', field: 'id' },
            { name: 'sum', field: 'age' },
          ],
        })}`,
      );
      expect(count.body).to.deep.equal({ count__id: 2, sum__age: 2 });
      const articles = await get(`/api/eval/article?${q({ functions: [{ name: 'count', field: 'id' }] })}`);
      expect(articles.body).to.deep.equal({ count__id: 2 });
      const wrapped = jsonp(await get('/api/person?callback=cb&results_per_page=1'));
      expect(wrapped.meta.Link).to.deep.equal([
        { url: `${t().target.origin}/api/person?callback=cb&page=1&results_per_page=1`, rel: 'first' },
        { url: `${t().target.origin}/api/person?callback=cb&page=2&results_per_page=1`, rel: 'last' },
        { url: `${t().target.origin}/api/person?callback=cb&page=2&results_per_page=1`, rel: 'next' },
      ]);
      expect(wrapped.data).to.include({ num_results: 2, total_pages: 2 });
    });

    it('answers q.single over several rows of tenant 1 with 400, and over a row of tenant 2 as over none', async () => {
      const several = await get(`/api/person?${q({ filters: [all('name')], single: true })}`);
      expect(several.status).to.equal(400);
      expect(several.body).to.deep.equal({ message: 'Multiple results found' });
      const one = (id: number) =>
        get(`/api/person?${q({ filters: [{ name: 'id', op: '==', val: id }], single: true })}`);
      const hidden = await one(2);
      const missing = await one(999);
      expect(hidden.status).to.equal(404);
      expect(hidden.text).to.equal(missing.text);
      expect(hidden.body).to.deep.equal({ message: 'No result found' });
    });

    it('answers a row of tenant 2 exactly as a missing one, wherever an id is addressed', async () => {
      // The id of tenant 2's row (2) and a missing one (999) in the same place of the same path.
      const paths = [
        '/api/person/ID',
        '/api/person/ID?callback=cb',
        '/api/person/ID/articles',
        '/api/person/ID/comments',
        '/api/person/ID/articles/2',
        '/api/article/ID',
        '/api/article/ID/author',
        '/api/article/ID/comments',
        '/api/article/ID/tags',
        '/api/article/1/comments/ID',
        '/api/article/ID/comments/2',
        '/api/comment/ID',
        '/api/comment/ID/article',
        '/api/tag/1/articles/ID',
        '/api/person/1/articles/ID',
        '/api/person/1/comments/ID',
      ];
      for (const path of paths) {
        const hidden = await get(path.replace('ID', '2'));
        const missing = await get(path.replace('ID', '999'));
        const status = path.includes('callback') ? 200 : 404;
        expect(hidden.status, path).to.equal(status);
        expect(hidden.text.replaceAll(/\b2\b/g, 'ID'), path).to.equal(missing.text.replaceAll('999', 'ID'));
        expect([...hidden.headers.keys()], path).to.deep.equal([...missing.headers.keys()]);
      }
    });

    it('answers a field read hides exactly as an unknown one, in q filters, order_by, group_by and functions', async () => {
      const same = async (template: string) => {
        const a = await get(template.replaceAll('FIELD', 'birthday'));
        const b = await get(template.replaceAll('FIELD', 'nosuchfield'));
        expect(a.status, a.text).to.equal(400);
        expect(a.body, a.text).to.have.all.keys('message');
        expect(a.text.replaceAll('birthday', 'F'), template).to.equal(b.text.replaceAll('nosuchfield', 'F'));
      };
      const templates = [
        `/api/person?${q({ filters: [{ name: 'FIELD', op: 'is_null' }] })}`,
        `/api/person?${q({ filters: [{ name: 'name', op: '==', field: 'FIELD' }] })}`,
        `/api/person?${q({ order_by: [{ field: 'FIELD', direction: 'asc' }] })}`,
        `/api/person?${q({ group_by: [{ field: 'FIELD' }] })}`,
        `/api/person?${q({ filters: [{ name: 'FIELD', op: 'is_null' }], single: true })}`,
        `/api/person/1/articles?${q({ filters: [{ name: 'author__FIELD', op: 'is_null' }] })}`,
        `/api/article?${q({ filters: [{ name: 'author__FIELD', op: 'is_null' }] })}`,
        `/api/article?${q({ filters: [{ name: 'author', op: 'has', val: { name: 'FIELD', op: 'is_null' } }] })}`,
        `/api/article?${q({ order_by: [{ field: 'author__FIELD' }] })}`,
        `/api/article?${q({ group_by: [{ field: 'author__FIELD' }] })}`,
        `/api/comment?${q({ filters: [{ name: 'article', op: 'has', val: { name: 'author__FIELD', op: 'is_null' } }] })}`,
        `/api/eval/person?${q({ functions: [{ name: 'max', field: 'FIELD' }] })}`,
        `/api/eval/person?${q({ functions: [{ name: 'count', field: 'id' }], filters: [{ name: 'FIELD', op: 'is_null' }] })}`,
        `/api/eval/article?${q({ functions: [{ name: 'count', field: 'id' }], filters: [{ name: 'author__FIELD', op: 'is_null' }] })}`,
      ];
      for (const template of templates) await same(template);
    });

    it('answers a collection the role has no rule for exactly as an unknown collection', async () => {
      const same = async (a: string, b: string, auth = tenant1) => {
        const hidden = await t().http.get(a, auth);
        const unknown = await t().http.get(b, auth);
        expect(hidden.status, a).to.equal(404);
        expect(hidden.body, a).to.have.all.keys('message');
        const name = a.split('/')[a.includes('/eval/') ? 3 : 2]!.split('?')[0]!;
        expect(hidden.text.replaceAll(name, 'C'), a).to.equal(unknown.text.replaceAll('nosuchcollection', 'C'));
      };
      await same('/api/task', '/api/nosuchcollection');
      await same('/api/task/1', '/api/nosuchcollection/1');
      await same('/api/person_names/1', '/api/nosuchcollection/1');
      await same(
        `/api/eval/task?${q({ functions: [{ name: 'count', field: 'id' }] })}`,
        `/api/eval/nosuchcollection?${q({ functions: [{ name: 'count', field: 'id' }] })}`,
      );
      await same('/api/person', '/api/nosuchcollection', { headers: {} });
    });

    it('a token without the claim a rule needs sees no row, never every row', async () => {
      const res = await t().http.get('/api/person', bearer(await token('member')));
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ num_results: 0, total_pages: 0, page: 1, objects: [] });
    });

    it('refuses a bad token with 401 in its own error shape, never as anonymous', async () => {
      const bad = await t().http.get('/api/tag', bearer(tampered(await token('member', { tenant: 1 }))));
      expect(bad.status).to.equal(401);
      expect(bad.headers.get('www-authenticate')).to.equal('Bearer error="invalid_token"');
      expect(bad.body).to.have.all.keys('message');
      const stranger = await t().http.get('/api/tag', bearer(await token('stranger')));
      expect(stranger.status).to.equal(403);
      expect(stranger.body).to.have.all.keys('message');
    });
  },
  { format: 'legacy', api: { access: ACCESS }, seed: false },
);
