import { filterParam, type TestResponse, type TestTarget } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';

/** One row of a filter case table: a filter list on a collection and the ids it must match, in id order. */
export interface FilterCase {
  readonly name: string;
  readonly collection: string;
  readonly filter: unknown;
  readonly expected: readonly number[];
}

/** The ids of the primary data of a collection document, in order. */
export const ids = (res: TestResponse): string[] => (res.body.data as { id: string }[]).map((r) => r.id);

/** Expected ids as the strings JSON:API sends. */
export const asIds = (expected: readonly number[]): string[] => expected.map(String);

/** A GET that must answer 200; the failure message shows the body. */
export async function getOk(t: TestTarget, path: string): Promise<TestResponse> {
  const res = await t.http.get(path);
  expect(res.status, `GET ${path} answered ${res.status}: ${res.text}`).to.equal(200);
  return res;
}

/** The ids a filter list matches on a collection (one page of 100). */
export async function filteredIds(t: TestTarget, collection: string, filter: unknown): Promise<string[]> {
  return ids(await getOk(t, `/api/${collection}?${filterParam(filter)}&page[size]=100`));
}

/** Checks a JSON:API error document with one error object; returns that object. */
export function expectError(
  res: TestResponse,
  status: number,
  parameter?: string,
): { status: string; title: string; detail: string; source?: { parameter?: string } } {
  expect(res.status, res.text).to.equal(status);
  expect(res.headers.get('content-type'), res.text).to.match(/^application\/vnd\.api\+json/);
  expect(res.body, res.text).to.be.an('object');
  expect(res.body.errors, res.text).to.be.an('array').with.lengthOf(1);
  expect(res.body).to.not.have.property('data');
  const error = res.body.errors[0];
  expect(error.status).to.equal(String(status));
  expect(error.title).to.be.a('string').and.not.equal('');
  expect(error.detail).to.be.a('string').and.not.equal('');
  if (parameter !== undefined) expect(error.source, res.text).to.deep.equal({ parameter });
  return error;
}

/** Today's date in UTC, as the databases of the tests (all on UTC) see it. */
export const todayUtc = (): string => new Date().toISOString().slice(0, 10);
