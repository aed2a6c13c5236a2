import { expect } from 'chai';
import type { Relations, Scope } from '../src/index.js';
import { eachDialect } from './support/each-dialect.js';
import { collection, model } from './support/library.js';

const showing = (name: string): Relations => ({
  shown: [...collection(name).relationships.values()],
  included: new Set(),
});
const articlesOf = (ownerKey: number): Scope => ({
  related: { owner: collection('person'), ownerId: String(ownerKey), relation: 'articles' },
  ownerKey,
});

eachDialect('compileRow and compileOwner', (t) => {
  it('a row by key carries the linkage of every relationship it shows', async () => {
    const statement = t().compiler.row(model('article'), 1, showing('article'));
    expect([...statement.carried]).to.deep.equal(['author', 'editor', 'comments', 'tags']);
    const row = await t().sql(statement, {
      postgres: {
        sql: 'select "t0"."id" as "id", "t0"."title" as "title", "t0"."author_id" as "author_id", "t0"."editor_name" as "editor_name", array_to_string(array((select "t0l0"."id" from "person" as "t0l0" where "t0l0"."name" = "t0"."editor_name" order by "t0l0"."id" asc)), \',\') as "__colapi_link_editor", array_to_string(array((select "t0l0"."id" from "comment" as "t0l0" where "t0l0"."article_id" = "t0"."id" order by "t0l0"."id" asc)), \',\') as "__colapi_link_comments", array_to_string(array((select "t0l0"."tag_id" from "article_tag" as "t0l0" where "t0l0"."article_id" = "t0"."id" order by "t0l0"."tag_id" asc)), \',\') as "__colapi_link_tags" from "article" as "t0" where "t0"."id" = cast($1 as bigint)',
        bindings: [1],
      },
      mysql: {
        sql: "select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select group_concat(`t0l0`.`id` order by `t0l0`.`id` separator ',') from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select group_concat(`t0l0`.`id` order by `t0l0`.`id` separator ',') from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select group_concat(`t0l0`.`tag_id` order by `t0l0`.`tag_id` separator ',') from `article_tag` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from `article` as `t0` where `t0`.`id` = ?",
        bindings: [1],
      },
      sqlite: {
        sql: "select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select group_concat(`t0l0`.`id`, ',' order by `t0l0`.`id`) from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select group_concat(`t0l0`.`id`, ',' order by `t0l0`.`id`) from `comment` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_comments`, (select group_concat(`t0l0`.`tag_id`, ',' order by `t0l0`.`tag_id`) from `article_tag` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from `article` as `t0` where `t0`.`id` = ?",
        bindings: [1],
      },
    });
    expect(row!.values).to.deep.equal({ id: 1, title: 'Hello', author_id: 1, editor_name: 'Bob' });
    expect(Object.fromEntries(row!.linkage)).to.deep.equal({
      author: '1',
      editor: '2',
      comments: ['1', '2'],
      tags: ['1', '2'],
    });
  });

  it('an included relationship is not carried: its linkage comes with the related rows', async () => {
    const statement = t().compiler.row(model('article'), 4, {
      shown: [...collection('article').relationships.values()],
      included: new Set(['comments', 'author']),
    });
    expect([...statement.carried]).to.deep.equal(['editor', 'tags']);
    const row = await t().sql(statement, {
      postgres: {
        sql: 'select "t0"."id" as "id", "t0"."title" as "title", "t0"."author_id" as "author_id", "t0"."editor_name" as "editor_name", array_to_string(array((select "t0l0"."id" from "person" as "t0l0" where "t0l0"."name" = "t0"."editor_name" order by "t0l0"."id" asc)), \',\') as "__colapi_link_editor", array_to_string(array((select "t0l0"."tag_id" from "article_tag" as "t0l0" where "t0l0"."article_id" = "t0"."id" order by "t0l0"."tag_id" asc)), \',\') as "__colapi_link_tags" from "article" as "t0" where "t0"."id" = cast($1 as bigint)',
        bindings: [4],
      },
      mysql: {
        sql: "select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select group_concat(`t0l0`.`id` order by `t0l0`.`id` separator ',') from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select group_concat(`t0l0`.`tag_id` order by `t0l0`.`tag_id` separator ',') from `article_tag` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from `article` as `t0` where `t0`.`id` = ?",
        bindings: [4],
      },
      sqlite: {
        sql: "select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name`, (select group_concat(`t0l0`.`id`, ',' order by `t0l0`.`id`) from `person` as `t0l0` where `t0l0`.`name` = `t0`.`editor_name`) as `__colapi_link_editor`, (select group_concat(`t0l0`.`tag_id`, ',' order by `t0l0`.`tag_id`) from `article_tag` as `t0l0` where `t0l0`.`article_id` = `t0`.`id`) as `__colapi_link_tags` from `article` as `t0` where `t0`.`id` = ?",
        bindings: [4],
      },
    });
    expect(Object.fromEntries(row!.linkage)).to.deep.equal({ editor: null, tags: [] });
  });

  it('a row by key within a scope: none when it is not among the owner’s', async () => {
    expect(
      await t().sql(t().compiler.row(model('article'), 3, undefined, articlesOf(1)), {
        postgres: {
          sql: 'select "t0"."id" as "id", "t0"."title" as "title", "t0"."author_id" as "author_id", "t0"."editor_name" as "editor_name" from "article" as "t0" where "t0"."id" = cast($1 as bigint) and "t0"."author_id" = cast($2 as bigint)',
          bindings: [3, 1],
        },
        mysql: {
          sql: 'select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name` from `article` as `t0` where `t0`.`id` = ? and `t0`.`author_id` = ?',
          bindings: [3, 1],
        },
        sqlite: {
          sql: 'select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name` from `article` as `t0` where `t0`.`id` = ? and `t0`.`author_id` = ?',
          bindings: [3, 1],
        },
      }),
    ).to.equal(undefined);
    expect(
      (await t().sql(t().compiler.row(model('article'), 2, undefined, articlesOf(1)), {
        postgres: {
          sql: 'select "t0"."id" as "id", "t0"."title" as "title", "t0"."author_id" as "author_id", "t0"."editor_name" as "editor_name" from "article" as "t0" where "t0"."id" = cast($1 as bigint) and "t0"."author_id" = cast($2 as bigint)',
          bindings: [2, 1],
        },
        mysql: {
          sql: 'select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name` from `article` as `t0` where `t0`.`id` = ? and `t0`.`author_id` = ?',
          bindings: [2, 1],
        },
        sqlite: {
          sql: 'select `t0`.`id` as `id`, `t0`.`title` as `title`, `t0`.`author_id` as `author_id`, `t0`.`editor_name` as `editor_name` from `article` as `t0` where `t0`.`id` = ? and `t0`.`author_id` = ?',
          bindings: [2, 1],
        },
      }))!.values.title,
    ).to.equal('again');
  });

  it("a scope's owner exists, or not", async () => {
    expect(
      await t().sql(t().compiler.owner(articlesOf(1)), {
        postgres: {
          sql: 'select 1 as "found" from "person" as "t0" where "t0"."id" = cast($1 as bigint)',
          bindings: [1],
        },
        mysql: {
          sql: 'select 1 as `found` from `person` as `t0` where `t0`.`id` = ?',
          bindings: [1],
        },
        sqlite: {
          sql: 'select 1 as `found` from `person` as `t0` where `t0`.`id` = ?',
          bindings: [1],
        },
      }),
    ).to.equal(true);
    expect(
      await t().sql(t().compiler.owner(articlesOf(99)), {
        postgres: {
          sql: 'select 1 as "found" from "person" as "t0" where "t0"."id" = cast($1 as bigint)',
          bindings: [99],
        },
        mysql: {
          sql: 'select 1 as `found` from `person` as `t0` where `t0`.`id` = ?',
          bindings: [99],
        },
        sqlite: {
          sql: 'select 1 as `found` from `person` as `t0` where `t0`.`id` = ?',
          bindings: [99],
        },
      }),
    ).to.equal(false);
  });
});
