import { signDevelopmentToken, validateAuthConfig } from '@colapi/auth';
import type { AccessOptions } from '@colapi/server-koa';
import type { SeedData } from '@colapi/test-fixtures/testing';

/**
 * Two tenants in the conformance schema: a person's tenant is its `age` (1 or 2), an article's its
 * author's, a comment's its article's. Every text of tenant 2 carries MARK, so that a scan of a response
 * finds any of it; ids of tenant 2 are listed per type.
 */
export const MARK = 'ZZT2';

export const TENANT_DATA: SeedData = {
  person: [
    { id: 1, name: 'ann', age: 1, birthday: '1990-01-01' },
    { id: 2, name: `bob ${MARK}`, age: 2, birthday: '1991-02-02' },
    { id: 3, name: 'cid', age: 1, birthday: '1992-03-03' },
    { id: 4, name: `dan ${MARK}`, age: 2, birthday: '1993-04-04' },
  ],
  article: [
    { id: 1, title: 'first', author_id: 1, publishtime: '2024-01-01T00:00:00' },
    { id: 2, title: `second ${MARK}`, author_id: 2, publishtime: '2024-01-02T00:00:00' },
    { id: 3, title: 'third', author_id: 3, publishtime: '2024-01-03T00:00:00' },
    { id: 4, title: `fourth ${MARK}`, author_id: 4, publishtime: '2024-01-04T00:00:00' },
  ],
  // Comment 1 is tenant 1's (on article 1) but written by tenant 2's bob: its author must not show.
  comment: [
    { id: 1, content: 'on first', article_id: 1, author_id: 2 },
    { id: 2, content: `on second ${MARK}`, article_id: 2, author_id: 1 },
    { id: 3, content: 'on third', article_id: 3, author_id: 3 },
    { id: 4, content: `on fourth ${MARK}`, article_id: 4, author_id: 4 },
  ],
  tag: [
    { id: 1, name: 'shared' },
    { id: 2, name: 'lonely' },
  ],
  article_tag: [
    { article_id: 1, tag_id: 1 },
    { article_id: 2, tag_id: 1 },
    { article_id: 4, tag_id: 2 },
  ],
};

/** What tenant 2 owns, by type: no response to tenant 1 may name one of these. */
export const TENANT_2_IDS: Readonly<Record<string, readonly string[]>> = {
  person: ['2', '4'],
  person_names: ['2', '4'],
  person_private: ['2', '4'],
  article: ['2', '4'],
  comment: ['2', '4'],
};

const tenantWhere = (path: string) => {
  // A person's tenant is its age; the others reach it through their relationships.
  let filter: Record<string, unknown> = { name: 'age', op: '==', val: { claim: 'tenant' } };
  for (const relation of path ? path.split('.').reverse() : []) filter = { name: relation, op: 'has', val: filter };
  return [filter];
};

export const AUTH = {
  jwt: [
    {
      secret: 'a-test-secret-of-at-least-thirty-two-characters',
      algorithms: ['HS256'],
      issuer: 'https://id.test',
      audience: 'colapi',
    },
  ],
  roleClaim: 'role',
  anonymous: 'anon',
};

/** A member's own rows: those whose author is the person its token names (`person` claim). */
const own = [{ name: 'author_id', op: '==', val: { claim: 'person' } }];

export const ROLES = {
  member: {
    person: {
      read: { where: tenantWhere(''), exclude: ['birthday'] },
      update: { where: [{ name: 'id', op: '==', val: { claim: 'person' } }], columns: ['name'] },
      evaluate: true,
    },
    article: {
      read: { where: tenantWhere('author') },
      create: {
        set: { author_id: { claim: 'person' } },
        check: [{ name: 'title', op: 'not_like', val: '%forbidden%' }],
      },
      update: { where: own, check: [{ name: 'title', op: 'not_like', val: '%forbidden%' }] },
      delete: { where: own },
      evaluate: true,
    },
    comment: { read: { where: tenantWhere('article.author') } },
    tag: { read: true, create: true, update: true },
  },
  anon: { tag: { read: true } },
};

/** The audit lines the servers of these tests wrote, in order. */
export const AUDIT_LINES: string[] = [];

export const ACCESS: AccessOptions = { auth: AUTH, roles: ROLES, audit: (line) => AUDIT_LINES.push(line) };

/** A token the server accepts. */
export function token(role: string, claims: Record<string, string | number | boolean> = {}): Promise<string> {
  return signDevelopmentToken(validateAuthConfig(AUTH, 'test'), { role, sub: 'u1', claims, expiresIn: '1h' });
}

export const bearer = (t: string) => ({ headers: { authorization: `Bearer ${t}` } });

/**
 * The token with one character of its signature changed: the first, whose six bits are all signature (the
 * last character of an HS256 signature carries two bits base64url decoders ignore, so changing the end may
 * change nothing, one token in a thousand).
 */
export function tampered(token: string): string {
  const at = token.lastIndexOf('.') + 1;
  return `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
}
