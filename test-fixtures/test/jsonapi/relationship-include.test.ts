import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectError, getOk } from './helpers.js';

interface Identifier {
  readonly type: string;
  readonly id: string;
}

interface Included extends Identifier {
  readonly attributes?: Record<string, unknown>;
  readonly relationships?: Record<string, { data?: Identifier | Identifier[] | null }>;
}

const key = (r: Identifier) => `${r.type}/${r.id}`;

/** The `type/id` of every included resource, sorted (the order of `included` is not specified). */
const includedKeys = (body: { included?: Included[] }): string[] => (body.included ?? []).map(key).sort();

/** Full linkage (JSON:API 1.0): every included resource is identified by the primary linkage or by another included resource. */
function expectFullLinkage(body: { data: Identifier | Identifier[] | null; included?: Included[] }): void {
  const linked = new Set<string>();
  const add = (d: Identifier | Identifier[] | null | undefined) => {
    for (const r of d ? (Array.isArray(d) ? d : [d]) : []) linked.add(key(r));
  };
  add(body.data);
  for (const r of body.included ?? []) for (const rel of Object.values(r.relationships ?? {})) add(rel.data);
  for (const r of body.included ?? [])
    expect(linked.has(key(r)), `${key(r)} is linked from the document`).to.equal(true);
  expect(new Set(includedKeys(body)).size, 'each resource once').to.equal((body.included ?? []).length);
}

interface IncludeCase {
  readonly name: string;
  readonly path: string;
  readonly data: Identifier | Identifier[] | null;
  readonly included: readonly string[];
}

// Seed: article 1 has comments 1 (by person 2) and 2 (by person 3) and tags 1, 2; article 3 (by person 2)
// has comment 3 (by person 1); tag 2 is on articles 1 and 3; article 4 has no author; person 3 wrote no article.
const CASES: IncludeCase[] = [
  {
    name: 'the JSON:API example: comments and their authors',
    path: '/api/article/1/relationships/comments?include=comments.author',
    data: [
      { type: 'comment', id: '1' },
      { type: 'comment', id: '2' },
    ],
    included: ['comment/1', 'comment/2', 'person/2', 'person/3'],
  },
  {
    name: 'the related resources themselves',
    path: '/api/article/1/relationships/comments?include=comments',
    data: [
      { type: 'comment', id: '1' },
      { type: 'comment', id: '2' },
    ],
    included: ['comment/1', 'comment/2'],
  },
  {
    name: 'several paths, one resource reached twice',
    path: '/api/tag/2/relationships/articles?include=articles.author,articles.comments.author',
    data: [
      { type: 'article', id: '1' },
      { type: 'article', id: '3' },
    ],
    included: ['article/1', 'article/3', 'comment/1', 'comment/2', 'comment/3', 'person/1', 'person/2', 'person/3'],
  },
  {
    name: 'back to the owner, which is included once',
    path: '/api/article/1/relationships/comments?include=comments.article',
    data: [
      { type: 'comment', id: '1' },
      { type: 'comment', id: '2' },
    ],
    included: ['article/1', 'comment/1', 'comment/2'],
  },
  {
    name: 'a to-one relationship',
    path: '/api/article/3/relationships/author?include=author.articles',
    data: { type: 'person', id: '2' },
    included: ['article/3', 'person/2'],
  },
  {
    name: 'a to-one relationship that is unset',
    path: '/api/article/4/relationships/author?include=author.articles',
    data: null,
    included: [],
  },
  {
    name: 'an empty to-many relationship',
    path: '/api/person/3/relationships/articles?include=articles.comments',
    data: [],
    included: [],
  },
  {
    name: 'a collection that hides some relationships, through one it shows',
    path: '/api/person_private/1/relationships/articles?include=articles.tags',
    data: [
      { type: 'article', id: '1' },
      { type: 'article', id: '2' },
    ],
    included: ['article/1', 'article/2', 'tag/1', 'tag/2'],
  },
];

describeEachDatabase('Format A: include on a relationship URL is relative to the owner (JSON:API 1.0)', (t) => {
  const origin = () => t().target.origin;

  for (const c of CASES) {
    it(`${c.name}: ${c.path}`, async () => {
      const res = await getOk(t(), c.path);
      expect(res.body.data).to.deep.equal(c.data);
      expect(res.body).to.have.property('included');
      expect(includedKeys(res.body)).to.deep.equal([...c.included].sort());
      expectFullLinkage(res.body);
      const [owner, relation] = c.path
        .replace(/^\/api\//, '')
        .split('?')[0]!
        .split('/relationships/') as [string, string];
      expect(res.body.links).to.deep.equal({
        self: `${origin()}/api/${owner}/relationships/${relation}`,
        related: `${origin()}/api/${owner}/${relation}`,
      });
    });
  }

  it('shows included resources in full, as everywhere else', async () => {
    const res = await getOk(t(), '/api/article/1/relationships/comments?include=comments.author');
    const comment = (res.body.included as Included[]).find((r) => key(r) === 'comment/2')!;
    expect(comment.attributes).to.deep.equal({ content: 'meh' });
    expect(comment.relationships!.author!.data).to.deep.equal({ type: 'person', id: '3' });
    expect(comment.relationships!.article!.data).to.deep.equal({ type: 'article', id: '1' });
    expect((comment as unknown as { links: { self: string } }).links.self).to.equal(`${origin()}/api/comment/2`);
    const person = (res.body.included as Included[]).find((r) => key(r) === 'person/3')!;
    expect(person.attributes!.name).to.equal('Carol');
  });

  it('applies fields[...] to the included resources', async () => {
    const res = await getOk(
      t(),
      '/api/article/1/relationships/comments?include=comments.author&fields[comment]=author&fields[person]=name',
    );
    expect(res.body.data).to.deep.equal([
      { type: 'comment', id: '1' },
      { type: 'comment', id: '2' },
    ]);
    for (const r of res.body.included as Included[]) {
      if (r.type === 'comment') {
        expect(r).to.not.have.property('attributes');
        expect(Object.keys(r.relationships!)).to.deep.equal(['author']);
      } else {
        expect(r.attributes).to.deep.equal({ name: r.id === '2' ? 'bob' : 'Carol' });
        expect(r).to.not.have.property('relationships');
      }
    }
    expectFullLinkage(res.body);
  });

  it('answers no included member without include, as before', async () => {
    const res = await getOk(t(), '/api/article/1/relationships/comments');
    expect(res.body).to.not.have.property('included');
    expect(res.body.data).to.deep.equal([
      { type: 'comment', id: '1' },
      { type: 'comment', id: '2' },
    ]);
  });

  describe('refusals', () => {
    const REFUSED: [string, string, number, string?][] = [
      // Full linkage: the owner is not in the document, so nothing would link its author.
      [
        'a path that does not start with the relationship',
        '/api/article/1/relationships/comments?include=author',
        400,
        'include',
      ],
      [
        'another relationship of the owner among good paths',
        '/api/article/1/relationships/comments?include=comments,tags',
        400,
        'include',
      ],
      [
        'a path resolved from the related type, as before',
        '/api/article/1/relationships/comments?include=author.articles',
        400,
        'include',
      ],
      [
        'an unknown relationship on the way',
        '/api/article/1/relationships/comments?include=comments.nope',
        400,
        'include',
      ],
      [
        'a relationship the collection hides',
        '/api/person_private/1/relationships/articles?include=comments',
        400,
        'include',
      ],
      ['an empty path', '/api/article/1/relationships/comments?include=comments,', 400, 'include'],
      [
        'an unknown type in fields',
        '/api/article/1/relationships/comments?include=comments&fields[nope]=x',
        400,
        'fields[nope]',
      ],
      [
        'an unknown field in fields',
        '/api/article/1/relationships/comments?include=comments&fields[comment]=nope',
        400,
        'fields[comment]',
      ],
      ['a collection parameter', '/api/article/1/relationships/comments?include=comments&sort=id', 400, 'sort'],
      ['an unknown owner', '/api/article/99/relationships/comments?include=comments.author', 404],
    ];
    for (const [name, path, status, parameter] of REFUSED) {
      it(`${name}: ${status}`, async () => {
        const error = expectError(await t().http.get(path), status, parameter);
        if (name === 'a path that does not start with the relationship')
          expect(error.detail).to.contain('starts with comments');
      });
    }

    it('a path deeper than the include limit', async () => {
      const deep = `comments${'.article.comments'.repeat(5)}`;
      expectError(await t().http.get(`/api/article/1/relationships/comments?include=${deep}`), 400, 'include');
    });
  });
});
