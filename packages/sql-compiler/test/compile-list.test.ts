import { expect } from 'chai';
import { emptyReadQuery, type Filter, type ReadQuery } from '@colapi/query-ast';
import { runList, type ListAnswer, type Relations, type Scope } from '../src/index.js';
import { eachDialect } from './support/each-dialect.js';
import { collection } from './support/library.js';

const field = (column: string, ...relations: string[]) => ({ relations, column });
const query = (parts: Partial<ReadQuery>): ReadQuery => ({ ...emptyReadQuery(), ...parts });
/** Every relationship of a collection shown, none included. */
const showing = (name: string): Relations => ({
  shown: [...collection(name).relationships.values()],
  included: new Set(),
});
const scope = (owner: string, ownerId: string | number, relation: string): Scope => ({
  related: { owner: collection(owner), ownerId: String(ownerId), relation },
  ownerKey: ownerId,
});
const ids = (answer: Pick<ListAnswer, 'rows'>) => answer.rows.map((r) => r.values.id);

eachDialect('compileList', (t) => {
  it('a first page in key order, in one statement: the rows carry the linkage they show, the head the total', async () => {
    const plan = t().compiler.list({
      collection: collection('article'),
      query: query({ paging: { offset: 0, limit: 10 } }),
      relations: showing('article'),
      total: 'exact',
    });
    expect([...plan.carried]).to.deep.equal(['author', 'editor', 'comments', 'tags']);
    // The head (the count) rides in the page's statement where the dialect folds it, else it is one more.
    expect(plan.statements).to.have.lengthOf(t().database.dialect.foldsHead ? 1 : 2);
    const page = await t().sql(plan.statements[0], {
      postgres: {
        sql: 'select "h".*, "t0"."id" as "id", "t0"."title" as "title", "t0"."author_id" as "author_id", "t0"."editor_name" as "editor_name", array_to_string(array((select "t0l0"."id" from "person" as "t0l0" where "t0l0"."name" = "t0"."editor_name" order by "t0l0"."id" asc)), \',\') as "__colapi_link_editor", array_to_string(array((select "t0l0"."id" from "comment" as "t0l0" where "t0l0"."article_id" = "t0"."id" order by "t0l0"."id" asc)), \',\') as "__colapi_link_comments", array_to_string(array((select "t0l0"."tag_id" from "article_tag" as "t0l0" where "t0l0"."article_id" = "t0"."id" order by "t0l0"."tag_id" asc)), \',\') as "__colapi_link_tags" from (select count(*) as "__colapi_total" from "article" as "t1") as "h" left join (select "t0"."id", "t0"."title", "t0"."author_id", "t0"."editor_name" from "article" as "t0" order by "t0"."id" asc limit $1) as "t0" on 1 = 1 order by "t0"."id" asc',
        bindings: [10],
      },
      mysql: {
        sql: "select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select group_concat(`t0l0`.`id` order by `t0l0`.`id` separator ',') from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select group_concat(`t0l0`.`id` order by `t0l0`.`id` separator ',') from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select group_concat(`t0l0`.`tag_id` order by `t0l0`.`tag_id` separator ',') from `article_tag` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from (select `t0`.`id`, `t0`.`title`, `t0`.`author_id`, `t0`.`editor_name` from `article` as `t0` order by `t0`.`id` asc limit ?) as `t0` order by `t0`.`id` asc",
        bindings: [10],
      },
      sqlite: {
        sql: "select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select group_concat(`t0l0`.`id`, ',' order by `t0l0`.`id`) from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select group_concat(`t0l0`.`id`, ',' order by `t0l0`.`id`) from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select group_concat(`t0l0`.`tag_id`, ',' order by `t0l0`.`tag_id`) from `article_tag` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from (select `t0`.`id`, `t0`.`title`, `t0`.`author_id`, `t0`.`editor_name` from `article` as `t0` order by `t0`.`id` asc limit ?) as `t0` order by `t0`.`id` asc",
        bindings: [10],
      },
    });
    expect(page.rows!.map((r) => Object.fromEntries(r.linkage))).to.deep.equal([
      { author: '1', editor: '2', comments: ['1', '2'], tags: ['1', '2'] },
      { author: '1', editor: null, comments: [], tags: ['2'] },
      { author: '2', editor: '2', comments: ['3'], tags: ['3'] },
      { author: null, editor: null, comments: [], tags: [] },
    ]);
    expect(page.rows!.map((r) => r.values)).to.deep.equal([
      { id: 1, title: 'Hello', author_id: 1, editor_name: 'Bob' },
      { id: 2, title: 'again', author_id: 1, editor_name: null },
      { id: 3, title: 'Bonjour', author_id: 2, editor_name: 'Bob' },
      { id: 4, title: 'orphan', author_id: null, editor_name: null },
    ]);
    expect((await runList(t().database.knex, t().database.dialect, plan)).total).to.equal(4);
  });

  it('a sorted page past the first, in one statement: filtered, ordered through a to-one path, carrying all its linkage', async () => {
    const request = {
      collection: collection('article'),
      query: query({
        filter: { kind: 'compare', field: field('title'), op: 'ilike', value: '%O%' },
        sort: [{ field: field('name', 'author'), descending: true }],
        paging: { offset: 1, limit: 2 },
      }),
      relations: showing('article'),
    };
    const plan = t().compiler.list(request);
    // The page is a derived table: its key lists are computed for its own rows, whatever the offset and sort.
    expect([...plan.carried]).to.deep.equal(['author', 'editor', 'comments', 'tags']);
    expect(plan.statements).to.have.lengthOf(t().database.dialect.foldsHead ? 1 : 2);
    const page = await t().sql(plan.statements[0], {
      postgres: {
        sql: 'select "h".*, "t0"."id" as "id", "t0"."title" as "title", "t0"."author_id" as "author_id", "t0"."editor_name" as "editor_name", array_to_string(array((select "t0l0"."id" from "person" as "t0l0" where "t0l0"."name" = "t0"."editor_name" order by "t0l0"."id" asc)), \',\') as "__colapi_link_editor", array_to_string(array((select "t0l0"."id" from "comment" as "t0l0" where "t0l0"."article_id" = "t0"."id" order by "t0l0"."id" asc)), \',\') as "__colapi_link_comments", array_to_string(array((select "t0l0"."tag_id" from "article_tag" as "t0l0" where "t0l0"."article_id" = "t0"."id" order by "t0l0"."tag_id" asc)), \',\') as "__colapi_link_tags" from (select count(*) as "__colapi_total" from "article" as "t1" where "t1"."title" ilike $1) as "h" left join (select "t0"."id", "t0"."title", "t0"."author_id", "t0"."editor_name" from "article" as "t0" where "t0"."title" ilike $2 order by (select "t2"."name" from "person" as "t2" where "t2"."id" = "t0"."author_id" limit $3) collate "C" desc nulls last, "t0"."id" asc limit $4 offset $5) as "t0" on 1 = 1 order by (select "t3"."name" from "person" as "t3" where "t3"."id" = "t0"."author_id" limit $6) collate "C" desc nulls last, "t0"."id" asc',
        bindings: ['%O%', '%O%', 1, 2, 1, 1],
      },
      mysql: {
        sql: "select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select group_concat(`t0l0`.`id` order by `t0l0`.`id` separator ',') from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select group_concat(`t0l0`.`id` order by `t0l0`.`id` separator ',') from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select group_concat(`t0l0`.`tag_id` order by `t0l0`.`tag_id` separator ',') from `article_tag` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from (select `t0`.`id`, `t0`.`title`, `t0`.`author_id`, `t0`.`editor_name` from `article` as `t0` where lower(`t0`.`title`) like (lower(?) collate utf8mb4_bin) order by cast((select `t2`.`name` from `person` as `t2` where `t2`.`id` = `t0`.`author_id` limit ?) as binary) desc, `t0`.`id` asc limit ? offset ?) as `t0` order by cast((select `t3`.`name` from `person` as `t3` where `t3`.`id` = `t0`.`author_id` limit ?) as binary) desc, `t0`.`id` asc",
        bindings: ['%O%', 1, 2, 1, 1],
      },
      sqlite: {
        sql: "select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select group_concat(`t0l0`.`id`, ',' order by `t0l0`.`id`) from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select group_concat(`t0l0`.`id`, ',' order by `t0l0`.`id`) from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select group_concat(`t0l0`.`tag_id`, ',' order by `t0l0`.`tag_id`) from `article_tag` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from (select `t0`.`id`, `t0`.`title`, `t0`.`author_id`, `t0`.`editor_name` from `article` as `t0` where colapi_lower(`t0`.`title`) like colapi_lower(?) escape '\\' order by (select `t2`.`name` from `person` as `t2` where `t2`.`id` = `t0`.`author_id` limit ?) collate binary desc, `t0`.`id` asc limit ? offset ?) as `t0` order by (select `t3`.`name` from `person` as `t3` where `t3`.`id` = `t0`.`author_id` limit ?) collate binary desc, `t0`.`id` asc",
        bindings: ['%O%', 1, 2, 1, 1],
      },
    });
    // Bonjour (Bob), Hello (Alice), orphan (no author: last when descending); the first skipped.
    expect(ids(page as ListAnswer)).to.deep.equal([1, 4]);
    expect(page.rows!.map((r) => Object.fromEntries(r.linkage))).to.deep.equal([
      { author: '1', editor: '2', comments: ['1', '2'], tags: ['1', '2'] },
      { author: null, editor: null, comments: [], tags: [] },
    ]);
    expect((await runList(t().database.knex, t().database.dialect, plan)).total).to.equal(3);
  });

  it('a grouped page: the row with the smallest key per group, and the groups counted in the same statement', async () => {
    const plan = t().compiler.list({
      collection: collection('article'),
      query: query({ group: [field('author_id')] }),
      relations: showing('article'),
      total: 'exact',
    });
    const answer = (await t().sql(plan.statements[0], {
      postgres: {
        sql: 'select "h".*, "t0"."id" as "id", "t0"."title" as "title", "t0"."author_id" as "author_id", "t0"."editor_name" as "editor_name", array_to_string(array((select "t0l0"."id" from "person" as "t0l0" where "t0l0"."name" = "t0"."editor_name" order by "t0l0"."id" asc)), \',\') as "__colapi_link_editor", array_to_string(array((select "t0l0"."id" from "comment" as "t0l0" where "t0l0"."article_id" = "t0"."id" order by "t0l0"."id" asc)), \',\') as "__colapi_link_comments", array_to_string(array((select "t0l0"."tag_id" from "article_tag" as "t0l0" where "t0l0"."article_id" = "t0"."id" order by "t0l0"."tag_id" asc)), \',\') as "__colapi_link_tags" from (select count(*) as "__colapi_total" from (select min("t1"."id") as "k" from "article" as "t1" group by "t1"."author_id") as "g") as "h" left join (select "t0"."id", "t0"."title", "t0"."author_id", "t0"."editor_name" from "article" as "t0" where "t0"."id" in (select min("t1"."id") as "k" from "article" as "t1" group by "t1"."author_id") order by "t0"."id" asc) as "t0" on 1 = 1 order by "t0"."id" asc',
        bindings: [],
      },
      mysql: {
        sql: "select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select group_concat(`t0l0`.`id` order by `t0l0`.`id` separator ',') from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select group_concat(`t0l0`.`id` order by `t0l0`.`id` separator ',') from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select group_concat(`t0l0`.`tag_id` order by `t0l0`.`tag_id` separator ',') from `article_tag` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from (select `t0`.`id`, `t0`.`title`, `t0`.`author_id`, `t0`.`editor_name` from `article` as `t0` where `t0`.`id` in (select min(`t1`.`id`) as `k` from `article` as `t1` group by `t1`.`author_id`) order by `t0`.`id` asc) as `t0` order by `t0`.`id` asc",
        bindings: [],
      },
      sqlite: {
        sql: "select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select group_concat(`t0l0`.`id`, ',' order by `t0l0`.`id`) from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select group_concat(`t0l0`.`id`, ',' order by `t0l0`.`id`) from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select group_concat(`t0l0`.`tag_id`, ',' order by `t0l0`.`tag_id`) from `article_tag` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from (select `t0`.`id`, `t0`.`title`, `t0`.`author_id`, `t0`.`editor_name` from `article` as `t0` where `t0`.`id` in (select min(`t1`.`id`) as `k` from `article` as `t1` group by `t1`.`author_id`) order by `t0`.`id` asc) as `t0` order by `t0`.`id` asc",
        bindings: [],
      },
    })) as ListAnswer;
    expect(ids(answer)).to.deep.equal([1, 3, 4]);
    expect((await runList(t().database.knex, t().database.dialect, plan)).total).to.equal(3);
  });

  it('filters: a to-one path, in, is not null, and a like that is exact on every dialect', async () => {
    const filter: Filter = {
      kind: 'and',
      filters: [
        { kind: 'compare', field: field('name', 'author'), op: 'like', value: 'A%' },
        { kind: 'compare', field: field('id'), op: 'in', value: [1, 2, 3] },
        { kind: 'null-check', field: field('editor_name'), op: 'is_not_null' },
        { kind: 'compare', field: field('title'), op: 'not_like', value: 'h%' },
      ],
    };
    const plan = t().compiler.list({
      collection: collection('article'),
      query: query({ filter }),
      relations: { shown: [], included: new Set() },
      total: 'none',
    });
    expect(plan.statements).to.have.lengthOf(1);
    expect(
      ids(
        (await t().sql(plan.statements[0], {
          postgres: {
            sql: 'select "t0"."id" as "id", "t0"."title" as "title", "t0"."author_id" as "author_id", "t0"."editor_name" as "editor_name" from "article" as "t0" where ((select "t1"."name" from "person" as "t1" where "t1"."id" = "t0"."author_id" limit $1) like $2 and "t0"."id" in (cast($3 as bigint), cast($4 as bigint), cast($5 as bigint)) and "t0"."editor_name" is not null and "t0"."title" not like $6) order by "t0"."id" asc',
            bindings: [1, 'A%', 1, 2, 3, 'h%'],
          },
          mysql: {
            sql: 'select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name` from `article` as `t0` where ((select `t1`.`name` from `person` as `t1` where `t1`.`id` = `t0`.`author_id` limit ?) like (? collate utf8mb4_bin) and `t0`.`id` in (?, ?, ?) and `t0`.`editor_name` is not null and `t0`.`title` not like (? collate utf8mb4_bin)) order by `t0`.`id` asc',
            bindings: [1, 'A%', 1, 2, 3, 'h%'],
          },
          sqlite: {
            sql: 'select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name` from `article` as `t0` where ((select `t1`.`name` from `person` as `t1` where `t1`.`id` = `t0`.`author_id` limit ?) glob ? and `t0`.`id` in (?, ?, ?) and `t0`.`editor_name` is not null and not (`t0`.`title` glob ?)) order by `t0`.`id` asc',
            bindings: [1, 'A*', 1, 2, 3, 'h*'],
          },
        })) as ListAnswer,
      ),
    ).to.deep.equal([1]);
  });

  it('filters: through a relationship (any of its rows matching), or two fields compared', async () => {
    const filter: Filter = {
      kind: 'and',
      filters: [
        {
          kind: 'or',
          filters: [
            {
              kind: 'relation',
              relation: 'tags',
              op: 'any',
              filter: { kind: 'compare', field: field('name'), op: 'in', value: ['misc', 'news'] },
            },
            { kind: 'compare-field', field: field('title'), op: 'eq', other: field('editor_name') },
          ],
        },
        { kind: 'compare', field: field('id'), op: 'not_in', value: [] },
      ],
    };
    const plan = t().compiler.list({
      collection: collection('article'),
      query: query({ filter, sort: [{ field: field('title'), descending: false }] }),
      relations: showing('article'),
      total: 'none',
    });
    // Sorted by title exactly, by code point.
    expect(
      ids(
        (await t().sql(plan.statements[0], {
          postgres: {
            sql: 'select "t0"."id" as "id", "t0"."title" as "title", "t0"."author_id" as "author_id", "t0"."editor_name" as "editor_name", array_to_string(array((select "t0l0"."id" from "person" as "t0l0" where "t0l0"."name" = "t0"."editor_name" order by "t0l0"."id" asc)), \',\') as "__colapi_link_editor", array_to_string(array((select "t0l0"."id" from "comment" as "t0l0" where "t0l0"."article_id" = "t0"."id" order by "t0l0"."id" asc)), \',\') as "__colapi_link_comments", array_to_string(array((select "t0l0"."tag_id" from "article_tag" as "t0l0" where "t0l0"."article_id" = "t0"."id" order by "t0l0"."tag_id" asc)), \',\') as "__colapi_link_tags" from (select "t0"."id", "t0"."title", "t0"."author_id", "t0"."editor_name" from "article" as "t0" where (("t0"."id" in (select "t2"."article_id" from "tag" as "t1" inner join "article_tag" as "t2" on "t2"."tag_id" = "t1"."id" where "t1"."name" collate "C" in ($1, $2)) or "t0"."title" collate "C" = "t0"."editor_name" collate "C") and 1 = 1) order by "t0"."title" collate "C" asc, "t0"."id" asc) as "t0" order by "t0"."title" collate "C" asc, "t0"."id" asc',
            bindings: ['misc', 'news'],
          },
          mysql: {
            sql: "select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select group_concat(`t0l0`.`id` order by `t0l0`.`id` separator ',') from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select group_concat(`t0l0`.`id` order by `t0l0`.`id` separator ',') from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select group_concat(`t0l0`.`tag_id` order by `t0l0`.`tag_id` separator ',') from `article_tag` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from (select `t0`.`id`, `t0`.`title`, `t0`.`author_id`, `t0`.`editor_name` from `article` as `t0` where ((`t0`.`id` in (select `t2`.`article_id` from `tag` as `t1` inner join `article_tag` as `t2` on `t2`.`tag_id` = `t1`.`id` where cast(`t1`.`name` as binary) in (?, ?)) or cast(`t0`.`title` as binary) = cast(`t0`.`editor_name` as binary)) and 1 = 1) order by cast(`t0`.`title` as binary) asc, `t0`.`id` asc) as `t0` order by cast(`t0`.`title` as binary) asc, `t0`.`id` asc",
            bindings: ['misc', 'news'],
          },
          sqlite: {
            sql: "select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select group_concat(`t0l0`.`id`, ',' order by `t0l0`.`id`) from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select group_concat(`t0l0`.`id`, ',' order by `t0l0`.`id`) from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select group_concat(`t0l0`.`tag_id`, ',' order by `t0l0`.`tag_id`) from `article_tag` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from (select `t0`.`id`, `t0`.`title`, `t0`.`author_id`, `t0`.`editor_name` from `article` as `t0` where ((`t0`.`id` in (select `t2`.`article_id` from `tag` as `t1` inner join `article_tag` as `t2` on `t2`.`tag_id` = `t1`.`id` where `t1`.`name` collate binary in (?, ?)) or `t0`.`title` collate binary = `t0`.`editor_name` collate binary) and 1 = 1) order by `t0`.`title` collate binary asc, `t0`.`id` asc) as `t0` order by `t0`.`title` collate binary asc, `t0`.`id` asc",
            bindings: ['misc', 'news'],
          },
        })) as ListAnswer,
      ),
    ).to.deep.equal([3, 1]);
  });

  it('a related collection, in one statement: its head counts and tells whether the owner exists', async () => {
    const plan = t().compiler.list({
      collection: collection('article'),
      query: query({ paging: { offset: 0, limit: 10 } }),
      relations: showing('article'),
      scope: scope('person', 1, 'articles'),
      total: 'exact',
    });
    expect(plan.statements).to.have.lengthOf(t().database.dialect.foldsHead ? 1 : 2);
    const answer = (await t().sql(plan.statements[0], {
      postgres: {
        sql: 'select "h".*, "t0"."id" as "id", "t0"."title" as "title", "t0"."author_id" as "author_id", "t0"."editor_name" as "editor_name", array_to_string(array((select "t0l0"."id" from "person" as "t0l0" where "t0l0"."name" = "t0"."editor_name" order by "t0l0"."id" asc)), \',\') as "__colapi_link_editor", array_to_string(array((select "t0l0"."id" from "comment" as "t0l0" where "t0l0"."article_id" = "t0"."id" order by "t0l0"."id" asc)), \',\') as "__colapi_link_comments", array_to_string(array((select "t0l0"."tag_id" from "article_tag" as "t0l0" where "t0l0"."article_id" = "t0"."id" order by "t0l0"."tag_id" asc)), \',\') as "__colapi_link_tags" from (select count(*) as "__colapi_total", (select 1 as "found" from "person" as "t2" where "t2"."id" = cast($1 as bigint)) as "__colapi_owner" from "article" as "t1" where "t1"."author_id" = cast($2 as bigint)) as "h" left join (select "t0"."id", "t0"."title", "t0"."author_id", "t0"."editor_name" from "article" as "t0" where "t0"."author_id" = cast($3 as bigint) order by "t0"."id" asc limit $4) as "t0" on 1 = 1 order by "t0"."id" asc',
        bindings: [1, 1, 1, 10],
      },
      mysql: {
        sql: "select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select group_concat(`t0l0`.`id` order by `t0l0`.`id` separator ',') from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select group_concat(`t0l0`.`id` order by `t0l0`.`id` separator ',') from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select group_concat(`t0l0`.`tag_id` order by `t0l0`.`tag_id` separator ',') from `article_tag` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from (select `t0`.`id`, `t0`.`title`, `t0`.`author_id`, `t0`.`editor_name` from `article` as `t0` where `t0`.`author_id` = ? order by `t0`.`id` asc limit ?) as `t0` order by `t0`.`id` asc",
        bindings: [1, 10],
      },
      sqlite: {
        sql: "select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select group_concat(`t0l0`.`id`, ',' order by `t0l0`.`id`) from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select group_concat(`t0l0`.`id`, ',' order by `t0l0`.`id`) from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select group_concat(`t0l0`.`tag_id`, ',' order by `t0l0`.`tag_id`) from `article_tag` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from (select `t0`.`id`, `t0`.`title`, `t0`.`author_id`, `t0`.`editor_name` from `article` as `t0` where `t0`.`author_id` = ? order by `t0`.`id` asc limit ?) as `t0` order by `t0`.`id` asc",
        bindings: [1, 10],
      },
    })) as ListAnswer;
    expect(ids(answer)).to.deep.equal([1, 2]);
    // Where the head is a statement of its own.
    await t().sql(plan.statements[1], {
      postgres: undefined,
      mysql: {
        sql: 'select count(*) as `__colapi_total`, (select 1 as `found` from `person` as `t2` where `t2`.`id` = ?) as `__colapi_owner` from `article` as `t1` where `t1`.`author_id` = ?',
        bindings: [1, 1],
      },
      sqlite: {
        sql: 'select count(*) as `__colapi_total`, (select 1 as `found` from `person` as `t2` where `t2`.`id` = ?) as `__colapi_owner` from `article` as `t1` where `t1`.`author_id` = ?',
        bindings: [1, 1],
      },
    });
    const told = await runList(t().database.knex, t().database.dialect, plan);
    expect({ total: told.total, ownerExists: told.ownerExists }).to.deep.equal({ total: 2, ownerExists: true });
    const missing = t().compiler.list({
      collection: collection('article'),
      query: query({}),
      relations: showing('article'),
      scope: scope('person', 99, 'articles'),
      total: 'exact',
    });
    expect(await runList(t().database.knex, t().database.dialect, missing)).to.deep.equal({
      rows: [],
      total: 0,
      ownerExists: false,
    });
  });

  it('a shape compiled once is bound again with the next page and owner, and answers for them', async () => {
    const read = (owner: number, offset: number) =>
      t().compiler.list({
        collection: collection('article'),
        query: query({ paging: { offset, limit: 1 } }),
        relations: showing('article'),
        scope: scope('person', owner, 'articles'),
        total: 'exact',
      });
    const { knex, dialect } = t().database;
    const first = read(1, 1);
    const again = read(1, 1);
    const other = read(2, 0);
    // The same text: built once; only the bindings differ.
    expect(again.statements[0]!.sql).to.equal(first.statements[0]!.sql);
    expect(again.statements[0]!.bindings).to.deep.equal(first.statements[0]!.bindings);
    expect(other.statements[0]!.sql).to.not.equal(first.statements[0]!.sql); // no offset clause
    expect(first.statements[0]!.bindings).to.not.include(1_999_999_993);
    const answer = await runList(knex, dialect, first);
    expect({ ids: ids(answer), total: answer.total, ownerExists: answer.ownerExists }).to.deep.equal({
      ids: [2],
      total: 2,
      ownerExists: true,
    });
    const second = await runList(knex, dialect, read(2, 1));
    expect({ ids: ids(second), total: second.total }).to.deep.equal({ ids: [], total: 1 });
    expect(await runList(knex, dialect, read(99, 1))).to.deep.equal({ rows: [], total: 0, ownerExists: false });
  });

  it("a filtered shape is kept per its filter's text and bound again with the next filter's values", async () => {
    const read = (filter: Filter, offset = 0) =>
      t().compiler.list({
        collection: collection('article'),
        query: query({ filter, paging: { offset, limit: 10 } }),
        relations: showing('article'),
        total: 'exact',
      });
    const titled = (pattern: string, authors: number[]): Filter => ({
      kind: 'and',
      filters: [
        { kind: 'compare', field: field('title'), op: 'like', value: pattern },
        {
          kind: 'relation',
          relation: 'author',
          op: 'has',
          filter: { kind: 'compare', field: field('id'), op: 'in', value: authors },
        },
      ],
    });
    const { knex, dialect } = t().database;
    const first = read(titled('%o%', [1, 2]));
    const second = read(titled('B%', [2, 3]));
    // One text, built once: the like pattern (rewritten on its way to a binding) and the list are bound anew.
    expect(second.statements[0]!.sql).to.equal(first.statements[0]!.sql);
    expect(second.statements[0]!.bindings).to.not.deep.equal(first.statements[0]!.bindings);
    // The very statement kept: its decoder is the same function.
    expect(second.statements[0]!.decode).to.equal(first.statements[0]!.decode);
    const answer = await runList(knex, dialect, first);
    expect({ ids: ids(answer), total: answer.total }).to.deep.equal({ ids: [1, 3], total: 2 });
    const again = await runList(knex, dialect, second);
    expect({ ids: ids(again), total: again.total }).to.deep.equal({ ids: [3], total: 1 });
    // Another number of values is another text; the kept one is untouched by it.
    const longer = read(titled('%', [1, 2, 3]));
    expect(longer.statements[0]!.sql).to.not.equal(first.statements[0]!.sql);
    expect(ids(await runList(knex, dialect, longer))).to.deep.equal([1, 2, 3]);
    expect(ids(await runList(knex, dialect, read(titled('%o%', [1]))))).to.deep.equal([1]);
    // A page past the first is a shape of its own, bound with its offset and the filter's values.
    const past = await runList(knex, dialect, read(titled('%', [1, 2]), 1));
    expect({ ids: ids(past), total: past.total }).to.deep.equal({ ids: [2, 3], total: 3 });
  });

  it('a related collection joined on a column other than the owner key, and one through a join table', async () => {
    const edited = t().compiler.list({
      collection: collection('article'),
      query: query({}),
      relations: showing('article'),
      scope: scope('person', 2, 'edited'),
      total: 'none',
    });
    expect(edited.statements).to.have.lengthOf(t().database.dialect.foldsHead ? 1 : 2);
    const editedAnswer = (await t().sql(edited.statements[0], {
      postgres: {
        sql: 'select "h".*, "t0"."id" as "id", "t0"."title" as "title", "t0"."author_id" as "author_id", "t0"."editor_name" as "editor_name", array_to_string(array((select "t0l0"."id" from "person" as "t0l0" where "t0l0"."name" = "t0"."editor_name" order by "t0l0"."id" asc)), \',\') as "__colapi_link_editor", array_to_string(array((select "t0l0"."id" from "comment" as "t0l0" where "t0l0"."article_id" = "t0"."id" order by "t0l0"."id" asc)), \',\') as "__colapi_link_comments", array_to_string(array((select "t0l0"."tag_id" from "article_tag" as "t0l0" where "t0l0"."article_id" = "t0"."id" order by "t0l0"."tag_id" asc)), \',\') as "__colapi_link_tags" from (select (select 1 as "found" from "person" as "t4" where "t4"."id" = cast($1 as bigint)) as "__colapi_owner") as "h" left join (select "t0"."id", "t0"."title", "t0"."author_id", "t0"."editor_name" from "article" as "t0" where "t0"."editor_name" in (select "t1"."name" from "person" as "t1" where "t1"."id" = cast($2 as bigint)) order by "t0"."id" asc) as "t0" on 1 = 1 order by "t0"."id" asc',
        bindings: [2, 2],
      },
      mysql: {
        sql: "select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select group_concat(`t0l0`.`id` order by `t0l0`.`id` separator ',') from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select group_concat(`t0l0`.`id` order by `t0l0`.`id` separator ',') from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select group_concat(`t0l0`.`tag_id` order by `t0l0`.`tag_id` separator ',') from `article_tag` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from (select `t0`.`id`, `t0`.`title`, `t0`.`author_id`, `t0`.`editor_name` from `article` as `t0` where `t0`.`editor_name` in (select `t1`.`name` from `person` as `t1` where `t1`.`id` = ?) order by `t0`.`id` asc) as `t0` order by `t0`.`id` asc",
        bindings: [2],
      },
      sqlite: {
        sql: "select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select group_concat(`t0l0`.`id`, ',' order by `t0l0`.`id`) from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select group_concat(`t0l0`.`id`, ',' order by `t0l0`.`id`) from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select group_concat(`t0l0`.`tag_id`, ',' order by `t0l0`.`tag_id`) from `article_tag` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from (select `t0`.`id`, `t0`.`title`, `t0`.`author_id`, `t0`.`editor_name` from `article` as `t0` where `t0`.`editor_name` in (select `t1`.`name` from `person` as `t1` where `t1`.`id` = ?) order by `t0`.`id` asc) as `t0` order by `t0`.`id` asc",
        bindings: [2],
      },
    })) as ListAnswer;
    expect(ids(editedAnswer)).to.deep.equal([1, 3]);
    expect((await runList(t().database.knex, t().database.dialect, edited)).ownerExists).to.equal(true);
    const tags = t().compiler.list({
      collection: collection('tag'),
      query: query({}),
      relations: showing('tag'),
      scope: scope('article', 1, 'tags'),
      total: 'none',
    });
    expect(
      ids(
        (await t().sql(tags.statements[0], {
          postgres: {
            sql: 'select "h".*, "t0"."id" as "id", "t0"."name" as "name", array_to_string(array((select "t0l0"."article_id" from "article_tag" as "t0l0" where "t0l0"."tag_id" = "t0"."id" order by "t0l0"."article_id" asc)), \',\') as "__colapi_link_articles" from (select (select 1 as "found" from "article" as "t4" where "t4"."id" = cast($1 as bigint)) as "__colapi_owner") as "h" left join (select "t0"."id", "t0"."name" from "tag" as "t0" where "t0"."id" in (select "t1"."tag_id" from "article_tag" as "t1" where "t1"."article_id" = cast($2 as bigint)) order by "t0"."id" asc) as "t0" on 1 = 1 order by "t0"."id" asc',
            bindings: [1, 1],
          },
          mysql: {
            sql: "select `t0`.`id` as `id`, `t0`.`name` as `name`, (select group_concat(`t0l0`.`article_id` order by `t0l0`.`article_id` separator ',') from `article_tag` as `t0l0` where `t0l0`.`tag_id` = `t0`.`id`) as `__colapi_link_articles` from (select `t0`.`id`, `t0`.`name` from `tag` as `t0` where `t0`.`id` in (select `t1`.`tag_id` from `article_tag` as `t1` where `t1`.`article_id` = ?) order by `t0`.`id` asc) as `t0` order by `t0`.`id` asc",
            bindings: [1],
          },
          sqlite: {
            sql: "select `t0`.`id` as `id`, `t0`.`name` as `name`, (select group_concat(`t0l0`.`article_id`, ',' order by `t0l0`.`article_id`) from `article_tag` as `t0l0` where `t0l0`.`tag_id` = `t0`.`id`) as `__colapi_link_articles` from (select `t0`.`id`, `t0`.`name` from `tag` as `t0` where `t0`.`id` in (select `t1`.`tag_id` from `article_tag` as `t1` where `t1`.`article_id` = ?) order by `t0`.`id` asc) as `t0` order by `t0`.`id` asc",
            bindings: [1],
          },
        })) as ListAnswer,
      ),
    ).to.deep.equal([1, 2]);
  });

  it('a single resource: two rows at most, no total', async () => {
    const plan = t().compiler.list({
      collection: collection('person'),
      query: query({ single: true, filter: { kind: 'compare', field: field('age'), op: 'gt', value: 26 } }),
      relations: showing('person'),
    });
    expect(plan.statements).to.have.lengthOf(1);
    expect(
      ids(
        (await t().sql(plan.statements[0], {
          postgres: {
            sql: 'select "t0"."id" as "id", "t0"."name" as "name", "t0"."age" as "age", array_to_string(array((select "t0l0"."id" from "article" as "t0l0" where "t0l0"."author_id" = "t0"."id" order by "t0l0"."id" asc)), \',\') as "__colapi_link_articles", array_to_string(array((select "t0l0"."id" from "article" as "t0l0" where "t0l0"."editor_name" = "t0"."name" order by "t0l0"."id" asc)), \',\') as "__colapi_link_edited" from (select "t0"."id", "t0"."name", "t0"."age" from "person" as "t0" where "t0"."age" > cast($1 as bigint) order by "t0"."id" asc limit $2) as "t0" order by "t0"."id" asc',
            bindings: [26, 2],
          },
          mysql: {
            sql: "select `t0`.`id` as `id`, `t0`.`name` as `name`, `t0`.`age` as `age`, (select group_concat(`t0l0`.`id` order by `t0l0`.`id` separator ',') from `article` as `t0l0` where `t0l0`.`author_id` = `t0`.`id`) as `__colapi_link_articles`, (select group_concat(`t0l0`.`id` order by `t0l0`.`id` separator ',') from `article` as `t0l0` where `t0l0`.`editor_name` = `t0`.`name`) as `__colapi_link_edited` from (select `t0`.`id`, `t0`.`name`, `t0`.`age` from `person` as `t0` where `t0`.`age` > ? order by `t0`.`id` asc limit ?) as `t0` order by `t0`.`id` asc",
            bindings: [26, 2],
          },
          sqlite: {
            sql: "select `t0`.`id` as `id`, `t0`.`name` as `name`, `t0`.`age` as `age`, (select group_concat(`t0l0`.`id`, ',' order by `t0l0`.`id`) from `article` as `t0l0` where `t0l0`.`author_id` = `t0`.`id`) as `__colapi_link_articles`, (select group_concat(`t0l0`.`id`, ',' order by `t0l0`.`id`) from `article` as `t0l0` where `t0l0`.`editor_name` = `t0`.`name`) as `__colapi_link_edited` from (select `t0`.`id`, `t0`.`name`, `t0`.`age` from `person` as `t0` where `t0`.`age` > ? order by `t0`.`id` asc limit ?) as `t0` order by `t0`.`id` asc",
            bindings: [26, 2],
          },
        })) as ListAnswer,
      ),
    ).to.deep.equal([1]);
  });

  it("an estimated total: the planner's estimate where the dialect has one, an exact count when it has none", async () => {
    const plan = t().compiler.list({
      collection: collection('article'),
      query: query({}),
      relations: { shown: [], included: new Set() },
    });
    const estimate = t().database.dialect.estimateRows ? plan.statements[1] : undefined;
    await t().sql(estimate, {
      postgres: {
        sql: 'select reltuples::bigint as n from pg_class where oid = to_regclass($1)',
        bindings: ['article'],
      },
      mysql: {
        sql: 'select table_rows as n from information_schema.tables where table_schema = database() and table_name = ?',
        bindings: ['article'],
      },
      sqlite: undefined,
    });
    // Without an estimate (SQLite) the page's own head counts; with one, the count is the fallback.
    await t().sql(plan.fallback, {
      postgres: {
        sql: 'select count(*) as "__colapi_total" from "article" as "t1"',
        bindings: [],
      },
      mysql: {
        sql: 'select count(*) as `__colapi_total` from `article` as `t1`',
        bindings: [],
      },
      sqlite: undefined,
    });
    const { total } = await runList(t().database.knex, t().database.dialect, plan);
    expect(total).to.be.a('number').at.least(0);
  });

  it('an estimated total is kept per shape too: the estimate, the page and the fallback count bound again', async () => {
    const read = (offset: number) =>
      t().compiler.list({
        collection: collection('article'),
        query: query({ paging: { offset, limit: 2 } }),
        relations: { shown: [], included: new Set() },
        total: 'estimated',
      });
    const first = read(1);
    const second = read(2);
    // The very statements kept (the same decoders), the fallback among them, with the second page's offset.
    expect(second.statements.map((s) => s.decode)).to.deep.equal(first.statements.map((s) => s.decode));
    expect(second.fallback?.decode).to.equal(first.fallback?.decode);
    expect(second.fallback === undefined).to.equal(!t().database.dialect.estimateRows);
    expect(second.statements[0]!.bindings).to.not.deep.equal(first.statements[0]!.bindings);
    const { knex, dialect } = t().database;
    const one = await runList(knex, dialect, first);
    const two = await runList(knex, dialect, second);
    expect(ids(one)).to.deep.equal([2, 3]);
    expect(ids(two)).to.deep.equal([3, 4]);
    expect(two.total).to.be.a('number').at.least(0);
    // With the estimate told as missing, the kept fallback counts exactly.
    if (second.fallback)
      expect((await runList(knex, dialect, { ...second, statements: [second.statements[0]!] })).total).to.equal(4);
  });
});
