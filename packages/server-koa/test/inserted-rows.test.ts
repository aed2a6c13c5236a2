import { mysql, postgres, type Dialect } from '@colapi/sql-compiler';
import { expect } from 'chai';
import knexFactory from 'knex';
import { InsertedRows } from '../src/executor/inserted-rows.js';

/**
 * Whether a bare create is one INSERT … RETURNING. The server's answers are scripted here (the real ones are
 * asked of every database in test-fixtures' create-statements test); what is tested is when it is asked.
 */
describe('InsertedRows', () => {
  // Never connected: the scripted asks do not use it.
  const knex = knexFactory({ client: 'pg' });
  after(() => knex.destroy());

  /** The MySQL dialect with a server that answers each ask with the next of `answers` (an Error rejects). */
  function scripted(answers: (boolean | Error)[]): { dialect: Dialect; asked: () => number } {
    let asked = 0;
    const dialect: Dialect = {
      ...mysql,
      async returnsInsertedRows() {
        const answer = answers[asked++]!;
        if (answer instanceof Error) throw answer;
        return answer;
      },
    };
    return { dialect, asked: () => asked };
  }

  it('takes the dialect at its word without asking the server', async () => {
    const rows = new InsertedRows(postgres, knex);
    await rows.ready;
    expect(rows.returned()).to.equal(true);
  });

  it('asks the server once, at start, and keeps its answer', async () => {
    for (const answer of [true, false]) {
      const { dialect, asked } = scripted([answer]);
      const rows = new InsertedRows(dialect, knex);
      await rows.ready;
      expect(rows.returned()).to.equal(answer);
      expect(rows.returned()).to.equal(answer);
      expect(asked()).to.equal(1);
    }
  });

  it('until the server has answered, creates insert and read; a failed ask is made again at the next create', async () => {
    const { dialect, asked } = scripted([new Error('down'), true]);
    const rows = new InsertedRows(dialect, knex);
    // Settles (never rejects) when the ask at start fails.
    await rows.ready;
    expect(rows.returned()).to.equal(false);
    expect(asked()).to.equal(2);
    // Asked again by that create; only one ask at a time.
    expect(rows.returned()).to.equal(false);
    expect(asked()).to.equal(2);
    await new Promise((r) => setImmediate(r));
    expect(rows.returned()).to.equal(true);
    expect(asked()).to.equal(2);
  });

  it('asks nothing of a dialect that cannot say', async () => {
    const { returnsInsertedRows: _, ...dialect } = mysql;
    const rows = new InsertedRows(dialect, knex);
    await rows.ready;
    expect(rows.returned()).to.equal(false);
  });
});
