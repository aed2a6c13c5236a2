import { expect } from 'chai';
import { eachDialect } from './support/each-dialect.js';
import { collection, relationship } from './support/library.js';

eachDialect('compileRelated', (t) => {
  it('the keys of the targets of many owners at once, each tagged with its owner', async () => {
    const statement = t().compiler.related(relationship('person', 'articles'), [1, 2]);
    expect(statement.carried.size).to.equal(0);
    expect(
      await t().sql(statement, {
        postgres: {
          sql: 'select "t0"."author_id" as "__colapi_owner", "t0"."id" as "id" from "article" as "t0" where "t0"."author_id" in ($1, $2) order by "t0"."id" asc',
          bindings: [1, 2],
        },
        mysql: {
          sql: 'select `t0`.`author_id` as `__colapi_owner`, `t0`.`id` as `id` from `article` as `t0` where `t0`.`author_id` in (?, ?) order by `t0`.`id` asc',
          bindings: [1, 2],
        },
        sqlite: {
          sql: 'select `t0`.`author_id` as `__colapi_owner`, `t0`.`id` as `id` from `article` as `t0` where `t0`.`author_id` in (?, ?) order by `t0`.`id` asc',
          bindings: [1, 2],
        },
      }),
    ).to.deep.equal([
      { owner: '1', id: '1' },
      { owner: '1', id: '2' },
      { owner: '2', id: '3' },
    ]);
  });

  it('the targets in full through a join table, carrying the linkage they show', async () => {
    const relations = { shown: [...collection('tag').relationships.values()], included: new Set<string>() };
    const statement = t().compiler.related(relationship('article', 'tags'), [1, 2], relations);
    expect([...statement.carried]).to.deep.equal(['articles']);
    const rows = await t().sql(statement, {
      postgres: {
        sql: 'select "t1"."article_id" as "__colapi_owner", "t0"."id" as "id", "t0"."name" as "name", array_to_string(array((select "t0l0"."article_id" from "article_tag" as "t0l0" where "t0l0"."tag_id" = "t0"."id" order by "t0l0"."article_id" asc)), \',\') as "__colapi_link_articles" from "tag" as "t0" inner join "article_tag" as "t1" on "t1"."tag_id" = "t0"."id" where "t1"."article_id" in ($1, $2) order by "t0"."id" asc',
        bindings: [1, 2],
      },
      mysql: {
        sql: "select `t1`.`article_id` as `__colapi_owner`, `t0`.`id` as `id`, `t0`.`name` as `name`, (select group_concat(`t0l0`.`article_id` order by `t0l0`.`article_id` separator ',') from `article_tag` as `t0l0` where `t0l0`.`tag_id` = `t0`.`id`) as `__colapi_link_articles` from `tag` as `t0` inner join `article_tag` as `t1` on `t1`.`tag_id` = `t0`.`id` where `t1`.`article_id` in (?, ?) order by `t0`.`id` asc",
        bindings: [1, 2],
      },
      sqlite: {
        sql: "select `t1`.`article_id` as `__colapi_owner`, `t0`.`id` as `id`, `t0`.`name` as `name`, (select group_concat(`t0l0`.`article_id`, ',' order by `t0l0`.`article_id`) from `article_tag` as `t0l0` where `t0l0`.`tag_id` = `t0`.`id`) as `__colapi_link_articles` from `tag` as `t0` inner join `article_tag` as `t1` on `t1`.`tag_id` = `t0`.`id` where `t1`.`article_id` in (?, ?) order by `t0`.`id` asc",
        bindings: [1, 2],
      },
    });
    // In target key order; the owners of one target in any order.
    const found = rows
      .map((r) => [r.owner, r.id, r.row!.values.name, r.row!.linkage.get('articles')])
      .sort((a, b) => String(a[1]).localeCompare(String(b[1])) || String(a[0]).localeCompare(String(b[0])));
    expect(rows.map((r) => r.id)).to.deep.equal(['1', '2', '2']);
    expect(found).to.deep.equal([
      ['1', '1', 'news', ['1']],
      ['1', '2', 'tech', ['1', '2']],
      ['2', '2', 'tech', ['1', '2']],
    ]);
  });

  it('a to-one relationship joined on a column other than the target key', async () => {
    const statement = t().compiler.related(relationship('article', 'editor'), ['Bob']);
    expect(
      await t().sql(statement, {
        postgres: {
          sql: 'select "t0"."name" as "__colapi_owner", "t0"."id" as "id" from "person" as "t0" where "t0"."name" in ($1) order by "t0"."id" asc',
          bindings: ['Bob'],
        },
        mysql: {
          sql: 'select `t0`.`name` as `__colapi_owner`, `t0`.`id` as `id` from `person` as `t0` where `t0`.`name` in (?) order by `t0`.`id` asc',
          bindings: ['Bob'],
        },
        sqlite: {
          sql: 'select `t0`.`name` as `__colapi_owner`, `t0`.`id` as `id` from `person` as `t0` where `t0`.`name` in (?) order by `t0`.`id` asc',
          bindings: ['Bob'],
        },
      }),
    ).to.deep.equal([{ owner: 'Bob', id: '2' }]);
  });
});
