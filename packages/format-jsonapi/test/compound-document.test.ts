import { expect } from 'chai';
import type { OperationResult, ResourceNode } from '@colapi/query-ast';
import { documentOf, type HttpRequest } from '@colapi/wire-format';
import { jsonApiFormat, resourceObject } from '../src/index.js';
import { BASE, collection, ctx, node, registry, request } from './fixtures.js';

const format = jsonApiFormat();

function included(req: HttpRequest, result: (op: ReturnType<typeof format.decode>) => OperationResult): unknown {
  const operation = format.decode(req, collection(req.route.collection), ctx);
  const body = documentOf(format.encode(req, operation, result(operation), ctx)) as Record<string, unknown>;
  return body.included;
}

const object = (n: ResourceNode, fields: Record<string, readonly string[]> = {}) =>
  resourceObject(n, BASE, registry, { fields });

// article 10 by Ann, with a comment by Bob and one by Ann; article 11 by Ann.
const ann = node('person', '1', { id: 1, name: 'Ann' });
const bob = node('person', '2', { id: 2, name: 'Bob' });
const c100 = node('comment', '100', { id: 100, body: 'first' }, { author: '2' }, { author: bob });
const c101 = node('comment', '101', { id: 101, body: 'second' }, { author: '1' }, { author: ann });
const a10 = node(
  'article',
  '10',
  { id: 10, title: 'Ten' },
  { author: '1', comments: ['100', '101'] },
  { author: ann, comments: [c100, c101] },
);
const a11 = node(
  'article',
  '11',
  { id: 11, title: 'Eleven' },
  { author: '1', comments: [] },
  { author: ann, comments: [] },
);
const list =
  (resources: ResourceNode[]) =>
  (op: ReturnType<typeof format.decode>): OperationResult => ({
    kind: 'collection',
    resources,
    total: resources.length,
    paging: op.kind === 'list' ? op.query.paging : { offset: 0 },
  });

describe('Format A compound documents', () => {
  it('include every resource reached, depth first, each once', () => {
    expect(included(request('GET', '/api/article?include=author,comments.author'), list([a10, a11]))).to.deep.equal([
      object(ann),
      object(c100),
      object(bob),
      object(c101),
    ]);
  });

  it('never include a resource that is primary data', () => {
    const annWithArticles = node('person', '1', { id: 1, name: 'Ann' }, { articles: ['11'] }, { articles: [a11] });
    expect(
      included(request('GET', '/api/person/1?include=articles.author'), () => ({
        kind: 'resource',
        resource: annWithArticles,
      })),
    ).to.deep.equal([object(a11)]);
  });

  it('are empty where the included relationships hold nothing', () => {
    const lonely = node('article', '12', { id: 12, title: 'Twelve' }, { author: null }, { author: null, comments: [] });
    expect(
      included(request('GET', '/api/article/12?include=author,comments'), () => ({
        kind: 'resource',
        resource: lonely,
      })),
    ).to.deep.equal([]);
  });

  it('are left out without include', () => {
    expect(included(request('GET', '/api/article/10'), () => ({ kind: 'resource', resource: a10 }))).to.equal(
      undefined,
    );
    expect(included(request('GET', '/api/article'), list([a10]))).to.equal(undefined);
  });

  // The executor loads what the request includes, no more: an article with its author only.
  const withAuthor = node('article', '10', { id: 10, title: 'Ten' }, { author: '1' }, { author: ann });

  it('obey the sparse fieldsets of the included types', () => {
    expect(
      included(request('GET', '/api/article/10?include=author&fields[person]=name'), () => ({
        kind: 'resource',
        resource: withAuthor,
      })),
    ).to.deep.equal([
      { type: 'person', id: '1', attributes: { name: 'Ann' }, links: { self: 'http://example.com/api/person/1' } },
    ]);
  });

  it('go with a filter[single] answer too', () => {
    expect(included(request('GET', '/api/article?filter[single]=1&include=author'), list([withAuthor]))).to.deep.equal([
      object(ann),
    ]);
  });

  it('hang off the owner on a relationship URL, which is not in the document itself', () => {
    const owner = node('article', '10', { id: 10, title: 'Ten' }, {}, { comments: [c100, c101] });
    const req = request('GET', '/api/article/10/relationships/comments?include=comments.author');
    expect(
      included(req, () => ({ kind: 'linkage', target: collection('comment'), linkage: ['100', '101'], owner })),
    ).to.deep.equal([object(c100), object(bob), object(c101), object(ann)]);
  });

  it("are left out on a relationship URL without the owner's included resources", () => {
    const req = request('GET', '/api/article/10/relationships/comments?include=comments');
    expect(included(req, () => ({ kind: 'linkage', target: collection('comment'), linkage: [] }))).to.equal(undefined);
  });
});
