import { expect } from 'chai';
import { eachDialect } from './support/each-dialect.js';
import { relationship } from './support/library.js';

eachDialect(
  'compileInsertJoinRows, compileDeleteJoinRows and compileJoinedValues',
  (t) => {
    const tags = relationship('article', 'tags');
    const tagsOf = (article: number) =>
      t().database.knex('article_tag').where({ article_id: article }).orderBy('tag_id').pluck('tag_id');

    it('join rows to targets, leaving a row that is there already as it is', async () => {
      await t().sql(t().compiler.insertJoinRows(tags, 2, [1, 2]), {
        postgres: {
          sql: 'insert into "article_tag" ("article_id", "tag_id") values ($1, $2), ($3, $4) on conflict ("article_id", "tag_id") do update set "article_id" = excluded."article_id"',
          bindings: [2, 1, 2, 2],
        },
        mysql: {
          sql: 'insert into `article_tag` (`article_id`, `tag_id`) values (?, ?), (?, ?) on duplicate key update `article_id` = values(`article_id`)',
          bindings: [2, 1, 2, 2],
        },
        sqlite: {
          sql: 'insert into `article_tag` (`article_id`, `tag_id`) select ? as `article_id`, ? as `tag_id` union all select ? as `article_id`, ? as `tag_id` where true on conflict (`article_id`, `tag_id`) do update set `article_id` = excluded.`article_id`',
          bindings: [2, 1, 2, 2],
        },
      });
      expect(await tagsOf(2)).to.deep.equal([1, 2]);
    });

    it("deletes an owner's join rows: all but some, only some, or all", async () => {
      expect(
        await t().sql(t().compiler.deleteJoinRows(tags, 1, { except: [1] }), {
          postgres: {
            sql: 'delete from "article_tag" where "article_id" = $1 and "tag_id" not in ($2)',
            bindings: [1, 1],
          },
          mysql: {
            sql: 'delete from `article_tag` where `article_id` = ? and `tag_id` not in (?)',
            bindings: [1, 1],
          },
          sqlite: {
            sql: 'delete from `article_tag` where `article_id` = ? and `tag_id` not in (?)',
            bindings: [1, 1],
          },
        }),
      ).to.equal(1);
      expect(await tagsOf(1)).to.deep.equal([1]);
      expect(
        await t().sql(t().compiler.deleteJoinRows(tags, 1, { only: [1] }), {
          postgres: {
            sql: 'delete from "article_tag" where "article_id" = $1 and "tag_id" in ($2)',
            bindings: [1, 1],
          },
          mysql: {
            sql: 'delete from `article_tag` where `article_id` = ? and `tag_id` in (?)',
            bindings: [1, 1],
          },
          sqlite: {
            sql: 'delete from `article_tag` where `article_id` = ? and `tag_id` in (?)',
            bindings: [1, 1],
          },
        }),
      ).to.equal(1);
      expect(
        await t().sql(t().compiler.deleteJoinRows(tags, 3, 'all'), {
          postgres: {
            sql: 'delete from "article_tag" where "article_id" = $1',
            bindings: [3],
          },
          mysql: {
            sql: 'delete from `article_tag` where `article_id` = ?',
            bindings: [3],
          },
          sqlite: {
            sql: 'delete from `article_tag` where `article_id` = ?',
            bindings: [3],
          },
        }),
      ).to.equal(1);
      expect(
        await t()
          .database.knex('article_tag')
          .count({ n: '*' })
          .then((r) => Number(r[0]!.n)),
      ).to.equal(1);
    });

    it('which target join values an owner is joined to already', async () => {
      expect(
        await t().sql(t().compiler.joinedValues(tags, 1, [1, 3]), {
          postgres: {
            sql: 'select "tag_id" from "article_tag" where "article_id" = $1 and "tag_id" in ($2, $3)',
            bindings: [1, 1, 3],
          },
          mysql: {
            sql: 'select `tag_id` from `article_tag` where `article_id` = ? and `tag_id` in (?, ?)',
            bindings: [1, 1, 3],
          },
          sqlite: {
            sql: 'select `tag_id` from `article_tag` where `article_id` = ? and `tag_id` in (?, ?)',
            bindings: [1, 1, 3],
          },
        }),
      ).to.deep.equal(new Set(['1']));
    });
  },
  { seedEach: true },
);
