import type { TestResponse, TestTarget } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';

/*
 * Helpers of the Format A write tests. The standard dataset (test-fixtures/src/testing/seed.ts):
 * person 1 Alice 25 · 2 bob 17 · 3 Carol null · 4 dave 40 · 5 Eve 18.
 * article 1 (Alice; comments 1, 2; tags 1, 2) · 2 (Alice) · 3 (bob; comment 3; tag 2) · 4 (nobody) · 5 (dave; tag 3).
 * comment 4 belongs to no article and no person. tag 1 news · 2 tech · 3 life. task 1 3600 s · 2 90 s · 3 null.
 */

export interface JsonApiError {
  status: string;
  title: string;
  detail: string;
  source?: { pointer?: string; parameter?: string; header?: string };
}

/** Driver or SQL text that must never reach a client. */
const SQL_TEXT =
  /\b(select|insert into|update\s+\S+\s+set|delete from|sqlite_|er_\w+|errno|duplicate (key|entry)|constraint failed|violates)\b/i;

/** Checks a JSON:API error document holding one error; returns that error object. */
export function expectError(
  res: TestResponse,
  status: number,
  source?: { pointer?: string; parameter?: string; header?: string },
): JsonApiError {
  expect(res.status, res.text).to.equal(status);
  expect(res.headers.get('content-type'), res.text).to.match(/^application\/vnd\.api\+json/);
  expect(res.body?.errors, res.text).to.be.an('array').with.lengthOf(1);
  expect(res.body).to.not.have.property('data');
  expect(res.text, 'no SQL or driver text in an error').to.not.match(SQL_TEXT);
  const error = res.body.errors[0] as JsonApiError;
  expect(error.status).to.equal(String(status));
  expect(error.title).to.be.a('string').and.not.equal('');
  expect(error.detail).to.be.a('string').and.not.equal('');
  if (source !== undefined) expect(error.source, res.text).to.deep.equal(source);
  return error;
}

/** A response with the expected status; the failure message shows the body. */
export function expectStatus(res: TestResponse, status: number): TestResponse {
  expect(res.status, `answered ${res.status}: ${res.text}`).to.equal(status);
  return res;
}

/** A resource object of a request body. */
export function resource(
  type: string,
  attributes?: Record<string, unknown>,
  relationships?: Record<string, unknown>,
  id?: string,
) {
  return {
    data: {
      type,
      ...(id !== undefined ? { id } : {}),
      ...(attributes ? { attributes } : {}),
      ...(relationships
        ? { relationships: Object.fromEntries(Object.entries(relationships).map(([k, v]) => [k, { data: v }])) }
        : {}),
    },
  };
}

/** Resource identifiers of one type. */
export const refs = (type: string, ...ids: (string | number)[]) => ids.map((id) => ({ type, id: String(id) }));
export const ref = (type: string, id: string | number) => ({ type, id: String(id) });

/** Rows of a table matching `where`, read directly from the database. */
export async function rows(
  t: TestTarget,
  table: string,
  where: Record<string, unknown> = {},
): Promise<Record<string, unknown>[]> {
  return t.target.database.knex(table).where(where).select('*');
}

/** How many rows of a table match `where`. */
export async function count(t: TestTarget, table: string, where: Record<string, unknown> = {}): Promise<number> {
  const row = (await t.target.database.knex(table).where(where).count({ n: '*' }).first()) as { n: unknown };
  return Number(row.n);
}

/** The tag ids joined to an article, read from article_tag. */
export async function tagsOf(t: TestTarget, articleId: number): Promise<number[]> {
  const found = await t.target.database
    .knex('article_tag')
    .where({ article_id: articleId })
    .orderBy('tag_id')
    .select('tag_id');
  return found.map((r: { tag_id: unknown }) => Number(r.tag_id));
}

/** The row counts of every conformance table: a request that fails must leave them all as they were. */
export async function census(t: TestTarget): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of ['person', 'article', 'comment', 'tag', 'article_tag', 'network', 'task'])
    out[table] = await count(t, table);
  return out;
}
