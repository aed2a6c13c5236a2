import { countQueries, describeEachDatabase, type SeedData } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { getOk } from './helpers.js';

/** `n` articles by 10 authors (every fifth without one), each with 2 comments and 2 of 3 tags. */
function dataset(n: number): SeedData {
  const ids = Array.from({ length: n }, (_, i) => i + 1);
  return {
    person: Array.from({ length: 10 }, (_, i) => ({ id: i + 1, name: `author ${i + 1}`, age: 20 + i })),
    article: ids.map((id) => ({ id, title: `article ${id}`, author_id: id % 5 === 0 ? null : (id % 10) + 1 })),
    comment: ids.flatMap((id) => [
      { id: 2 * id - 1, content: `first on ${id}`, article_id: id, author_id: ((id + 3) % 10) + 1 },
      { id: 2 * id, content: `second on ${id}`, article_id: id, author_id: null },
    ]),
    tag: [
      { id: 1, name: 'one' },
      { id: 2, name: 'two' },
      { id: 3, name: 'three' },
    ],
    article_tag: ids.flatMap((id) => [
      { article_id: id, tag_id: (id % 3) + 1 },
      { article_id: id, tag_id: ((id + 1) % 3) + 1 },
    ]),
  };
}

interface CountCase {
  readonly name: string;
  readonly path: string;
  /**
   * The statements the request costs, whatever the number of rows, where the dialect folds a list's head (its
   * count, its owner's existence) into the page's statement (PostgreSQL); one more where it does not.
   */
  readonly queries: number;
  /** A linkage endpoint reads its owner by key: no head, the same count on every dialect. */
  readonly headless?: boolean;
  /** How many resources come back with 3 and with 30 articles. */
  readonly sizes: readonly [number, number];
}

const CASES: CountCase[] = [
  // one statement: the rows with their comments and tags linkage, and the total in its head (the author linkage
  // is the foreign key itself)
  { name: 'a page of articles', path: '/api/article?page[size]=50', queries: 1, sizes: [3, 30] },
  // + authors in full with their articles and comments linkage; + comments in full, whose to-one linkage is free
  {
    name: 'a page of articles with authors and comments',
    path: '/api/article?page[size]=50&include=author,comments',
    queries: 3,
    sizes: [3, 30],
  },
  // + the comments, + the comments' authors with their articles and comments linkage
  {
    name: 'a two-level include',
    path: '/api/article?page[size]=50&include=comments.author',
    queries: 3,
    sizes: [3, 30],
  },
  // + tags in full, + the articles of those tags in full with their comments and tags linkage
  {
    name: 'a many-to-many include both ways',
    path: '/api/article?page[size]=50&include=tags.articles',
    queries: 3,
    sizes: [3, 30],
  },
  {
    name: 'a filter through a relationship',
    path: `/api/article?page[size]=50&filter[objects]=${encodeURIComponent('[{"name":"tags","op":"any","val":{"name":"id","op":">","val":0}}]')}`,
    queries: 1,
    sizes: [3, 30],
  },
  // sorted, or past the first page: still one statement, as the page is a derived table whose rows alone get
  // their key lists computed
  { name: 'a sort on a to-one path', path: '/api/article?page[size]=50&sort=-author.name', queries: 1, sizes: [3, 30] },
  { name: 'a page past the first', path: '/api/article?page[size]=2&page[number]=2', queries: 1, sizes: [1, 2] },
  {
    name: 'a grouped page',
    path: '/api/article?page[size]=50&group=author.name&fields[article]=title',
    queries: 1,
    sizes: [3, 9],
  },
  {
    name: 'a sparse fieldset without relationships',
    path: '/api/article?page[size]=50&fields[article]=title',
    queries: 1,
    sizes: [3, 30],
  },
  // rows and total, articles in full with their comments linkage, their tags in full with the tags' articles linkage
  {
    name: 'the comments of all articles',
    path: '/api/comment?page[size]=100&include=article.tags',
    queries: 3,
    sizes: [6, 60],
  },
  // one statement: rows with their linkage, and a head with the total and whether the owner exists
  { name: 'a related collection', path: '/api/person/2/articles?page[size]=50', queries: 1, sizes: [1, 3] },
  // the row, which carries the linkage (as a page's rows do)
  {
    name: 'a to-many linkage endpoint',
    path: '/api/article/2/relationships/comments',
    queries: 1,
    sizes: [2, 2],
    headless: true,
  },
  // the owner row; its articles in full with their tags linkage; the articles' comments in full, whose to-one
  // linkage is free; the comments' authors with their articles and comments linkage
  {
    name: 'a linkage endpoint with a two-level include',
    path: '/api/person/2/relationships/articles?include=articles.comments.author',
    queries: 4,
    headless: true,
    sizes: [1, 3],
  },
];

describeEachDatabase('Format A: a request costs the same number of SQL statements for 3 rows as for 30', (t) => {
  after(async () => {
    await t().seed();
  });

  for (const c of CASES) {
    it(c.name, async () => {
      const counts: number[] = [];
      for (const [i, n] of [3, 30].entries()) {
        await t().seed(dataset(n));
        const { result, count, sql } = await countQueries(t().target.database.knex, () => getOk(t(), c.path));
        expect(result.body.data, c.path).to.have.lengthOf(c.sizes[i]!);
        const expected = c.queries + (c.headless || t().target.database.dialect.foldsHead ? 0 : 1);
        expect(count, `${n} articles:\n${sql.join('\n')}`).to.equal(expected);
        counts.push(count);
      }
      expect(counts[0]).to.equal(counts[1]);
    });
  }

  it('fetches one resource with its relationships in a fixed number of statements', async () => {
    await t().seed(dataset(30));
    const { count } = await countQueries(t().target.database.knex, () =>
      getOk(t(), '/api/article/7?include=author,comments.author,tags'),
    );
    // the row; the author with its articles and comments linkage; the comments; their authors with their
    // articles and comments linkage; the tags with their articles linkage
    expect(count).to.equal(5);
  });
});
