import { describeEachDatabase, type TestResponse } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { ACCESS, bearer, MARK, ROLES, TENANT_2_IDS, TENANT_DATA, tampered, token } from './tenants.js';

const CURSOR_PROFILE = 'https://jsonapi.org/profiles/ethanresnick/cursor-pagination';

/** Every resource identifier in a document (data, included, linkage), as `type/id`. */
function identifiers(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) identifiers(v, found);
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.type === 'string' && typeof o.id === 'string') found.push(`${o.type}/${o.id}`);
    for (const v of Object.values(o)) identifiers(v, found);
  }
  return found;
}

/** Nothing of tenant 2 anywhere in a response: its texts, its ids in any document member, link or header. */
function expectNothingOfTenant2(res: TestResponse, path: string): void {
  const headers = [...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n');
  expect(res.text, path).not.to.contain(MARK);
  expect(headers, path).not.to.contain(MARK);
  for (const id of identifiers(res.body)) {
    const [type, n] = id.split('/');
    expect(TENANT_2_IDS[type!] ?? [], `${path}: ${id}`).not.to.include(n);
  }
  for (const [type, ids] of Object.entries(TENANT_2_IDS)) {
    for (const n of ids) {
      expect(`${res.text}\n${headers}`, `${path}: a link to ${type}/${n}`).not.to.match(
        new RegExp(`/${type}/${n}(?![0-9])`),
      );
    }
  }
}

const json = (v: unknown) => encodeURIComponent(JSON.stringify(v));

/** Every read path of Format A, as tenant 1 asks them. */
const READS = [
  '/api/person',
  '/api/person?include=articles,comments',
  '/api/person?sort=-name&page[size]=1&page[number]=2',
  '/api/person/1',
  '/api/person/1?include=articles.comments.author',
  '/api/person/1/articles',
  '/api/person/1/comments?include=article.author',
  '/api/person/1/relationships/comments',
  '/api/article',
  '/api/article?include=author,comments,tags',
  '/api/article?sort=author.name',
  `/api/article?filter[objects]=${json([{ name: 'author', op: 'has', val: { name: 'name', op: 'like', val: '%' } }])}`,
  `/api/article?filter[objects]=${json([{ name: 'comments', op: 'any', val: { name: 'content', op: 'like', val: '%' } }])}`,
  '/api/article/1?include=comments.author,tags.articles',
  '/api/article/1/comments?include=author',
  '/api/article/1/author',
  '/api/article/1/relationships/comments',
  '/api/article/1/relationships/author',
  '/api/comment?include=article,author',
  '/api/comment/1?include=author,article.author',
  '/api/comment/1/author',
  '/api/comment/1/relationships/author',
  '/api/tag?include=articles',
  '/api/tag/1?include=articles.author',
  '/api/tag/1/articles?include=comments',
  '/api/tag/2/articles',
  '/api/tag/1/relationships/articles',
  `/api/eval/person?functions=${json([
    { name: 'count', field: 'id' },
    { name: 'max', field: 'name' },
  ])}`,
  `/api/eval/article?functions=${json([{ name: 'count', field: 'id' }])}`,
  `/api/person?filter[objects]=${json([{ name: 'name', op: 'like', val: '%' }])}&filter[single]=1&page[size]=1`,
];

describeEachDatabase(
  'access control: every read path holds tenant 1 to its rows',
  (t) => {
    let tenant1: { headers: Record<string, string> };
    before(async () => {
      await t().seed(TENANT_DATA);
      tenant1 = bearer(await token('member', { tenant: 1 }));
    });

    for (const path of READS) {
      it(`GET ${decodeURIComponent(path)}`, async () => {
        const res = await t().http.get(path, tenant1);
        // filter[single] over two matching rows is an error, and says nothing of tenant 2 either.
        if (!path.includes('filter[single]')) expect(res.status, res.text).to.equal(200);
        expectNothingOfTenant2(res, path);
      });
    }

    it('counts only tenant 1 in meta.total, the last link and eval', async () => {
      const people = await t().http.get('/api/person?page[size]=1', tenant1);
      expect(people.body.meta.total).to.equal(2);
      expect(people.body.links.last).to.match(/page%5Bnumber%5D=2|page\[number\]=2/);
      const count = await t().http.get(
        `/api/eval/article?functions=${json([{ name: 'count', field: 'id' }])}`,
        tenant1,
      );
      expect(count.body.data ?? count.body).to.satisfy((v: unknown) => JSON.stringify(v).includes('2'));
      expect(JSON.stringify(count.body)).not.to.contain('4');
    });

    it('shows a relationship to a row it may not read as empty, not as its id', async () => {
      const comment = await t().http.get('/api/comment/1/relationships/author', tenant1);
      expect(comment.body.data).to.equal(null);
      const person1 = await t().http.get('/api/person/1/relationships/comments', tenant1);
      expect(person1.body.data).to.deep.equal([]);
    });

    it('answers a row of tenant 2 exactly as a missing one, wherever an id is addressed', async () => {
      // The id of tenant 2's row (2) and a missing one (999) in the same place of the same path.
      const paths = [
        '/api/person/ID',
        '/api/person/ID/articles',
        '/api/person/ID/relationships/articles',
        '/api/article/ID/author',
        '/api/article/ID/comments',
        '/api/article/1/comments/ID',
        '/api/tag/1/articles/ID',
      ];
      for (const path of paths) {
        const hidden = await t().http.get(path.replace('ID', '2'), tenant1);
        const missing = await t().http.get(path.replace('ID', '999'), tenant1);
        expect(hidden.status, path).to.equal(404);
        expect(hidden.text.replaceAll(/\b2\b/g, 'ID'), path).to.equal(missing.text.replaceAll('999', 'ID'));
      }
    });

    it('answers a field read hides exactly as an unknown one, in every parameter', async () => {
      const same = async (hidden: string, unknown: string) => {
        const a = await t().http.get(hidden, tenant1);
        const b = await t().http.get(unknown, tenant1);
        expect(a.status, hidden).to.equal(400);
        expect(a.text.replaceAll('birthday', 'F'), hidden).to.equal(b.text.replaceAll('nosuchfield', 'F'));
      };
      await same('/api/person?fields[person]=birthday', '/api/person?fields[person]=nosuchfield');
      await same('/api/person?sort=birthday', '/api/person?sort=nosuchfield');
      await same(
        `/api/person?filter[objects]=${json([{ name: 'birthday', op: 'is_null' }])}`,
        `/api/person?filter[objects]=${json([{ name: 'nosuchfield', op: 'is_null' }])}`,
      );
      await same(
        `/api/article?filter[objects]=${json([{ name: 'author.birthday', op: 'is_null' }])}`,
        `/api/article?filter[objects]=${json([{ name: 'author.nosuchfield', op: 'is_null' }])}`,
      );
      await same(
        `/api/eval/person?functions=${json([{ name: 'max', field: 'birthday' }])}`,
        `/api/eval/person?functions=${json([{ name: 'max', field: 'nosuchfield' }])}`,
      );
    });

    it('answers a collection the role has no rule for exactly as an unknown collection', async () => {
      const a = await t().http.get('/api/task', tenant1);
      const b = await t().http.get('/api/nosuchcollection', tenant1);
      expect(a.status).to.equal(404);
      expect(a.text.replaceAll('task', 'C')).to.equal(b.text.replaceAll('nosuchcollection', 'C'));
      const anon = await t().http.get('/api/person');
      const anonUnknown = await t().http.get('/api/nosuchcollection');
      expect(anon.text.replaceAll('person', 'C')).to.equal(anonUnknown.text.replaceAll('nosuchcollection', 'C'));
    });

    it('serves the anonymous role without credentials, and refuses a bad token with 401, never as anonymous', async () => {
      const tags = await t().http.get('/api/tag');
      expect(tags.status).to.equal(200);
      const bad = await t().http.get('/api/tag', bearer(tampered(await token('member', { tenant: 1 }))));
      expect(bad.status).to.equal(401);
      expect(bad.headers.get('www-authenticate')).to.equal('Bearer error="invalid_token"');
      expect(bad.body.errors[0].status).to.equal('401');
    });

    it('refuses a valid token whose role has no rules with 403', async () => {
      const res = await t().http.get('/api/tag', bearer(await token('stranger')));
      expect(res.status).to.equal(403);
    });

    it('pages by cursor through tenant 1 only, both ways, on collections and to-many related endpoints', async () => {
      const profile = { ...tenant1.headers, accept: `application/vnd.api+json; profile="${CURSOR_PROFILE}"` };
      const lists: [string, string[]][] = [
        ['/api/person?page[size]=1', ['1', '3']],
        ['/api/article?page[size]=1&sort=-title', ['1', '3']],
        ['/api/comment?page[size]=1&include=author', ['1', '3']],
        ['/api/person/1/articles?page[size]=1', ['1']],
        ['/api/tag/1/articles?page[size]=1', ['1']],
      ];
      for (const [first, expected] of lists) {
        const seen: string[] = [];
        let last: TestResponse | undefined;
        for (let next: string | null = first; next; ) {
          const res: TestResponse = await t().http.get(next, { headers: profile });
          expect(res.status, `${next}: ${res.text}`).to.equal(200);
          expectNothingOfTenant2(res, next);
          seen.push(...res.body.data.map((r: { id: string }) => r.id));
          last = res;
          next = res.body.links.next
            ? new URL(res.body.links.next, 'http://x').pathname + new URL(res.body.links.next, 'http://x').search
            : null;
          expect(seen.length, first).to.be.at.most(expected.length);
        }
        expect([...seen].sort(), first).to.deep.equal(expected);
        // And back from the last page, by `prev`.
        const back: string[] = [...last!.body.data.map((r: { id: string }) => r.id)];
        for (let prev: string | null = last!.body.links.prev; prev; ) {
          const at: string = new URL(prev, 'http://x').pathname + new URL(prev, 'http://x').search;
          const res: TestResponse = await t().http.get(at, { headers: profile });
          expect(res.status, at).to.equal(200);
          expectNothingOfTenant2(res, at);
          back.push(...res.body.data.map((r: { id: string }) => r.id));
          prev = res.body.links.prev;
        }
        expect([...back].sort(), `${first} backwards`).to.deep.equal(expected);
      }
    });

    it("gives tenant 1 the same validators (ETag, Resource-ETag) whatever happens to tenant 2's rows and to hidden fields", async () => {
      const tags = async () => {
        const found: Record<string, string> = {};
        for (const path of READS) {
          const res = await t().http.get(path, tenant1);
          found[path] = `${res.headers.get('etag')} ${res.headers.get('resource-etag')}`;
        }
        return found;
      };
      const before = await tags();
      const knex = t().target.database.knex;
      await knex('person')
        .whereIn('id', [2, 4])
        .update({ name: `renamed ${MARK}` });
      await knex('article')
        .whereIn('id', [2, 4])
        .update({ title: `retitled ${MARK}` });
      // A field read hides, of a row tenant 1 reads: its changes must not show either.
      await knex('person').where({ id: 1 }).update({ birthday: '1999-09-09' });
      await knex('article_tag').insert({ article_id: 2, tag_id: 2 });
      try {
        expect(await tags()).to.deep.equal(before);
      } finally {
        await t().seed(TENANT_DATA);
      }
    });

    it('a token without the claim a rule needs sees no row, never every row', async () => {
      const res = await t().http.get('/api/person', bearer(await token('member')));
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal([]);
      expect(res.body.meta.total).to.equal(0);
    });
  },
  { api: { access: ACCESS }, seed: false },
);

/** The tenant a `where` function answers for person, changed by the test between requests. */
let tenantOfTheFunction = 1;

describeEachDatabase(
  'access control: a where function is asked again for every request of the same token',
  (t) => {
    before(() => t().seed(TENANT_DATA));

    it('one token, two requests, two answers of the function: each request reads by its own', async () => {
      const same = bearer(await token('member', { tenant: 1 }));
      const names = async () =>
        ((await t().http.get('/api/person?sort=id', same)).body.data as { id: string }[]).map((r) => r.id);
      tenantOfTheFunction = 1;
      expect(await names()).to.deep.equal(['1', '3']);
      tenantOfTheFunction = 2;
      expect(await names()).to.deep.equal(['2', '4']);
    });
  },
  {
    api: {
      access: {
        ...ACCESS,
        roles: {
          ...ROLES,
          member: {
            person: { read: { where: () => [{ name: 'age', op: '==', val: tenantOfTheFunction }] } },
          },
        },
      },
    },
    seed: false,
  },
);
