import type { TestResponse, TestTarget } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';

export const ATOMIC_EXT = 'https://jsonapi.org/ext/atomic';
export const ATOMIC_TYPE = `application/vnd.api+json; ext="${ATOMIC_EXT}"`;
export const ATOMIC_HEADERS = { accept: ATOMIC_TYPE, 'content-type': ATOMIC_TYPE };

/** POSTs atomic operations with the extension's media type (unless `headers` say otherwise). */
export function atomic(
  t: TestTarget,
  operations: unknown[],
  headers: Record<string, string> = {},
  path = '/api/operations',
) {
  return t.http.post(path, { 'atomic:operations': operations }, { headers: { ...ATOMIC_HEADERS, ...headers } });
}

/** The results of a 200 answer, its media type and jsonapi member checked. */
export function resultsOf(res: TestResponse): { data?: any; meta?: unknown }[] {
  expect(res.status, res.text).to.equal(200);
  expect(res.headers.get('content-type')).to.equal(ATOMIC_TYPE);
  expect(res.headers.get('vary')).to.match(/\bAccept\b/);
  expect(res.body.jsonapi).to.deep.equal({ version: '1.1', ext: [ATOMIC_EXT] });
  return res.body['atomic:results'];
}

/** The errors of an answer with `status`, each `{status, pointer}` in order. */
export function errorsOf(res: TestResponse, status: number): { status: string; pointer?: string; detail: string }[] {
  expect(res.status, res.text).to.equal(status);
  expect(res.body?.errors, res.text).to.be.an('array');
  return res.body.errors.map((e: any) => ({
    status: e.status,
    detail: e.detail,
    ...(e.source?.pointer !== undefined ? { pointer: e.source.pointer } : {}),
  }));
}

/** One error of an answer: its status and pointer. */
export function expectOneError(res: TestResponse, status: number, pointer?: string): string {
  const errors = errorsOf(res, status);
  expect(errors, res.text).to.have.lengthOf(1);
  if (pointer !== undefined) expect(errors[0]!.pointer, res.text).to.equal(pointer);
  return errors[0]!.detail;
}

/** A resource object of an operation. */
export const res = (
  type: string,
  attributes?: Record<string, unknown>,
  relationships?: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) => ({
  type,
  ...extra,
  ...(attributes ? { attributes } : {}),
  ...(relationships
    ? { relationships: Object.fromEntries(Object.entries(relationships).map(([k, v]) => [k, { data: v }])) }
    : {}),
});

export const id = (type: string, value: string | number) => ({ type, id: String(value) });
export const lid = (type: string, value: string) => ({ type, lid: value });
