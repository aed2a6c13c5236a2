import type { Driver, Row } from './driver.js';

/** The hand-written SQL of the baseline: plain statements, set-based loads of related ids. */

export const PERSON = 'id, name, age, other, birthday, birth_datetime, bedtime';
export const ARTICLE = 'id, title, publishtime, author_id';
export const COMMENT = 'id, content, article_id, author_id';

export const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** Groups `(owner, id)` rows into id lists by owner. */
function byOwner(rows: readonly Row[]): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  for (const r of rows) {
    const k = String(r.owner);
    let list = out.get(k);
    if (!list) out.set(k, (list = []));
    list.push(r.id);
  }
  return out;
}

/** Ids of the rows of `table` whose `column` is one of `owners`, by owner, in id order. */
export async function idsBy(
  db: Driver,
  table: string,
  column: string,
  owners: readonly unknown[],
): Promise<Map<string, unknown[]>> {
  if (owners.length === 0) return new Map();
  const sql = `select ${column} as owner, id from ${table} where ${column} in (${placeholders(owners.length)}) order by id`;
  return byOwner(await db.all(sql, owners));
}

export async function tagIdsBy(db: Driver, articles: readonly unknown[]): Promise<Map<string, unknown[]>> {
  if (articles.length === 0) return new Map();
  const sql = `select at.article_id as owner, t.id as id from tag t join article_tag at on at.tag_id = t.id
    where at.article_id in (${placeholders(articles.length)}) order by t.id`;
  return byOwner(await db.all(sql, articles));
}

export async function rowsByIds(db: Driver, table: string, columns: string, ids: readonly unknown[]): Promise<Row[]> {
  if (ids.length === 0) return [];
  return db.all(`select ${columns} from ${table} where id in (${placeholders(ids.length)}) order by id`, ids);
}

export async function commentsOf(db: Driver, articles: readonly unknown[]): Promise<Row[]> {
  if (articles.length === 0) return [];
  return db.all(
    `select ${COMMENT} from comment where article_id in (${placeholders(articles.length)}) order by id`,
    articles,
  );
}

export async function count(db: Driver, sql: string, params: readonly unknown[] = []): Promise<number> {
  const [r] = await db.all(sql, params);
  return Number(r!.n);
}

/** The linkage an article shows: its comments and tags. */
export async function articleLinks(db: Driver, ids: readonly unknown[]) {
  const [comments, tags] = await Promise.all([idsBy(db, 'comment', 'article_id', ids), tagIdsBy(db, ids)]);
  return { comments, tags };
}

/** The linkage a person shows: its articles and comments. */
export async function personLinks(db: Driver, ids: readonly unknown[]) {
  const [articles, comments] = await Promise.all([
    idsBy(db, 'article', 'author_id', ids),
    idsBy(db, 'comment', 'author_id', ids),
  ]);
  return { articles, comments };
}

/** A new tag and its stored values. */
export async function insertTag(db: Driver, name: string): Promise<Row> {
  if (db.kind !== 'mysql') {
    const [row] = await db.all('insert into tag (name) values (?) returning id, name', [name]);
    return row!;
  }
  const [result] = await db.all('insert into tag (name) values (?)', [name]);
  return { id: (result as { insertId: number }).insertId, name };
}
