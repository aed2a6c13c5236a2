import type { TestResponse, TestTarget } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';

/*
 * The standard dataset (test-fixtures/src/testing/seed.ts):
 * person 1 Alice 25 · 2 bob 17 · 3 Carol null · 4 dave 40 · 5 Eve 18.
 * article 1 'Hello World' (Alice) · 2 'hello again' (Alice) · 3 'Databases 101' (bob) · 4 'Untitled' (none) · 5 '100% pure' (dave).
 * comment 1 on article 1 by bob · 2 on article 1 by Carol · 3 on article 3 by Alice · 4 on nothing by nobody.
 * tag 1 news (article 1) · 2 tech (articles 1, 3) · 3 life (article 5).
 */

/** `?q=` with a search object, percent-encoded. */
export const q = (search: unknown): string => `q=${encodeURIComponent(JSON.stringify(search))}`;

/** The ids of the objects of a list object, in order. */
export const ids = (res: TestResponse): number[] => (res.body.objects as { id: number }[]).map((o) => o.id);

/** A request that must answer `status`; the failure message shows the body. */
export function expectStatus(res: TestResponse, status: number, what = ''): TestResponse {
  expect(res.status, `${what} answered ${res.status}: ${res.text}`).to.equal(status);
  return res;
}

export async function getOk(t: TestTarget, path: string): Promise<TestResponse> {
  return expectStatus(await t.http.get(path), 200, `GET ${path}`);
}

/** A list object of a GET, checked for its shape. */
export async function getList(t: TestTarget, path: string): Promise<TestResponse> {
  const res = await getOk(t, path);
  expect(res.body).to.have.all.keys('num_results', 'total_pages', 'page', 'objects');
  expect(res.body.objects).to.be.an('array');
  return res;
}

/** A Format B error: the status and a `{message}` body, and nothing else. */
export function expectMessage(res: TestResponse, status: number, message?: string | RegExp): string {
  expect(res.status, res.text).to.equal(status);
  expect(res.headers.get('content-type'), res.text).to.match(/^application\/json/);
  expect(res.body, res.text).to.have.all.keys('message');
  expect(res.body.message).to.be.a('string').and.not.equal('');
  if (typeof message === 'string') expect(res.body.message).to.equal(message);
  else if (message) expect(res.body.message).to.match(message);
  return res.body.message;
}

/** Rows of a table read straight from the database, in id order: what a request left behind. */
export async function rows(
  t: TestTarget,
  table: string,
  where: Record<string, unknown> = {},
): Promise<Record<string, unknown>[]> {
  return t.target.database
    .knex(table)
    .where(where)
    .orderBy(table === 'article_tag' ? ['article_id', 'tag_id'] : ['id']);
}

export async function count(t: TestTarget, table: string): Promise<number> {
  const [row] = await t.target.database.knex(table).count({ n: '*' });
  return Number((row as { n: unknown }).n);
}

/** The tag ids of an article, from the join table. */
export async function tagIds(t: TestTarget, articleId: number): Promise<number[]> {
  return (await rows(t, 'article_tag', { article_id: articleId })).map((r) => Number(r.tag_id));
}

/** Everything the standard dataset holds, as a fingerprint: a request that failed must leave it unchanged. */
export async function snapshot(t: TestTarget): Promise<string> {
  const out: Record<string, unknown> = {};
  for (const table of ['person', 'article', 'comment', 'tag', 'article_tag', 'task']) out[table] = await rows(t, table);
  return JSON.stringify(out);
}

export const ALICE = {
  id: 1,
  name: 'Alice',
  age: 25,
  other: 1.5,
  birthday: '1999-01-15',
  birth_datetime: '1999-01-15T08:30:00',
  bedtime: '22:30:00',
  is_minor: false,
};
