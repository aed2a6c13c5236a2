import { expect } from 'chai';
import type { Knex } from 'knex';
import { driverError, errorKind, runStatement, StatementError, type Statement } from '../src/index.js';
import { eachDialect } from './support/each-dialect.js';
import { model } from './support/library.js';

interface QueryEvent {
  readonly sql: string;
  readonly method: string;
  readonly bindings: readonly unknown[];
  readonly __knexTxId?: string;
}

/** knex's events while `work` runs, as a listener on the knex instance hears them. */
async function events<T>(knex: Knex, work: () => Promise<T>) {
  const heard: { event: string; query: QueryEvent; error?: unknown }[] = [];
  const onQuery = (query: QueryEvent) => heard.push({ event: 'query', query });
  const onResponse = (_rows: unknown, query: QueryEvent) => heard.push({ event: 'query-response', query });
  const onError = (error: unknown, query: QueryEvent) => heard.push({ event: 'query-error', query, error });
  knex.on('query', onQuery).on('query-response', onResponse).on('query-error', onError);
  try {
    return { result: await work().catch((e: unknown) => e), heard };
  } finally {
    knex
      .removeListener('query', onQuery)
      .removeListener('query-response', onResponse)
      .removeListener('query-error', onError);
  }
}

/** Runs `work` in a transaction that is always rolled back. */
async function rolledBack(knex: Knex, work: (trx: Knex.Transaction) => Promise<void>): Promise<void> {
  const undo = new Error('undo');
  await knex
    .transaction(async (trx) => {
      await work(trx);
      throw undo;
    })
    .catch((e: unknown) => {
      if (e !== undo) throw e;
    });
}

eachDialect('runStatement, the one runner', (t) => {
  const names = (): Statement<string[]> => t().compiler.keys(model('person')) as Statement<never>;

  it("on a pool: knex's query and query-response events, then the decoded result", async () => {
    const { knex, dialect } = t().database;
    const statement = names();
    const { result, heard } = await events(knex, () => runStatement(knex, dialect, statement));
    expect(result).to.deep.equal([1, 2, 3]);
    expect(heard.map((h) => h.event)).to.deep.equal(['query', 'query-response']);
    expect(heard[0]!.query).to.include({ sql: statement.sql, method: 'select' });
    expect(heard[0]!.query.__knexTxId).to.equal(undefined);
  });

  it("in a transaction: on the transaction's connection, and the knex instance hears its events", async () => {
    const { knex, dialect } = t().database;
    await rolledBack(knex, async (trx) => {
      const { result, heard } = await events(knex, async () => {
        await runStatement(trx, dialect, t().compiler.delete(model('comment'), [1, 2, 3]));
        return runStatement(trx, dialect, t().compiler.keys(model('comment')));
      });
      expect(result, 'the delete is seen inside the transaction').to.deep.equal([]);
      expect(heard.map((h) => h.event)).to.deep.equal(['query', 'query-response', 'query', 'query-response']);
      expect(heard[0]!.query.__knexTxId).to.be.a('string');
    });
    expect(await runStatement(knex, dialect, t().compiler.keys(model('comment'))), 'and undone with it').to.deep.equal([
      1, 2, 3,
    ]);
  });

  it('a statement the database refuses: query-error, then a StatementError classified with the statement, on a pool and in a transaction alike', async () => {
    const { knex, dialect } = t().database;
    const statement = t().compiler.delete(model('person'), [1]);
    const onPool = await events(knex, () => runStatement(knex, dialect, statement));
    let inTransaction: unknown;
    await rolledBack(knex, async (trx) => {
      inTransaction = await runStatement(trx, dialect, statement).catch((e: unknown) => e);
    });
    for (const error of [onPool.result, inTransaction]) {
      expect(error).to.be.instanceOf(StatementError);
      expect((error as StatementError).kind).to.equal('foreign-key-referenced');
      expect((error as StatementError).statement).to.equal(statement);
      expect(errorKind(dialect, error)).to.equal('foreign-key-referenced');
    }
    expect(onPool.heard.map((h) => h.event)).to.deep.equal(['query', 'query-error']);
    expect(onPool.heard[1]!.error).to.equal(driverError(onPool.result));
  });

  it('refuses a transaction that is over, whose connection may serve another request by now', async () => {
    const { knex, dialect } = t().database;
    let finished: Knex.Transaction | undefined;
    await knex.transaction(async (trx) => {
      finished = trx;
    });
    const error = await runStatement(finished!, dialect, names()).catch((e: unknown) => e);
    expect(String(error)).to.match(/transaction that is over/);
  });

  it("the same statement run by knex's own runner classifies alike", async () => {
    const { knex, dialect } = t().database;
    const error = await knex('person')
      .where({ id: 1 })
      .del()
      .catch((e: unknown) => e);
    expect(errorKind(dialect, error)).to.equal('foreign-key-referenced');
    expect(driverError(error)).to.equal(error);
  });
});
