import { expect } from 'chai';
import { eachDialect } from './support/each-dialect.js';
import { model, relationship } from './support/library.js';

eachDialect('compileKeys, compileExistingKeys and compileJoinValues', (t) => {
  it('the keys of the rows a filter matches, in key order', async () => {
    const statement = t().compiler.keys(model('article'), {
      kind: 'compare',
      field: { relations: [], column: 'author_id' },
      op: 'eq',
      value: 1,
    });
    expect(
      await t().sql(statement, {
        postgres: {
          sql: 'select "t0"."id" from "article" as "t0" where "t0"."author_id" = cast($1 as bigint) order by "t0"."id" asc',
          bindings: [1],
        },
        mysql: {
          sql: 'select `t0`.`id` from `article` as `t0` where `t0`.`author_id` = ? order by `t0`.`id` asc',
          bindings: [1],
        },
        sqlite: {
          sql: 'select `t0`.`id` from `article` as `t0` where `t0`.`author_id` = ? order by `t0`.`id` asc',
          bindings: [1],
        },
      }),
    ).to.deep.equal([1, 2]);
  });

  it('which of some keys name a row', async () => {
    expect(
      await t().sql(t().compiler.existingKeys(model('tag'), [1, 9]), {
        postgres: {
          sql: 'select "id" from "tag" where "id" in ($1, $2)',
          bindings: [1, 9],
        },
        mysql: {
          sql: 'select `id` from `tag` where `id` in (?, ?)',
          bindings: [1, 9],
        },
        sqlite: {
          sql: 'select `id` from `tag` where `id` in (?, ?)',
          bindings: [1, 9],
        },
      }),
    ).to.deep.equal(new Set(['1']));
  });

  it('the join values of targets by key, for a relationship that does not join on the target key', async () => {
    const values = await t().sql(t().compiler.joinValues(relationship('article', 'editor'), [2, 3]), {
      postgres: {
        sql: 'select "id", "name" from "person" where "id" in ($1, $2)',
        bindings: [2, 3],
      },
      mysql: {
        sql: 'select `id`, `name` from `person` where `id` in (?, ?)',
        bindings: [2, 3],
      },
      sqlite: {
        sql: 'select `id`, `name` from `person` where `id` in (?, ?)',
        bindings: [2, 3],
      },
    });
    expect(values).to.deep.equal(
      new Map([
        ['2', 'Bob'],
        ['3', 'Carol'],
      ]),
    );
  });
});
