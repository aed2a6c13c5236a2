import { ApiError } from '@colapi/query-ast';
import { expect } from 'chai';

/** The ApiError `run` throws; fails the test when it throws none or something else. */
export function apiError(run: () => unknown): ApiError {
  try {
    run();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  expect.fail('expected an ApiError, none was thrown');
}

/** Asserts the status, title, detail, source and headers of the error `run` throws. */
export function expectError(
  run: () => unknown,
  expected: {
    status: number;
    title?: string;
    detail?: string | RegExp;
    source?: { pointer?: string; parameter?: string };
    headers?: Record<string, string>;
  },
): ApiError {
  const e = apiError(run);
  expect(e.status, `status of "${e.detail}"`).to.equal(expected.status);
  if (expected.title !== undefined) expect(e.title).to.equal(expected.title);
  if (typeof expected.detail === 'string') expect(e.detail).to.equal(expected.detail);
  else if (expected.detail) expect(e.detail).to.match(expected.detail);
  expect(e.source, `source of "${e.detail}"`).to.deep.equal(expected.source);
  expect(e.headers).to.deep.equal(expected.headers);
  return e;
}
