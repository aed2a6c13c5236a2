import { signDevelopmentToken, validateAuthConfig } from '@colapi/auth';
import type { AccessOptions } from '@colapi/server-koa';

/**
 * The access variant (`pnpm bench --access`): an HS256 token and a tenant `where` on every collection, its
 * value read from the token. The bench's data set has no tenant column, so the rule stands in for one: every
 * row but the one whose key the `excluded` claim names (0: none), `id != claim`. Both servers then answer the
 * same documents, and PostgreSQL estimates the rule as it estimates a tenant column's equality in a database
 * of one tenant: keeping every row, whatever the value. (The first stand-in, `id >= claim`, was a range on a
 * bound value, which a generic plan estimates at a third of the table: plans no tenant rule gets.) The target
 * pays for everything a tenant rule costs: the token's verification, the role's view, the scope compiled into
 * every table source of every statement, and the write rules.
 */
const SECRET = 'the-bench-secret-of-at-least-thirty-two-characters';
const AUTH = { jwt: [{ secret: SECRET, algorithms: ['HS256'], audience: 'colapi-bench' }] };
const tenant = { where: [{ name: 'id', op: '!=', val: { claim: 'excluded' } }] };
const ALL = { read: tenant, create: true, update: tenant, delete: tenant, evaluate: true };

export const BENCH_ACCESS: AccessOptions = { auth: AUTH, roles: { member: { '*': ALL } } };

/** The same rules in PostgreSQL's native mode: each request's transaction sets the role `member` and the claims first. */
export const BENCH_ACCESS_NATIVE: AccessOptions = { ...BENCH_ACCESS, auth: { ...AUTH, databaseRoles: true } };

/**
 * What the native mode needs of the database: the role it switches to, able to do what the rules allow (no
 * row-level security policy: the rules alone restrict the rows, as in the other variant, so the two measure
 * the same reads plus what the mode itself costs).
 */
export const NATIVE_ROLE_SQL = [
  `do $$ begin if not exists (select from pg_roles where rolname = 'member') then create role member nologin; end if; end $$`,
  'grant select, insert, update, delete on all tables in schema public to member',
  'grant usage, select on all sequences in schema public to member',
];

/** The header every request of the access variant carries. */
export async function benchAuthorization(): Promise<string> {
  const token = await signDevelopmentToken(validateAuthConfig(AUTH, 'bench'), {
    role: 'member',
    sub: 'bench',
    claims: { excluded: 0 },
    expiresIn: '1d',
  });
  return `Bearer ${token}`;
}
