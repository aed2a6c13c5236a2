import { expect } from 'chai';
import { eachDialect } from './support/each-dialect.js';
import { model } from './support/library.js';

eachDialect(
  'compileUpdate',
  (t) => {
    it('sets the same values on the rows with these keys, answering how many it changed', async () => {
      expect(
        await t().sql(t().compiler.update(model('person'), [1, 2], { age: 41 }), {
          postgres: {
            sql: 'update "person" set "age" = $1 where "id" in ($2, $3)',
            bindings: [41, 1, 2],
          },
          mysql: {
            sql: 'update `person` set `age` = ? where `id` in (?, ?)',
            bindings: [41, 1, 2],
          },
          sqlite: {
            sql: 'update `person` set `age` = ? where `id` in (?, ?)',
            bindings: [41, 1, 2],
          },
        }),
      ).to.equal(2);
      expect(await t().database.knex('person').orderBy('id').pluck('age')).to.deep.equal([41, 41, 25]);
    });
  },
  { seedEach: true },
);
