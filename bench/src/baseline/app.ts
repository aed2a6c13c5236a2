import Koa from 'koa';
import { article, comment, JSONAPI, pageLinks, person, tag } from './documents.js';
import type { Driver, Row } from './driver.js';
import { ARTICLE, articleLinks, commentsOf, count, insertTag, PERSON, personLinks, rowsByIds } from './queries.js';

const MEDIA = 'application/vnd.api+json';

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function page(params: URLSearchParams): { number: number; size: number } {
  const int = (name: string, fallback: number) => {
    const v = params.get(name);
    if (v === null) return fallback;
    if (!/^\d{1,9}$/.test(v) || Number(v) < 1) throw new HttpError(400, `${name} must be a positive integer`);
    return Number(v);
  };
  const size = int('page[size]', 10);
  if (size > 100) throw new HttpError(400, 'page[size] must be at most 100');
  return { number: int('page[number]', 1), size };
}

/** The one filter shape the article list understands (the floor's): its author's age `gt` a number, and its title `like` a pattern. */
function ageAndTitle(params: URLSearchParams): { age: number; like: string } | undefined {
  const text = params.get('filter[objects]');
  if (text === null) return undefined;
  const [has, like] = JSON.parse(text) ?? [];
  if (
    has?.name !== 'author' ||
    has.op !== 'has' ||
    has.val?.name !== 'age' ||
    has.val.op !== 'gt' ||
    !Number.isInteger(has.val.val)
  ) {
    throw new HttpError(400, 'unsupported filter');
  }
  if (like?.name !== 'title' || like.op !== 'like' || typeof like.val !== 'string')
    throw new HttpError(400, 'unsupported filter');
  return { age: has.val.val, like: like.val };
}

async function readJson(ctx: Koa.Context): Promise<Record<string, any>> {
  const chunks: Buffer[] = [];
  for await (const c of ctx.req) chunks.push(c as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'the body is not JSON');
  }
}

/** A hand-written JSON:API server for exactly the bench's endpoints, on Koa and the raw driver. */
export function baselineApp(db: Driver): Koa {
  const descNullsLast = db.kind === 'postgres' ? 'desc nulls last' : 'desc';

  async function personList(base: string, url: URL) {
    const { number, size } = page(url.searchParams);
    const [rows, total] = await Promise.all([
      db.all(`select ${PERSON} from person order by id limit ? offset ?`, [size, (number - 1) * size]),
      count(db, 'select count(*) as n from person'),
    ]);
    const links = await personLinks(
      db,
      rows.map((r) => r.id),
    );
    const data = rows.map((p) => person(base, p, links.articles.get(String(p.id)), links.comments.get(String(p.id))));
    return { jsonapi: JSONAPI, data, links: pageLinks(url, number, size, total), meta: { total } };
  }

  async function articleList(base: string, url: URL) {
    const { number, size } = page(url.searchParams);
    const filter = ageAndTitle(url.searchParams);
    const sort = url.searchParams.get('sort');
    const include = url.searchParams.get('include');
    if (sort !== null && sort !== '-publishtime') throw new HttpError(400, 'unsupported sort');
    if (include !== null && include !== 'author,comments') throw new HttpError(400, 'unsupported include');
    const from =
      filter === undefined
        ? 'from article a'
        : 'from article a where a.author_id in (select p.id from person p where p.age > ?) and a.title like ?';
    const params = filter === undefined ? [] : [filter.age, filter.like];
    const order = sort ? `a.publishtime ${descNullsLast}, a.id` : 'a.id';
    const [rows, total] = await Promise.all([
      db.all(`select a.id, a.title, a.publishtime, a.author_id ${from} order by ${order} limit ? offset ?`, [
        ...params,
        size,
        (number - 1) * size,
      ]),
      count(db, `select count(*) as n ${from}`, params),
    ]);
    const ids = rows.map((r) => r.id);
    const doc: Record<string, unknown> = {
      jsonapi: JSONAPI,
      links: pageLinks(url, number, size, total),
      meta: { total },
    };
    if (!include) {
      const links = await articleLinks(db, ids);
      doc.data = rows.map((a) => article(base, a, links.comments.get(String(a.id)), links.tags.get(String(a.id))));
      return doc;
    }
    const authorIds = [...new Set(rows.map((r) => r.author_id).filter((v) => v !== null))];
    const [authors, comments, tags] = await Promise.all([
      rowsByIds(db, 'person', PERSON, authorIds),
      commentsOf(db, ids),
      articleLinks(db, ids).then((l) => l.tags),
    ]);
    const authorLinks = await personLinks(db, authorIds);
    const commentsByArticle = new Map<string, Row[]>();
    for (const c of comments) {
      const k = String(c.article_id);
      commentsByArticle.set(k, [...(commentsByArticle.get(k) ?? []), c]);
    }
    const authorById = new Map(authors.map((p) => [String(p.id), p]));
    const included: unknown[] = [];
    const seen = new Set<string>();
    const add = (key: string, make: () => unknown) => {
      if (!seen.has(key)) {
        seen.add(key);
        included.push(make());
      }
    };
    doc.data = rows.map((a) => {
      const mine = commentsByArticle.get(String(a.id)) ?? [];
      const author = a.author_id === null ? undefined : authorById.get(String(a.author_id));
      if (author)
        add(`p${author.id}`, () =>
          person(
            base,
            author,
            authorLinks.articles.get(String(author.id)),
            authorLinks.comments.get(String(author.id)),
          ),
        );
      for (const c of mine) add(`c${c.id}`, () => comment(base, c));
      return article(
        base,
        a,
        mine.map((c) => c.id),
        tags.get(String(a.id)),
      );
    });
    doc.included = included;
    return doc;
  }

  async function articleById(base: string, url: URL, id: number) {
    const [row] = await db.all(`select ${ARTICLE} from article where id = ?`, [id]);
    if (!row) throw new HttpError(404, `article ${id} does not exist`);
    const links = await articleLinks(db, [id]);
    return {
      jsonapi: JSONAPI,
      data: article(base, row, links.comments.get(String(id)), links.tags.get(String(id))),
      links: { self: url.toString() },
    };
  }

  async function personById(base: string, url: URL, id: number) {
    const [row] = await db.all(`select ${PERSON} from person where id = ?`, [id]);
    if (!row) throw new HttpError(404, `person ${id} does not exist`);
    const links = await personLinks(db, [id]);
    return {
      jsonapi: JSONAPI,
      data: person(base, row, links.articles.get(String(id)), links.comments.get(String(id))),
      links: { self: url.toString() },
    };
  }

  async function articlesOfPerson(base: string, url: URL, id: number) {
    const { number, size } = page(url.searchParams);
    const [owner] = await db.all('select id from person where id = ?', [id]);
    if (!owner) throw new HttpError(404, `person ${id} does not exist`);
    const [rows, total] = await Promise.all([
      db.all(`select ${ARTICLE} from article where author_id = ? order by id limit ? offset ?`, [
        id,
        size,
        (number - 1) * size,
      ]),
      count(db, 'select count(*) as n from article where author_id = ?', [id]),
    ]);
    const links = await articleLinks(
      db,
      rows.map((r) => r.id),
    );
    const data = rows.map((a) => article(base, a, links.comments.get(String(a.id)), links.tags.get(String(a.id))));
    return { jsonapi: JSONAPI, data, links: pageLinks(url, number, size, total), meta: { total } };
  }

  async function evaluatePerson(url: URL) {
    const allowed = new Set(['avg', 'sum', 'count', 'min', 'max']);
    const columns = new Set(['id', 'name', 'age', 'other', 'birthday', 'birth_datetime', 'bedtime']);
    const functions = JSON.parse(url.searchParams.get('functions') ?? '[]') as { name: string; field: string }[];
    if (functions.some((f) => !allowed.has(f.name) || !columns.has(f.field)))
      throw new HttpError(400, 'unsupported function');
    if (functions.length === 0) return { data: [] };
    // MySQL's avg of integers is a DECIMAL cut to 4 decimals; a double gives the full value the others give.
    const arg = (f: { name: string; field: string }) =>
      db.kind === 'mysql' && f.name === 'avg' ? `${f.field} * 1e0` : f.field;
    const [row] = await db.all(
      `select ${functions.map((f, i) => `${f.name}(${arg(f)}) as f${i}`).join(', ')} from person`,
    );
    const data = functions.map((f, i) => {
      const v = row![`f${i}`];
      if (v === null || v === undefined) return f.name === 'count' ? 0 : null;
      return f.name === 'count' ? Math.trunc(Number(v)) : Number(v);
    });
    // The specification's answer: an object whose single member is data.
    return { data };
  }

  async function createTag(ctx: Koa.Context, base: string) {
    if (ctx.get('content-type') !== MEDIA) throw new HttpError(415, `Content-Type must be ${MEDIA}`);
    const data = (await readJson(ctx)).data;
    if (data?.type !== 'tag' || data.id !== undefined) throw new HttpError(400, 'data must be a new tag');
    const a = data.attributes ?? {};
    if (Object.keys(a).some((k) => k !== 'name') || typeof a.name !== 'string')
      throw new HttpError(400, 'a tag is its name');
    const resource = tag(base, await insertTag(db, a.name));
    ctx.status = 201;
    ctx.set('location', resource.links.self);
    return {
      jsonapi: JSONAPI,
      data: { ...resource, meta: {}, jsonapi: JSONAPI },
      links: { self: resource.links.self },
    };
  }

  const app = new Koa();
  app.use(async (ctx) => {
    const origin = `${ctx.protocol}://${ctx.host}`;
    const base = `${origin}/api`;
    const url = new URL(ctx.originalUrl, origin);
    const path = ctx.path;
    let m: RegExpExecArray | null;
    try {
      let doc: unknown;
      if (ctx.method === 'GET' && path === '/api/person') doc = await personList(base, url);
      else if (ctx.method === 'GET' && path === '/api/article') doc = await articleList(base, url);
      else if (ctx.method === 'GET' && (m = /^\/api\/article\/(\d+)$/.exec(path)))
        doc = await articleById(base, url, Number(m[1]));
      else if (ctx.method === 'GET' && (m = /^\/api\/person\/(\d+)$/.exec(path)))
        doc = await personById(base, url, Number(m[1]));
      else if (ctx.method === 'GET' && (m = /^\/api\/person\/(\d+)\/articles$/.exec(path)))
        doc = await articlesOfPerson(base, url, Number(m[1]));
      else if (ctx.method === 'GET' && path === '/api/eval/person') doc = await evaluatePerson(url);
      else if (ctx.method === 'POST' && path === '/api/tag') doc = await createTag(ctx, base);
      else throw new HttpError(404, `nothing at ${path}`);
      ctx.body = JSON.stringify(doc);
    } catch (error) {
      const status = error instanceof HttpError ? error.status : error instanceof SyntaxError ? 400 : 500;
      ctx.status = status;
      ctx.body = JSON.stringify({
        jsonapi: JSONAPI,
        errors: [{ status: String(status), detail: (error as Error).message }],
      });
    }
    ctx.type = MEDIA;
  });
  return app;
}
