import { signDevelopmentToken, validateAuthConfig } from '@colapi/auth';
import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { AUTH, bearer, TENANT_DATA } from './tenants.js';

/**
 * PostgreSQL's native mode (`auth.databaseRoles`): each request's transaction first acts as the caller's
 * role with its claims in `request.jwt.claims`, so the database's grants and row-level security policies
 * apply, written as for PostgREST. Here the colapi rules allow every row; a policy on `article` reading the
 * claims does the narrowing. Roles are the server's, not the database's: their names are unique per run.
 */
const suffix = randomBytes(4).toString('hex');
const MEMBER = `native_member_${suffix}`;
const ANON = `native_anon_${suffix}`;
const auth = { ...AUTH, anonymous: ANON, databaseRoles: true };
const everything = { read: true };
const roles = {
  [MEMBER]: { person: everything, article: everything, comment: everything, tag: everything },
  [ANON]: { article: everything },
};

const token = (claims: Record<string, string | number>) =>
  signDevelopmentToken(validateAuthConfig(auth, 'test'), { role: MEMBER, sub: 'u1', claims, expiresIn: '1h' });

describeEachDatabase(
  'access control: PostgreSQL native mode (database roles and row-level security)',
  (t) => {
    before(async () => {
      const knex = t().target.database.knex;
      await t().seed(TENANT_DATA);
      for (const role of [MEMBER, ANON]) {
        await knex.raw(`create role "${role}" nologin`);
        await knex.raw(`grant select, insert, update, delete on all tables in schema public to "${role}"`);
        await knex.raw(`grant usage on all sequences in schema public to "${role}"`);
      }
      await knex.raw('alter table article enable row level security');
      // Tenant 1's member sees the articles of the people of its tenant; the anonymous role only articles
      // whose title says "public" — and nothing at all if a request left claims with a tenant behind.
      await knex.raw(
        `create policy by_tenant on article to "${MEMBER}" using (author_id in (select id from person where age = (current_setting('request.jwt.claims', true)::json->>'tenant')::int))`,
      );
      await knex.raw(
        `create policy anonymous on article to "${ANON}" using ((current_setting('request.jwt.claims', true)::json->>'tenant') is null)`,
      );
    });
    after(async () => {
      const knex = t().target.database.knex;
      await knex.raw('drop policy if exists by_tenant on article');
      await knex.raw('drop policy if exists anonymous on article');
      await knex.raw('alter table article disable row level security');
      for (const role of [MEMBER, ANON]) {
        const { rows } = await knex.raw('select 1 from pg_roles where rolname = ?', [role]);
        if (rows.length) await knex.raw(`drop owned by "${role}"`);
        await knex.raw(`drop role if exists "${role}"`);
      }
    });

    it('row-level security on request.jwt.claims narrows what the role reads', async () => {
      const one = await t().http.get('/api/article', bearer(await token({ tenant: 1 })));
      expect(one.status, one.text).to.equal(200);
      expect(one.body.data.map((a: { id: string }) => a.id)).to.deep.equal(['1', '3']);
      expect(one.body.meta.total).to.equal(2);
      const two = await t().http.get('/api/article', bearer(await token({ tenant: 2 })));
      expect(two.body.data.map((a: { id: string }) => a.id)).to.deep.equal(['2', '4']);
    });

    it('the next request on the same connection sees neither the role nor the claims', async () => {
      // One connection in the pool: every request and the checks below share it.
      for (let i = 0; i < 3; i++) {
        const scoped = await t().http.get('/api/article', bearer(await token({ tenant: 1 })));
        expect(scoped.status).to.equal(200);
        const anonymous = await t().http.get('/api/article');
        expect(anonymous.status, anonymous.text).to.equal(200);
        expect(anonymous.body.data, 'the anonymous request saw claims left behind').to.have.length(4);
        const [row] = (
          await t().target.database.knex.raw(
            "select current_user as who, coalesce(current_setting('request.jwt.claims', true), '') as claims",
          )
        ).rows;
        expect(row.who).not.to.equal(MEMBER);
        expect(row.claims).to.equal('');
      }
    });

    it('the database refuses what the role was not granted, as a 403', async () => {
      const knex = t().target.database.knex;
      await knex.raw(`revoke select on tag from "${MEMBER}"`);
      try {
        const res = await t().http.get('/api/tag', bearer(await token({ tenant: 1 })));
        expect(res.status, res.text).to.equal(403);
      } finally {
        await knex.raw(`grant select on tag to "${MEMBER}"`);
      }
    });
  },
  { api: { access: { auth, roles } }, connect: { pool: { min: 1, max: 1 } }, seed: false, only: ['postgres'] },
);
