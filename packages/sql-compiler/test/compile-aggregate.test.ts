import { expect } from 'chai';
import type { Filter } from '@colapi/query-ast';
import { runStatement } from '../src/index.js';
import { eachDialect } from './support/each-dialect.js';
import { model } from './support/library.js';

eachDialect('compileAggregate', (t) => {
  it('whitelisted functions over every row, binding nothing: compiled once per function list', async () => {
    const functions = [
      { name: 'count', column: 'id' },
      { name: 'avg', column: 'age' },
      { name: 'min', column: 'name' },
      { name: 'max', column: 'name' },
    ];
    const statement = t().compiler.aggregate(model('person'), functions);
    expect(t().compiler.aggregate(model('person'), functions).sql).to.equal(statement.sql);
    expect(
      await t().sql(statement, {
        postgres: {
          sql: 'select count("t0"."id") as "f0", avg("t0"."age") as "f1", min("t0"."name" collate "C") as "f2", max("t0"."name" collate "C") as "f3" from "person" as "t0"',
          bindings: [],
        },
        mysql: {
          sql: 'select count(`t0`.`id`) as `f0`, avg(`t0`.`age` * 1e0) as `f1`, min(cast(`t0`.`name` as binary)) as `f2`, max(cast(`t0`.`name` as binary)) as `f3` from `person` as `t0`',
          bindings: [],
        },
        sqlite: {
          sql: 'select count(`t0`.`id`) as `f0`, avg(`t0`.`age`) as `f1`, min(`t0`.`name` collate binary) as `f2`, max(`t0`.`name` collate binary) as `f3` from `person` as `t0`',
          bindings: [],
        },
      }),
    ).to.deep.equal([3, 27.5, 'Alice', 'Carol']);
  });

  it('over the rows a filter matches', async () => {
    const functions = [
      { name: 'count', column: 'id' },
      { name: 'sum', column: 'age' },
    ];
    const statement = t().compiler.aggregate(model('person'), functions, {
      kind: 'compare',
      field: { relations: [], column: 'age' },
      op: 'ge',
      value: 26,
    });
    expect(
      await t().sql(statement, {
        postgres: {
          sql: 'select count("t0"."id") as "f0", sum("t0"."age") as "f1" from "person" as "t0" where "t0"."age" >= cast($1 as bigint)',
          bindings: [26],
        },
        mysql: {
          sql: 'select count(`t0`.`id`) as `f0`, sum(`t0`.`age`) as `f1` from `person` as `t0` where `t0`.`age` >= ?',
          bindings: [26],
        },
        sqlite: {
          sql: 'select count(`t0`.`id`) as `f0`, sum(`t0`.`age`) as `f1` from `person` as `t0` where `t0`.`age` >= ?',
          bindings: [26],
        },
      }),
    ).to.deep.equal([1, 30]);
  });

  it("a filtered evaluation is kept per its filter's text and bound again with the next filter's values", async () => {
    const functions = [
      { name: 'count', column: 'id' },
      { name: 'sum', column: 'age' },
    ];
    const field = (column: string) => ({ relations: [], column });
    const named = (age: number, names: string[]): Filter => ({
      kind: 'and',
      filters: [
        { kind: 'compare', field: field('age'), op: 'ge', value: age },
        { kind: 'compare', field: field('name'), op: 'in', value: names },
      ],
    });
    const evaluate = (filter: Filter) => t().compiler.aggregate(model('person'), functions, filter);
    const first = evaluate(named(26, ['Alice', 'Carol']));
    const second = evaluate(named(20, ['Bob', 'Carol']));
    expect(second.sql).to.equal(first.sql);
    // The very statement kept: its decoder is the same function; the values are the second filter's.
    expect(second.decode).to.equal(first.decode);
    expect(second.bindings).to.not.deep.equal(first.bindings);
    const { knex, dialect } = t().database;
    const run = (statement: typeof first) => runStatement(knex, dialect, statement);
    expect(await run(first)).to.deep.equal([1, 30]);
    expect(await run(second)).to.deep.equal([1, 25]);
    // A list of another length is another text, and leaves the kept one as it was.
    const three = evaluate(named(0, ['Alice', 'Bob', 'Carol']));
    expect(three.sql).to.not.equal(first.sql);
    expect(await run(three)).to.deep.equal([2, 55]);
    expect(await run(evaluate(named(0, ['Alice', 'Carol'])))).to.deep.equal([2, 55]);
  });
});
