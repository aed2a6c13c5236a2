/**
 * The models, registry and request builder the unit tests of Format B share: no database, no HTTP. A
 * request is what the server would hand the format, built from a method, a path under `/api` and headers.
 */
import { defineModel, Registry, type CollectionSchema } from '@colapi/schema';
import { ApiError, DEFAULT_LIMITS, type Linkage, type ResourceNode } from '@colapi/query-ast';
import type { DecodeContext, HttpRequest, Route } from '@colapi/wire-format';
import { expect } from 'chai';

const person = defineModel({
  name: 'Person',
  table: 'person',
  columns: [
    { name: 'id', type: 'integer', nullable: false, generated: true },
    { name: 'name', type: 'string', nullable: false, maxLength: 10 },
    { name: 'age', type: 'integer', nullable: true },
    { name: 'born', type: 'date', nullable: true },
  ],
  relationships: [{ name: 'articles', cardinality: 'many', target: 'Article', join: { kind: 'has', ownColumn: 'id', targetColumn: 'author_id' } }],
  virtualAttributes: [{ name: 'initial', compute: (row) => String(row.name ?? '').slice(0, 1) }],
});

const article = defineModel({
  name: 'Article',
  table: 'article',
  columns: [
    { name: 'id', type: 'integer', nullable: false, generated: true },
    { name: 'title', type: 'string', nullable: false },
    { name: 'author_id', type: 'integer', nullable: true },
    { name: 'published', type: 'datetime', nullable: true },
  ],
  relationships: [
    { name: 'author', cardinality: 'one', target: 'Person', join: { kind: 'belongs-to', ownColumn: 'author_id', targetColumn: 'id' } },
    { name: 'comments', cardinality: 'many', target: 'Comment', join: { kind: 'has', ownColumn: 'id', targetColumn: 'article_id' } },
    {
      name: 'tags',
      cardinality: 'many',
      target: 'Tag',
      join: { kind: 'through', ownColumn: 'id', targetColumn: 'name', through: { table: 'article_tag', ownColumn: 'article_id', targetColumn: 'tag_name' } },
    },
  ],
});

const comment = defineModel({
  name: 'Comment',
  table: 'comment',
  columns: [
    { name: 'id', type: 'integer', nullable: false, generated: true },
    { name: 'body', type: 'string', nullable: true },
    { name: 'article_id', type: 'integer', nullable: true },
    { name: 'author_id', type: 'integer', nullable: true },
  ],
  relationships: [
    { name: 'article', cardinality: 'one', target: 'Article', join: { kind: 'belongs-to', ownColumn: 'article_id', targetColumn: 'id' } },
    { name: 'author', cardinality: 'one', target: 'Person', join: { kind: 'belongs-to', ownColumn: 'author_id', targetColumn: 'id' } },
  ],
});

/** A model keyed by a short string the client chooses: its key is not generated. */
const tag = defineModel({
  name: 'Tag',
  table: 'tag',
  key: 'name',
  columns: [
    { name: 'name', type: 'string', nullable: false, maxLength: 8 },
    { name: 'color', type: 'string', nullable: true },
  ],
});

export const registry = new Registry([
  { model: person, options: { additional_attributes: ['initial'], allow_functions: true } },
  { model: article },
  { model: comment },
  { model: tag },
  { model: person, options: { name: 'people_with_ids', allow_client_generated_ids: true } },
  { model: article, options: { name: 'locked_article', allow_to_many_replacement: false, allow_to_many_removal: false } },
  { model: person, options: { name: 'person_names', only: ['name'] } },
]);

export const collection = (name: string): CollectionSchema => {
  const c = registry.collection(name);
  if (!c) throw new Error(`no collection ${name} in the test registry`);
  return c;
};

export const ctx: DecodeContext = { registry, limits: DEFAULT_LIMITS, unsupportedOperator: () => undefined };

export const ORIGIN = 'http://example.com';
export const BASE = `${ORIGIN}/api`;

/** The route of a path under `/api`, as server-koa's router reads it. */
export function routeOf(pathname: string): Route {
  const segments = pathname.replace(/^\/api\//, '').split('/').map(decodeURIComponent);
  if (segments[0] === 'eval' && segments.length === 2) return { collection: segments[1]!, evaluate: true };
  const [c, id, third, fourth] = segments as [string, string?, string?, string?];
  if (id === undefined) return { collection: c };
  if (third === undefined) return { collection: c, id };
  if (third === 'relationships' && fourth !== undefined) return { collection: c, id, relation: fourth, relationships: true };
  if (fourth === undefined) return { collection: c, id, relation: third };
  return { collection: c, id, relation: third, relatedId: fourth };
}

export interface RequestInit {
  readonly headers?: Record<string, string>;
  /** The parsed JSON body; a request has a body exactly when this is given. */
  readonly body?: unknown;
}

/** A request as the server hands it to the format: `target` is a path under /api with its query. */
export function request(method: string, target: string, init: RequestInit = {}): HttpRequest {
  const url = new URL(target, ORIGIN);
  const hasBody = 'body' in init;
  return {
    method,
    url,
    base: BASE,
    route: routeOf(url.pathname),
    headers: init.headers ?? {},
    ...(hasBody ? { body: init.body } : {}),
    hasBody,
  };
}

/** A resource as the executor would load it. */
export function node(
  collectionName: string,
  id: string,
  values: Record<string, unknown>,
  linkage: Record<string, Linkage> = {},
  included: Record<string, ResourceNode | null | readonly ResourceNode[]> = {},
): ResourceNode {
  return { collection: collection(collectionName), id, values, linkage: new Map(Object.entries(linkage)), included: new Map(Object.entries(included)) };
}

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
  expected: { status: number; title?: string; detail?: string | RegExp; source?: { pointer?: string; parameter?: string }; headers?: Record<string, string> },
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
