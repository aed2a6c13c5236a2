import { expect } from 'chai';
import { runStatement } from '../src/index.js';
import { eachDialect } from './support/each-dialect.js';
import { collection, model } from './support/library.js';

eachDialect(
  'compileInsert, compileInsertReturning and compileAdvanceKey',
  (t) => {
    it('an insert answers the key it wrote', async () => {
      expect(
        await t().sql(t().compiler.insert(model('person'), { name: 'Dave', age: 40 }), {
          postgres: {
            sql: 'insert into "person" ("age", "name") values ($1, $2) returning "id"',
            bindings: [40, 'Dave'],
          },
          mysql: {
            sql: 'insert into `person` (`age`, `name`) values (?, ?)',
            bindings: [40, 'Dave'],
          },
          sqlite: {
            sql: 'insert into `person` (`age`, `name`) values (?, ?) returning `id`',
            bindings: [40, 'Dave'],
          },
        }),
      ).to.equal(4);
    });

    it('an insert of nothing but defaults', async () => {
      expect(
        await t().sql(t().compiler.insert(model('tag'), { name: 'new' }), {
          postgres: {
            sql: 'insert into "tag" ("name") values ($1) returning "id"',
            bindings: ['new'],
          },
          mysql: {
            sql: 'insert into `tag` (`name`) values (?)',
            bindings: ['new'],
          },
          sqlite: {
            sql: 'insert into `tag` (`name`) values (?) returning `id`',
            bindings: ['new'],
          },
        }),
      ).to.equal(4);
    });

    it('an insert returning the row in its read form and all its linkage, key lists in RETURNING (where the database returns rows)', async () => {
      const relations = { shown: [...collection('article').relationships.values()], included: new Set<string>() };
      const { dialect, knex } = t().database;
      // MySQL compiles it too, and a MariaDB server runs it; the MariaDB servers of these tests are all 10.5+.
      const returning = dialect.returning || (await dialect.returnsInsertedRows?.(knex)) === true;
      const statement = returning
        ? t().compiler.insertReturning(model('article'), { title: 'New', author_id: 2 }, relations)
        : undefined;
      const row = await t().sql(statement, {
        postgres: {
          sql: 'insert into "article" ("author_id", "title") values ($1, $2) returning "id" as "id", "title" as "title", "author_id" as "author_id", "editor_name" as "editor_name", array_to_string(array((select "articlel0"."id" from "person" as "articlel0" where "articlel0"."name" = "article"."editor_name" order by "articlel0"."id" asc)), \',\') as "__colapi_link_editor", array_to_string(array((select "articlel0"."id" from "comment" as "articlel0" where "articlel0"."article_id" = "article"."id" order by "articlel0"."id" asc)), \',\') as "__colapi_link_comments", array_to_string(array((select "articlel0"."tag_id" from "article_tag" as "articlel0" where "articlel0"."article_id" = "article"."id" order by "articlel0"."tag_id" asc)), \',\') as "__colapi_link_tags"',
          bindings: [2, 'New'],
        },
        mysql: {
          sql: "insert into `article` (`author_id`, `title`) values (?, ?) returning `id` as `id`, `title` as `title`, `author_id` as `author_id`, `editor_name` as `editor_name`, (select group_concat(`articlel0`.`id` order by `articlel0`.`id` separator ',') from `person` as `articlel0` where `articlel0`.`name` = `article`.`editor_name`) as `__colapi_link_editor`, (select group_concat(`articlel0`.`id` order by `articlel0`.`id` separator ',') from `comment` as `articlel0` where `articlel0`.`article_id` = `article`.`id`) as `__colapi_link_comments`, (select group_concat(`articlel0`.`tag_id` order by `articlel0`.`tag_id` separator ',') from `article_tag` as `articlel0` where `articlel0`.`article_id` = `article`.`id`) as `__colapi_link_tags`",
          bindings: [2, 'New'],
        },
        sqlite: {
          sql: "insert into `article` (`author_id`, `title`) values (?, ?) returning `id` as `id`, `title` as `title`, `author_id` as `author_id`, `editor_name` as `editor_name`, (select group_concat(`articlel0`.`id`, ',' order by `articlel0`.`id`) from `person` as `articlel0` where `articlel0`.`name` = `article`.`editor_name`) as `__colapi_link_editor`, (select group_concat(`articlel0`.`id`, ',' order by `articlel0`.`id`) from `comment` as `articlel0` where `articlel0`.`article_id` = `article`.`id`) as `__colapi_link_comments`, (select group_concat(`articlel0`.`tag_id`, ',' order by `articlel0`.`tag_id`) from `article_tag` as `articlel0` where `articlel0`.`article_id` = `article`.`id`) as `__colapi_link_tags`",
          bindings: [2, 'New'],
        },
      });
      if (!statement) return;
      expect([...statement.carried]).to.deep.equal(['author', 'editor', 'comments', 'tags']);
      expect(row.values).to.deep.equal({ id: 5, title: 'New', author_id: 2, editor_name: null });
      // A row that did not exist a statement ago: nothing refers to it yet.
      expect(Object.fromEntries(row.linkage)).to.deep.equal({ author: '2', editor: null, comments: [], tags: [] });
    });

    it('after a key the client chose, the key generator moves past it (where the database does not do so itself)', async () => {
      const { knex, dialect } = t().database;
      await runStatement(knex, dialect, t().compiler.insert(model('tag'), { id: 10, name: 'chosen' }));
      await t().sql(t().compiler.advanceKey(model('tag')), {
        postgres: {
          sql: 'select setval(s, greatest(coalesce(pg_sequence_last_value(s), 0), (select coalesce(max("id"), 0) from "tag"), 1))\n       from (select pg_get_serial_sequence($1, $2)::regclass as s) q where s is not null',
          bindings: ['"tag"', 'id'],
        },
        mysql: undefined,
        sqlite: undefined,
      });
      expect(await runStatement(knex, dialect, t().compiler.insert(model('tag'), { name: 'next' }))).to.equal(11);
    });
  },
  { seedEach: true },
);
