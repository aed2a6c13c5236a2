import { countQueries, describeEachDatabase, tableDigest, type TestResponse } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { ACCESS, AUDIT_LINES, bearer, TENANT_DATA, token } from './tenants.js';

const article = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>, id?: string) => ({
  data: { type: 'article', ...(id ? { id } : {}), attributes, ...(relationships ? { relationships } : {}) },
});

describeEachDatabase(
  'access control: writes under the rules (Format A)',
  (t) => {
    let ann: { headers: Record<string, string> }; // tenant 1, person 1
    let cid: { headers: Record<string, string> }; // tenant 1, person 3
    beforeEach(async () => {
      await t().seed(TENANT_DATA);
      ann = bearer(await token('member', { tenant: 1, person: 1 }));
      cid = bearer(await token('member', { tenant: 1, person: 3 }));
    });

    /** A refused write: the status, and no row of any table changed. */
    async function refused(status: number, send: () => Promise<TestResponse>) {
      const before = await tableDigest(t().target.database.knex);
      const res = await send();
      expect(res.status, res.text).to.equal(status);
      expect(await tableDigest(t().target.database.knex), 'a refused write changed rows').to.equal(before);
      return res;
    }

    it('sets the owner column from the token on create, and answers the new row', async () => {
      const res = await t().http.post('/api/article', article({ title: 'mine' }), ann);
      expect(res.status, res.text).to.equal(201);
      const row = await t()
        .target.database.knex('article')
        .where({ id: Number(res.body.data.id) })
        .first();
      expect(row.author_id).to.equal(1);
    });

    it('refuses a create that sends a field the rules set (403, with a pointer), changing nothing', async () => {
      const res = await refused(403, () =>
        t().http.post('/api/article', article({ title: 'x' }, { author: { data: { type: 'person', id: '3' } } }), ann),
      );
      expect(res.text).to.contain('/data/relationships/author');
    });

    it('refuses a create whose check fails, and rolls it back', async () => {
      await refused(403, () => t().http.post('/api/article', article({ title: 'a forbidden title' }), ann));
    });

    it('checks a bare create in its one statement where the database can refuse it and returns its row (PostgreSQL, MariaDB 10.5+, SQLite), else in a transaction (MySQL)', async () => {
      const { knex, dialect } = t().target.database;
      const oneStatement =
        dialect.refuseUnless !== undefined &&
        (dialect.returning || (await dialect.returnsInsertedRows?.(knex)) === true);
      const { result, sql } = await countQueries(knex, () =>
        t().http.post('/api/article', article({ title: 'in one' }), ann),
      );
      expect(result.status, result.text).to.equal(201);
      expect(result.body.data.attributes.title).to.equal('in one');
      expect(result.body.data.relationships.author.data).to.deep.equal({ type: 'person', id: '1' });
      const text = sql.join('\n');
      if (oneStatement) {
        expect(sql, text).to.have.length(1);
        expect(text).to.match(/^insert into/i);
      } else {
        expect(text).to.match(/\bbegin\b/i);
      }
      // The same statement for another member of the role, bound with its own claims.
      const again = await countQueries(knex, () => t().http.post('/api/article', article({ title: 'by cid' }), cid));
      expect(again.result.body.data.relationships.author.data).to.deep.equal({ type: 'person', id: '3' });
      if (oneStatement) expect(again.sql).to.deep.equal(sql);
    });

    it('refuses a bare create whose owner, set from the token, is a row the caller cannot read: missing, nothing written', async () => {
      // Tenant 1's token naming tenant 2's person as its own: the new article would be tenant 2's.
      const astray = bearer(await token('member', { tenant: 1, person: 2 }));
      await refused(404, () => t().http.post('/api/article', article({ title: 'astray' }), astray));
      // A person that does not exist is answered the same.
      const nobody = bearer(await token('member', { tenant: 1, person: 99 }));
      await refused(404, () => t().http.post('/api/article', article({ title: 'nobody' }), nobody));
    });

    it('updates its own article; another member of the tenant may read it but not update it (403)', async () => {
      const mine = await t().http.patch('/api/article/1', article({ title: 'renamed' }, undefined, '1'), ann);
      expect(mine.status, mine.text).to.equal(200);
      await refused(403, () => t().http.patch('/api/article/1', article({ title: 'stolen' }, undefined, '1'), cid));
    });

    it('takes back in If-Match the Resource-ETag its read gave, though the rules hide a field of the row', async () => {
      // person hides `birthday` from members: the tag stands for what the caller can see of the row.
      const read = await t().http.get('/api/person/1?include=articles', ann);
      const tag = read.headers.get('resource-etag');
      expect(tag, read.text).to.be.a('string');
      const body = { data: { type: 'person', id: '1', attributes: { name: 'ann again' } } };
      const res = await t().http.patch('/api/person/1', body, { headers: { ...ann.headers, 'if-match': tag! } });
      expect(res.status, res.text).to.equal(200);
      const stale = await refused(412, () =>
        t().http.patch('/api/person/1', body, { headers: { ...ann.headers, 'if-match': tag! } }),
      );
      expect(stale.body.errors[0].source).to.deep.equal({ header: 'If-Match' });
    });

    it('answers an update of a row it cannot read as missing (404), not forbidden', async () => {
      const hidden = await refused(404, () =>
        t().http.patch('/api/article/2', article({ title: 'x' }, undefined, '2'), ann),
      );
      const missing = await t().http.patch('/api/article/999', article({ title: 'x' }, undefined, '999'), ann);
      expect(hidden.text.replaceAll(/\b2\b/g, 'ID')).to.equal(missing.text.replaceAll('999', 'ID'));
    });

    it('refuses an update that would move its row out of its scope (the owner change), changing nothing', async () => {
      await refused(403, () =>
        t().http.patch('/api/article/1', article({}, { author: { data: { type: 'person', id: '3' } } }, '1'), ann),
      );
      await refused(403, () =>
        t().http.patch('/api/article/1/relationships/author', { data: { type: 'person', id: '3' } }, ann),
      );
    });

    it('refuses a field outside the update columns with a pointer to it', async () => {
      const res = await refused(403, () =>
        t().http.patch('/api/person/1', { data: { type: 'person', id: '1', attributes: { age: 2 } } }, ann),
      );
      expect(res.body.errors[0].source).to.deep.equal({ pointer: '/data/attributes/age' });
      const ok = await t().http.patch(
        '/api/person/1',
        { data: { type: 'person', id: '1', attributes: { name: 'anna' } } },
        ann,
      );
      expect(ok.status, ok.text).to.equal(200);
    });

    it('refuses a link to a row it cannot read as missing (404), changing nothing', async () => {
      await refused(404, () =>
        t().http.post('/api/article/1/relationships/comments', { data: [{ type: 'comment', id: '2' }] }, ann),
      );
      await refused(404, () =>
        t().http.patch(
          '/api/tag/1',
          { data: { type: 'tag', id: '1', relationships: { articles: { data: [{ type: 'article', id: '2' }] } } } },
          ann,
        ),
      );
    });

    it('deletes its own article only: another member is refused (403), a hidden one is missing (404)', async () => {
      await t().target.database.knex('article_tag').where({ article_id: 3 }).delete();
      await t().target.database.knex('comment').where({ article_id: 3 }).delete();
      await refused(403, () => t().http.delete('/api/article/3', ann));
      await refused(404, () => t().http.delete('/api/article/2', ann));
      const own = await t().http.delete('/api/article/3', cid);
      expect(own.status, own.text).to.equal(204);
    });

    it('writes one audit line per 401, 403 and successful write, with exactly its members and never the token', async () => {
      AUDIT_LINES.length = 0;
      const raw = ann.headers.authorization!.slice('Bearer '.length);
      const created = await t().http.post('/api/article', article({ title: 'audited' }), ann);
      await t().http.patch('/api/article/1', article({ title: 'x' }, undefined, '1'), cid);
      await t().http.get('/api/article', bearer(`${raw}x`));
      await t().http.get('/api/article', ann);
      const lines = AUDIT_LINES.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.map((l) => Object.keys(l))).to.deep.equal(
        Array(3).fill(['time', 'sub', 'role', 'method', 'collection', 'id', 'status']),
      );
      const shown = lines.map(({ time: _, ...rest }) => rest);
      expect(shown).to.deep.equal([
        { sub: 'u1', role: 'member', method: 'POST', collection: 'article', id: created.body.data.id, status: 201 },
        { sub: 'u1', role: 'member', method: 'PATCH', collection: 'article', id: '1', status: 403 },
        { sub: null, role: null, method: 'GET', collection: 'article', id: null, status: 401 },
      ]);
      expect(AUDIT_LINES.join('\n')).not.to.contain(raw.slice(0, 20));
    });

    it('refuses every write to an anonymous caller, and a collection without the action', async () => {
      await refused(404, () => t().http.post('/api/article', article({ title: 'anon' })));
      await refused(403, () => t().http.delete('/api/tag/1', ann));
    });
  },
  { api: { access: ACCESS }, seed: false },
);
