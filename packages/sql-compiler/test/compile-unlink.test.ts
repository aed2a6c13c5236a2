import { expect } from 'chai';
import { eachDialect } from './support/each-dialect.js';
import { model, relationship } from './support/library.js';

eachDialect(
  'compileUnlink',
  (t) => {
    it('a to-one foreign key on the owner: unset only while it points at the target', async () => {
      const unlink = () =>
        t().compiler.unlink({ model: model('article'), key: 1, own: 1 }, relationship('article', 'author'), {
          key: 1,
          value: 1,
        });
      const expected = {
        postgres: {
          sql: 'update "article" set "author_id" = $1 where "id" = $2 and "author_id" = $3',
          bindings: [null, 1, 1],
        },
        mysql: {
          sql: 'update `article` set `author_id` = ? where `id` = ? and `author_id` = ?',
          bindings: [null, 1, 1],
        },
        sqlite: {
          sql: 'update `article` set `author_id` = ? where `id` = ? and `author_id` = ?',
          bindings: [null, 1, 1],
        },
      };
      expect(await t().sql(unlink(), expected)).to.equal(1);
      expect(await t().sql(unlink(), expected)).to.equal(0);
    });

    it('a foreign key on the target: unset only while it points at the owner', async () => {
      const unlink = (key: number) =>
        t().compiler.unlink({ model: model('person'), key: 1, own: 1 }, relationship('person', 'articles'), {
          key,
          value: key,
        });
      expect(
        await t().sql(unlink(3), {
          postgres: {
            sql: 'update "article" set "author_id" = $1 where "id" = $2 and "author_id" = $3',
            bindings: [null, 3, 1],
          },
          mysql: {
            sql: 'update `article` set `author_id` = ? where `id` = ? and `author_id` = ?',
            bindings: [null, 3, 1],
          },
          sqlite: {
            sql: 'update `article` set `author_id` = ? where `id` = ? and `author_id` = ?',
            bindings: [null, 3, 1],
          },
        }),
      ).to.equal(0);
      expect(
        await t().sql(unlink(2), {
          postgres: {
            sql: 'update "article" set "author_id" = $1 where "id" = $2 and "author_id" = $3',
            bindings: [null, 2, 1],
          },
          mysql: {
            sql: 'update `article` set `author_id` = ? where `id` = ? and `author_id` = ?',
            bindings: [null, 2, 1],
          },
          sqlite: {
            sql: 'update `article` set `author_id` = ? where `id` = ? and `author_id` = ?',
            bindings: [null, 2, 1],
          },
        }),
      ).to.equal(1);
    });

    it('a join row: deleted only while it is there', async () => {
      const unlink = (tag: number) =>
        t().compiler.unlink({ model: model('article'), key: 1, own: 1 }, relationship('article', 'tags'), {
          key: tag,
          value: tag,
        });
      expect(
        await t().sql(unlink(2), {
          postgres: {
            sql: 'delete from "article_tag" where "article_id" = $1 and "tag_id" = $2',
            bindings: [1, 2],
          },
          mysql: {
            sql: 'delete from `article_tag` where `article_id` = ? and `tag_id` = ?',
            bindings: [1, 2],
          },
          sqlite: {
            sql: 'delete from `article_tag` where `article_id` = ? and `tag_id` = ?',
            bindings: [1, 2],
          },
        }),
      ).to.equal(1);
      expect(
        await t().sql(unlink(3), {
          postgres: {
            sql: 'delete from "article_tag" where "article_id" = $1 and "tag_id" = $2',
            bindings: [1, 3],
          },
          mysql: {
            sql: 'delete from `article_tag` where `article_id` = ? and `tag_id` = ?',
            bindings: [1, 3],
          },
          sqlite: {
            sql: 'delete from `article_tag` where `article_id` = ? and `tag_id` = ?',
            bindings: [1, 3],
          },
        }),
      ).to.equal(0);
    });
  },
  { seedEach: true },
);
