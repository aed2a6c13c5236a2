import { HttpClient } from '@colapi/test-fixtures/testing';
import type { Knex } from 'knex';

/**
 * Clients writing and reading through the API while a test breaks the database under them. Each create is
 * multi-statement (a row, a foreign key, two join rows): a half-done one would show in `checkIntegrity`.
 */
export interface LoadResult {
  readonly statuses: Map<number, number>;
  /** Titles of the articles whose create answered 201. */
  readonly created: string[];
  /** Answers that break the promise: a 500, a hang, a 503 without an error document. */
  readonly problems: string[];
}

const TAGS = [
  { type: 'tag', id: '1' },
  { type: 'tag', id: '2' },
];
const client = (origin: string) => new HttpClient(origin, 'application/vnd.api+json');

/** Runs `clients` loops until `until()` or `maxRequests` in all; every request is bounded by 5 seconds. */
export async function runLoad(
  origin: string,
  clients: number,
  until: () => boolean,
  maxRequests = 5000,
): Promise<LoadResult> {
  const result: LoadResult = { statuses: new Map(), created: [], problems: [] };
  let sent = 0;
  const http = client(origin);
  const loop = async (c: number) => {
    for (let n = 0; !until() && sent < maxRequests; n++) {
      sent++;
      const title = `fault-${c}-${n}`;
      const step = n % 3;
      const [method, path, body] =
        step === 0
          ? [
              'POST',
              '/api/article',
              {
                data: {
                  type: 'article',
                  attributes: { title },
                  relationships: { author: { data: { type: 'person', id: '1' } }, tags: { data: TAGS } },
                },
              },
            ]
          : step === 1
            ? ['GET', '/api/article?include=tags,author&page[size]=20', undefined]
            : ['PATCH', '/api/article/1/relationships/tags', { data: TAGS }];
      try {
        const res = await http.request(method, path, { body, timeout: 5000 });
        result.statuses.set(res.status, (result.statuses.get(res.status) ?? 0) + 1);
        if (res.status === 201) result.created.push(title);
        const ok = res.status < 300 || (res.status === 503 && /"status":"503"/.test(res.text));
        if (!ok) result.problems.push(`${method} ${path}: ${res.status} ${res.text.slice(0, 300)}`);
      } catch (error) {
        result.problems.push(`${method} ${path}: no answer (${(error as Error).message})`);
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, c) => loop(c)));
  return result;
}

/** Milliseconds until the API answers a read with 200 again; fails after `limit`. */
export async function recovery(origin: string, limit: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const res = await client(origin)
      .get('/api/article?page[size]=1', { timeout: 5000 })
      .catch(() => ({ status: 0 }));
    const ms = performance.now() - started;
    if (res.status === 200) return ms;
    if (ms > limit)
      throw new Error(`the API still answers ${res.status} ${Math.round(ms)} ms after the database came back`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Every article of the load is whole (its author and both tags), and every 201 of the load is there. */
export async function checkIntegrity(knex: Knex, result: LoadResult): Promise<number> {
  const articles: { id: number; title: string; author_id: number }[] = await knex('article')
    .where('title', 'like', 'fault-%')
    .select('id', 'title', 'author_id');
  const tags: { article_id: number; tag_id: number }[] = await knex('article_tag')
    .whereIn(
      'article_id',
      articles.map((a) => a.id),
    )
    .select();
  const half = articles.filter(
    (a) => Number(a.author_id) !== 1 || tags.filter((t) => Number(t.article_id) === Number(a.id)).length !== 2,
  );
  if (half.length) throw new Error(`half-written articles: ${JSON.stringify(half.slice(0, 5))}`);
  const titles = new Set(articles.map((a) => a.title));
  const lost = result.created.filter((t) => !titles.has(t));
  if (lost.length) throw new Error(`answered 201 but missing: ${lost.slice(0, 5).join(', ')}`);
  return articles.length;
}
