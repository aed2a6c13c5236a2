import { expect } from 'chai';
import { StatementError } from '../src/index.js';
import { eachDialect } from './support/each-dialect.js';
import { model } from './support/library.js';

eachDialect(
  'compileDelete',
  (t) => {
    it('deletes the rows with these keys, answering how many it deleted', async () => {
      expect(
        await t().sql(t().compiler.delete(model('comment'), [3, 99]), {
          postgres: {
            sql: 'delete from "comment" where "id" in ($1, $2)',
            bindings: [3, 99],
          },
          mysql: {
            sql: 'delete from `comment` where `id` in (?, ?)',
            bindings: [3, 99],
          },
          sqlite: {
            sql: 'delete from `comment` where `id` in (?, ?)',
            bindings: [3, 99],
          },
        }),
      ).to.equal(1);
    });

    it('a row others still refer to stays, and the error says so on every dialect', async () => {
      const error = await t()
        .sql(t().compiler.delete(model('person'), [1]), {
          postgres: {
            sql: 'delete from "person" where "id" in ($1)',
            bindings: [1],
          },
          mysql: {
            sql: 'delete from `person` where `id` in (?)',
            bindings: [1],
          },
          sqlite: {
            sql: 'delete from `person` where `id` in (?)',
            bindings: [1],
          },
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).to.be.instanceOf(StatementError);
      expect((error as StatementError).kind).to.equal('foreign-key-referenced');
      expect(await t().database.knex('person').where({ id: 1 })).to.have.lengthOf(1);
    });
  },
  { seedEach: true },
);
