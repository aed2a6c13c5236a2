import { expect } from 'chai';
import { eachDialect } from './support/each-dialect.js';
import { relationship } from './support/library.js';

const authors = (t: () => { database: { knex: import('knex').Knex } }) =>
  t().database.knex('article').orderBy('id').pluck('author_id');

eachDialect(
  'compileSetForeignKeys, compileClearForeignKeys and compileReferencing',
  (t) => {
    const articles = relationship('person', 'articles');

    it('points targets at an owner', async () => {
      expect(
        await t().sql(t().compiler.setForeignKeys(articles, 3, [3, 4]), {
          postgres: {
            sql: 'update "article" set "author_id" = $1 where "id" in ($2, $3)',
            bindings: [3, 3, 4],
          },
          mysql: {
            sql: 'update `article` set `author_id` = ? where `id` in (?, ?)',
            bindings: [3, 3, 4],
          },
          sqlite: {
            sql: 'update `article` set `author_id` = ? where `id` in (?, ?)',
            bindings: [3, 3, 4],
          },
        }),
      ).to.equal(2);
      expect(await authors(t)).to.deep.equal([1, 1, 3, 3]);
    });

    it("unsets the foreign key of an owner's targets: all but some, or only some", async () => {
      expect(
        await t().sql(t().compiler.clearForeignKeys(articles, 1, { except: [1] }), {
          postgres: {
            sql: 'update "article" set "author_id" = $1 where "author_id" = $2 and "id" not in ($3)',
            bindings: [null, 1, 1],
          },
          mysql: {
            sql: 'update `article` set `author_id` = ? where `author_id` = ? and `id` not in (?)',
            bindings: [null, 1, 1],
          },
          sqlite: {
            sql: 'update `article` set `author_id` = ? where `author_id` = ? and `id` not in (?)',
            bindings: [null, 1, 1],
          },
        }),
      ).to.equal(1);
      expect(await authors(t)).to.deep.equal([1, null, 2, null]);
      expect(
        await t().sql(t().compiler.clearForeignKeys(articles, 1, { only: [1, 3] }), {
          postgres: {
            sql: 'update "article" set "author_id" = $1 where "author_id" = $2 and "id" in ($3, $4)',
            bindings: [null, 1, 1, 3],
          },
          mysql: {
            sql: 'update `article` set `author_id` = ? where `author_id` = ? and `id` in (?, ?)',
            bindings: [null, 1, 1, 3],
          },
          sqlite: {
            sql: 'update `article` set `author_id` = ? where `author_id` = ? and `id` in (?, ?)',
            bindings: [null, 1, 1, 3],
          },
        }),
      ).to.equal(1);
      expect(await authors(t)).to.deep.equal([null, null, 2, null]);
    });

    it('whether targets still refer to an owner', async () => {
      expect(
        await t().sql(t().compiler.referencing(articles, 1), {
          postgres: {
            sql: 'select "id" from "article" where "author_id" = $1 limit $2',
            bindings: [1, 1],
          },
          mysql: {
            sql: 'select `id` from `article` where `author_id` = ? limit ?',
            bindings: [1, 1],
          },
          sqlite: {
            sql: 'select `id` from `article` where `author_id` = ? limit ?',
            bindings: [1, 1],
          },
        }),
      ).to.equal(true);
      expect(
        await t().sql(t().compiler.referencing(articles, 3), {
          postgres: {
            sql: 'select "id" from "article" where "author_id" = $1 limit $2',
            bindings: [3, 1],
          },
          mysql: {
            sql: 'select `id` from `article` where `author_id` = ? limit ?',
            bindings: [3, 1],
          },
          sqlite: {
            sql: 'select `id` from `article` where `author_id` = ? limit ?',
            bindings: [3, 1],
          },
        }),
      ).to.equal(false);
    });
  },
  { seedEach: true },
);
