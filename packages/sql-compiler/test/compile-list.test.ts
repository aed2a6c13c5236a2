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
  it('a first page in key order: the rows carry the linkage they show, and a count tells the total', async () => {
    const plan = t().compiler.list({
      collection: collection('article'),
      query: query({ paging: { offset: 0, limit: 10 } }),
      relations: showing('article'),
      total: 'exact',
    });
    expect([...plan.carried]).to.deep.equal(['author', 'editor', 'comments', 'tags']);
    expect(plan.statements).to.have.lengthOf(2);
    const page = await t().sql(plan.statements[0], {
      postgres: {
        sql: 'select "t0"."id" as "id", "t0"."title" as "title", "t0"."author_id" as "author_id", "t0"."editor_name" as "editor_name", array((select cast("t0l0"."id" as text) from "person" as "t0l0" where "t0l0"."name" = "t0"."editor_name" order by "t0l0"."id" asc)) as "__colapi_link_editor", array((select cast("t0l0"."id" as text) from "comment" as "t0l0" where "t0l0"."article_id" = "t0"."id" order by "t0l0"."id" asc)) as "__colapi_link_comments", array((select cast("t0l0"."id" as text) from "tag" as "t0l0" inner join "article_tag" as "t0l1" on "t0l1"."tag_id" = "t0l0"."id" where "t0l1"."article_id" = "t0"."id" order by "t0l0"."id" asc)) as "__colapi_link_tags" from "article" as "t0" order by "t0"."id" asc limit $1',
        bindings: [10],
      },
      mysql: {
        sql: "select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select concat('[', coalesce(group_concat(json_quote(cast(`t0l0`.`id` as char)) order by `t0l0`.`id` separator ','), ''), ']') from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select concat('[', coalesce(group_concat(json_quote(cast(`t0l0`.`id` as char)) order by `t0l0`.`id` separator ','), ''), ']') from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select concat('[', coalesce(group_concat(json_quote(cast(`t0l0`.`id` as char)) order by `t0l0`.`id` separator ','), ''), ']') from `tag` as `t0l0` inner join `article_tag` as `t0l1` on `t0l1`.`tag_id` = `t0l0`.`id` where `t0l1`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from `article` as `t0` order by `t0`.`id` asc limit ?",
        bindings: [10],
      },
      sqlite: {
        sql: 'select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select json_group_array(cast(`t0l0`.`id` as text) order by `t0l0`.`id`) from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select json_group_array(cast(`t0l0`.`id` as text) order by `t0l0`.`id`) from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select json_group_array(cast(`t0l0`.`id` as text) order by `t0l0`.`id`) from `tag` as `t0l0` inner join `article_tag` as `t0l1` on `t0l1`.`tag_id` = `t0l0`.`id` where `t0l1`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from `article` as `t0` order by `t0`.`id` asc limit ?',
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
    expect(
      await t().sql(plan.statements[1], {
        postgres: {
          sql: 'select count(*) as "total" from "article" as "t1"',
          bindings: [],
        },
        mysql: {
          sql: 'select count(*) as `total` from `article` as `t1`',
          bindings: [],
        },
        sqlite: {
          sql: 'select count(*) as `total` from `article` as `t1`',
          bindings: [],
        },
      }),
    ).to.deep.equal({ total: 4 });
  });

  it('a sorted page past the first: filtered, ordered through a to-one path, and carrying only foreign keys', async () => {
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
    expect([...plan.carried]).to.deep.equal(['author']);
    const page = await t().sql(plan.statements[0], {
      postgres: {
        sql: 'select "t0"."id" as "id", "t0"."title" as "title", "t0"."author_id" as "author_id", "t0"."editor_name" as "editor_name" from "article" as "t0" where "t0"."title" ilike $1 order by (select "t2"."name" from "person" as "t2" where "t2"."id" = "t0"."author_id" limit $2) collate "C" desc nulls last, "t0"."id" asc limit $3 offset $4',
        bindings: ['%O%', 1, 2, 1],
      },
      mysql: {
        sql: 'select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name` from `article` as `t0` where lower(`t0`.`title`) like (lower(?) collate utf8mb4_bin) order by cast((select `t2`.`name` from `person` as `t2` where `t2`.`id` = `t0`.`author_id` limit ?) as binary) desc, `t0`.`id` asc limit ? offset ?',
        bindings: ['%O%', 1, 2, 1],
      },
      sqlite: {
        sql: "select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name` from `article` as `t0` where colapi_lower(`t0`.`title`) like colapi_lower(?) escape '\\' order by (select `t2`.`name` from `person` as `t2` where `t2`.`id` = `t0`.`author_id` limit ?) collate binary desc, `t0`.`id` asc limit ? offset ?",
        bindings: ['%O%', 1, 2, 1],
      },
    });
    // Bonjour (Bob), Hello (Alice), orphan (no author: last when descending); the first skipped.
    expect(ids(page as ListAnswer)).to.deep.equal([1, 4]);
    expect(page.rows!.map((r) => Object.fromEntries(r.linkage))).to.deep.equal([{ author: '1' }, { author: null }]);
    expect(
      await t().sql(plan.statements[1], {
        postgres: {
          sql: 'select count(*) as "total" from "article" as "t1" where "t1"."title" ilike $1',
          bindings: ['%O%'],
        },
        mysql: {
          sql: 'select count(*) as `total` from `article` as `t1` where lower(`t1`.`title`) like (lower(?) collate utf8mb4_bin)',
          bindings: ['%O%'],
        },
        sqlite: {
          sql: "select count(*) as `total` from `article` as `t1` where colapi_lower(`t1`.`title`) like colapi_lower(?) escape '\\'",
          bindings: ['%O%'],
        },
      }),
    ).to.deep.equal({ total: 3 });
  });

  it('a grouped page: the row with the smallest key per group, and the groups counted', async () => {
    const plan = t().compiler.list({
      collection: collection('article'),
      query: query({ group: [field('author_id')] }),
      relations: showing('article'),
      total: 'exact',
    });
    expect(
      ids(
        (await t().sql(plan.statements[0], {
          postgres: {
            sql: 'select "t0"."id" as "id", "t0"."title" as "title", "t0"."author_id" as "author_id", "t0"."editor_name" as "editor_name", array((select cast("t0l0"."id" as text) from "person" as "t0l0" where "t0l0"."name" = "t0"."editor_name" order by "t0l0"."id" asc)) as "__colapi_link_editor", array((select cast("t0l0"."id" as text) from "comment" as "t0l0" where "t0l0"."article_id" = "t0"."id" order by "t0l0"."id" asc)) as "__colapi_link_comments", array((select cast("t0l0"."id" as text) from "tag" as "t0l0" inner join "article_tag" as "t0l1" on "t0l1"."tag_id" = "t0l0"."id" where "t0l1"."article_id" = "t0"."id" order by "t0l0"."id" asc)) as "__colapi_link_tags" from "article" as "t0" where "t0"."id" in (select min("t1"."id") as "k" from "article" as "t1" group by "t1"."author_id") order by "t0"."id" asc',
            bindings: [],
          },
          mysql: {
            sql: "select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select concat('[', coalesce(group_concat(json_quote(cast(`t0l0`.`id` as char)) order by `t0l0`.`id` separator ','), ''), ']') from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select concat('[', coalesce(group_concat(json_quote(cast(`t0l0`.`id` as char)) order by `t0l0`.`id` separator ','), ''), ']') from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select concat('[', coalesce(group_concat(json_quote(cast(`t0l0`.`id` as char)) order by `t0l0`.`id` separator ','), ''), ']') from `tag` as `t0l0` inner join `article_tag` as `t0l1` on `t0l1`.`tag_id` = `t0l0`.`id` where `t0l1`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from `article` as `t0` where `t0`.`id` in (select min(`t1`.`id`) as `k` from `article` as `t1` group by `t1`.`author_id`) order by `t0`.`id` asc",
            bindings: [],
          },
          sqlite: {
            sql: 'select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select json_group_array(cast(`t0l0`.`id` as text) order by `t0l0`.`id`) from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select json_group_array(cast(`t0l0`.`id` as text) order by `t0l0`.`id`) from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select json_group_array(cast(`t0l0`.`id` as text) order by `t0l0`.`id`) from `tag` as `t0l0` inner join `article_tag` as `t0l1` on `t0l1`.`tag_id` = `t0l0`.`id` where `t0l1`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from `article` as `t0` where `t0`.`id` in (select min(`t1`.`id`) as `k` from `article` as `t1` group by `t1`.`author_id`) order by `t0`.`id` asc',
            bindings: [],
          },
        })) as ListAnswer,
      ),
    ).to.deep.equal([1, 3, 4]);
    expect(
      await t().sql(plan.statements[1], {
        postgres: {
          sql: 'select count(*) as "total" from (select min("t1"."id") as "k" from "article" as "t1" group by "t1"."author_id") as "g"',
          bindings: [],
        },
        mysql: {
          sql: 'select count(*) as `total` from (select min(`t1`.`id`) as `k` from `article` as `t1` group by `t1`.`author_id`) as `g`',
          bindings: [],
        },
        sqlite: {
          sql: 'select count(*) as `total` from (select min(`t1`.`id`) as `k` from `article` as `t1` group by `t1`.`author_id`) as `g`',
          bindings: [],
        },
      }),
    ).to.deep.equal({ total: 3 });
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
            sql: 'select "t0"."id" as "id", "t0"."title" as "title", "t0"."author_id" as "author_id", "t0"."editor_name" as "editor_name" from "article" as "t0" where (("t0"."id" in (select "t2"."article_id" from "tag" as "t1" inner join "article_tag" as "t2" on "t2"."tag_id" = "t1"."id" where "t1"."name" collate "C" in ($1, $2)) or "t0"."title" collate "C" = "t0"."editor_name" collate "C") and 1 = 1) order by "t0"."title" collate "C" asc nulls first, "t0"."id" asc',
            bindings: ['misc', 'news'],
          },
          mysql: {
            sql: 'select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name` from `article` as `t0` where ((`t0`.`id` in (select `t2`.`article_id` from `tag` as `t1` inner join `article_tag` as `t2` on `t2`.`tag_id` = `t1`.`id` where cast(`t1`.`name` as binary) in (?, ?)) or cast(`t0`.`title` as binary) = cast(`t0`.`editor_name` as binary)) and 1 = 1) order by cast(`t0`.`title` as binary) asc, `t0`.`id` asc',
            bindings: ['misc', 'news'],
          },
          sqlite: {
            sql: 'select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name` from `article` as `t0` where ((`t0`.`id` in (select `t2`.`article_id` from `tag` as `t1` inner join `article_tag` as `t2` on `t2`.`tag_id` = `t1`.`id` where `t1`.`name` collate binary in (?, ?)) or `t0`.`title` collate binary = `t0`.`editor_name` collate binary) and 1 = 1) order by `t0`.`title` collate binary asc, `t0`.`id` asc',
            bindings: ['misc', 'news'],
          },
        })) as ListAnswer,
      ),
    ).to.deep.equal([3, 1]);
  });

  it('a related collection: the count also tells whether the owner exists, so its 404 costs no statement', async () => {
    const plan = t().compiler.list({
      collection: collection('article'),
      query: query({ paging: { offset: 0, limit: 10 } }),
      relations: showing('article'),
      scope: scope('person', 1, 'articles'),
      total: 'exact',
    });
    expect(plan.statements).to.have.lengthOf(2);
    expect(
      ids(
        (await t().sql(plan.statements[0], {
          postgres: {
            sql: 'select "t0"."id" as "id", "t0"."title" as "title", "t0"."author_id" as "author_id", "t0"."editor_name" as "editor_name", array((select cast("t0l0"."id" as text) from "person" as "t0l0" where "t0l0"."name" = "t0"."editor_name" order by "t0l0"."id" asc)) as "__colapi_link_editor", array((select cast("t0l0"."id" as text) from "comment" as "t0l0" where "t0l0"."article_id" = "t0"."id" order by "t0l0"."id" asc)) as "__colapi_link_comments", array((select cast("t0l0"."id" as text) from "tag" as "t0l0" inner join "article_tag" as "t0l1" on "t0l1"."tag_id" = "t0l0"."id" where "t0l1"."article_id" = "t0"."id" order by "t0l0"."id" asc)) as "__colapi_link_tags" from "article" as "t0" where "t0"."author_id" = cast($1 as bigint) order by "t0"."id" asc limit $2',
            bindings: [1, 10],
          },
          mysql: {
            sql: "select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select concat('[', coalesce(group_concat(json_quote(cast(`t0l0`.`id` as char)) order by `t0l0`.`id` separator ','), ''), ']') from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select concat('[', coalesce(group_concat(json_quote(cast(`t0l0`.`id` as char)) order by `t0l0`.`id` separator ','), ''), ']') from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select concat('[', coalesce(group_concat(json_quote(cast(`t0l0`.`id` as char)) order by `t0l0`.`id` separator ','), ''), ']') from `tag` as `t0l0` inner join `article_tag` as `t0l1` on `t0l1`.`tag_id` = `t0l0`.`id` where `t0l1`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from `article` as `t0` where `t0`.`author_id` = ? order by `t0`.`id` asc limit ?",
            bindings: [1, 10],
          },
          sqlite: {
            sql: 'select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select json_group_array(cast(`t0l0`.`id` as text) order by `t0l0`.`id`) from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select json_group_array(cast(`t0l0`.`id` as text) order by `t0l0`.`id`) from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select json_group_array(cast(`t0l0`.`id` as text) order by `t0l0`.`id`) from `tag` as `t0l0` inner join `article_tag` as `t0l1` on `t0l1`.`tag_id` = `t0l0`.`id` where `t0l1`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from `article` as `t0` where `t0`.`author_id` = ? order by `t0`.`id` asc limit ?',
            bindings: [1, 10],
          },
        })) as ListAnswer,
      ),
    ).to.deep.equal([1, 2]);
    expect(
      await t().sql(plan.statements[1], {
        postgres: {
          sql: 'select count(*) as "total", (select 1 as "found" from "person" as "t2" where "t2"."id" = cast($1 as bigint)) as "owner" from "article" as "t1" where "t1"."author_id" = cast($2 as bigint)',
          bindings: [1, 1],
        },
        mysql: {
          sql: 'select count(*) as `total`, (select 1 as `found` from `person` as `t2` where `t2`.`id` = ?) as `owner` from `article` as `t1` where `t1`.`author_id` = ?',
          bindings: [1, 1],
        },
        sqlite: {
          sql: 'select count(*) as `total`, (select 1 as `found` from `person` as `t2` where `t2`.`id` = ?) as `owner` from `article` as `t1` where `t1`.`author_id` = ?',
          bindings: [1, 1],
        },
      }),
    ).to.deep.equal({ total: 2, ownerExists: true });
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

  it('a related collection joined on a column other than the owner key, and one through a join table', async () => {
    const edited = t().compiler.list({
      collection: collection('article'),
      query: query({}),
      relations: showing('article'),
      scope: scope('person', 2, 'edited'),
      total: 'none',
    });
    expect(edited.statements).to.have.lengthOf(2);
    expect(
      ids(
        (await t().sql(edited.statements[0], {
          postgres: {
            sql: 'select "t0"."id" as "id", "t0"."title" as "title", "t0"."author_id" as "author_id", "t0"."editor_name" as "editor_name", array((select cast("t0l0"."id" as text) from "person" as "t0l0" where "t0l0"."name" = "t0"."editor_name" order by "t0l0"."id" asc)) as "__colapi_link_editor", array((select cast("t0l0"."id" as text) from "comment" as "t0l0" where "t0l0"."article_id" = "t0"."id" order by "t0l0"."id" asc)) as "__colapi_link_comments", array((select cast("t0l0"."id" as text) from "tag" as "t0l0" inner join "article_tag" as "t0l1" on "t0l1"."tag_id" = "t0l0"."id" where "t0l1"."article_id" = "t0"."id" order by "t0l0"."id" asc)) as "__colapi_link_tags" from "article" as "t0" where "t0"."editor_name" in (select "t1"."name" from "person" as "t1" where "t1"."id" = cast($1 as bigint)) order by "t0"."id" asc',
            bindings: [2],
          },
          mysql: {
            sql: "select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select concat('[', coalesce(group_concat(json_quote(cast(`t0l0`.`id` as char)) order by `t0l0`.`id` separator ','), ''), ']') from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select concat('[', coalesce(group_concat(json_quote(cast(`t0l0`.`id` as char)) order by `t0l0`.`id` separator ','), ''), ']') from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select concat('[', coalesce(group_concat(json_quote(cast(`t0l0`.`id` as char)) order by `t0l0`.`id` separator ','), ''), ']') from `tag` as `t0l0` inner join `article_tag` as `t0l1` on `t0l1`.`tag_id` = `t0l0`.`id` where `t0l1`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from `article` as `t0` where `t0`.`editor_name` in (select `t1`.`name` from `person` as `t1` where `t1`.`id` = ?) order by `t0`.`id` asc",
            bindings: [2],
          },
          sqlite: {
            sql: 'select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select json_group_array(cast(`t0l0`.`id` as text) order by `t0l0`.`id`) from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select json_group_array(cast(`t0l0`.`id` as text) order by `t0l0`.`id`) from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select json_group_array(cast(`t0l0`.`id` as text) order by `t0l0`.`id`) from `tag` as `t0l0` inner join `article_tag` as `t0l1` on `t0l1`.`tag_id` = `t0l0`.`id` where `t0l1`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from `article` as `t0` where `t0`.`editor_name` in (select `t1`.`name` from `person` as `t1` where `t1`.`id` = ?) order by `t0`.`id` asc',
            bindings: [2],
          },
        })) as ListAnswer,
      ),
    ).to.deep.equal([1, 3]);
    expect(
      await t().sql(edited.statements[1], {
        postgres: {
          sql: 'select 1 as "found" from "person" as "t4" where "t4"."id" = cast($1 as bigint)',
          bindings: [2],
        },
        mysql: {
          sql: 'select 1 as `found` from `person` as `t4` where `t4`.`id` = ?',
          bindings: [2],
        },
        sqlite: {
          sql: 'select 1 as `found` from `person` as `t4` where `t4`.`id` = ?',
          bindings: [2],
        },
      }),
    ).to.deep.equal({ ownerExists: true });
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
            sql: 'select "t0"."id" as "id", "t0"."name" as "name", array((select cast("t0l0"."id" as text) from "article" as "t0l0" inner join "article_tag" as "t0l1" on "t0l1"."article_id" = "t0l0"."id" where "t0l1"."tag_id" = "t0"."id" order by "t0l0"."id" asc)) as "__colapi_link_articles" from "tag" as "t0" where "t0"."id" in (select "t1"."tag_id" from "article_tag" as "t1" where "t1"."article_id" = cast($1 as bigint)) order by "t0"."id" asc',
            bindings: [1],
          },
          mysql: {
            sql: "select `t0`.`id` as `id`, `t0`.`name` as `name`, (select concat('[', coalesce(group_concat(json_quote(cast(`t0l0`.`id` as char)) order by `t0l0`.`id` separator ','), ''), ']') from `article` as `t0l0` inner join `article_tag` as `t0l1` on `t0l1`.`article_id` = `t0l0`.`id` where `t0l1`.`tag_id` = `t0`.`id`) as `__colapi_link_articles` from `tag` as `t0` where `t0`.`id` in (select `t1`.`tag_id` from `article_tag` as `t1` where `t1`.`article_id` = ?) order by `t0`.`id` asc",
            bindings: [1],
          },
          sqlite: {
            sql: 'select `t0`.`id` as `id`, `t0`.`name` as `name`, (select json_group_array(cast(`t0l0`.`id` as text) order by `t0l0`.`id`) from `article` as `t0l0` inner join `article_tag` as `t0l1` on `t0l1`.`article_id` = `t0l0`.`id` where `t0l1`.`tag_id` = `t0`.`id`) as `__colapi_link_articles` from `tag` as `t0` where `t0`.`id` in (select `t1`.`tag_id` from `article_tag` as `t1` where `t1`.`article_id` = ?) order by `t0`.`id` asc',
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
            sql: 'select "t0"."id" as "id", "t0"."name" as "name", "t0"."age" as "age", array((select cast("t0l0"."id" as text) from "article" as "t0l0" where "t0l0"."author_id" = "t0"."id" order by "t0l0"."id" asc)) as "__colapi_link_articles", array((select cast("t0l0"."id" as text) from "article" as "t0l0" where "t0l0"."editor_name" = "t0"."name" order by "t0l0"."id" asc)) as "__colapi_link_edited" from "person" as "t0" where "t0"."age" > cast($1 as bigint) order by "t0"."id" asc limit $2',
            bindings: [26, 2],
          },
          mysql: {
            sql: "select `t0`.`id` as `id`, `t0`.`name` as `name`, `t0`.`age` as `age`, (select concat('[', coalesce(group_concat(json_quote(cast(`t0l0`.`id` as char)) order by `t0l0`.`id` separator ','), ''), ']') from `article` as `t0l0` where `t0l0`.`author_id` = `t0`.`id`) as `__colapi_link_articles`, (select concat('[', coalesce(group_concat(json_quote(cast(`t0l0`.`id` as char)) order by `t0l0`.`id` separator ','), ''), ']') from `article` as `t0l0` where `t0l0`.`editor_name` = `t0`.`name`) as `__colapi_link_edited` from `person` as `t0` where `t0`.`age` > ? order by `t0`.`id` asc limit ?",
            bindings: [26, 2],
          },
          sqlite: {
            sql: 'select `t0`.`id` as `id`, `t0`.`name` as `name`, `t0`.`age` as `age`, (select json_group_array(cast(`t0l0`.`id` as text) order by `t0l0`.`id`) from `article` as `t0l0` where `t0l0`.`author_id` = `t0`.`id`) as `__colapi_link_articles`, (select json_group_array(cast(`t0l0`.`id` as text) order by `t0l0`.`id`) from `article` as `t0l0` where `t0l0`.`editor_name` = `t0`.`name`) as `__colapi_link_edited` from `person` as `t0` where `t0`.`age` > ? order by `t0`.`id` asc limit ?',
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
    await t().sql(plan.fallback ?? plan.statements[1], {
      postgres: {
        sql: 'select count(*) as "total" from "article" as "t1"',
        bindings: [],
      },
      mysql: {
        sql: 'select count(*) as `total` from `article` as `t1`',
        bindings: [],
      },
      sqlite: {
        sql: 'select count(*) as `total` from `article` as `t1`',
        bindings: [],
      },
    });
    const { total } = await runList(t().database.knex, t().database.dialect, plan);
    expect(total).to.be.a('number').at.least(0);
  });
});
