import { expect } from 'chai';
import { integerKeys } from '../src/row-linkage.js';
import { eachDialect } from './support/each-dialect.js';

eachDialect('Dialect.keyList', (t) => {
  const knex = () => t().database.knex;
  const dialect = () => t().database.dialect;

  // The table lives on the suite's scratch database, which is dropped with it.
  before(async () => {
    await knex().schema.dropTableIfExists('key_list_probe');
    await knex().schema.createTable('key_list_probe', (table) => {
      table.integer('owner').notNullable();
      table.integer('n').notNullable();
      table.string('code', 20).notNullable();
    });
    // Keys inserted out of order, text keys holding a comma, a quote, a backslash and non-ASCII text.
    await knex()('key_list_probe').insert([
      { owner: 1, n: 30, code: 'b,c' },
      { owner: 1, n: 4, code: 'a"q' },
      { owner: 1, n: 200, code: 'z\\y' },
      { owner: 1, n: 11, code: 'é' },
    ]);
  });

  const listOf = async (owner: number, column: 'n' | 'code') => {
    const from = knex().from('key_list_probe').where('owner', owner);
    const type = column === 'n' ? 'integer' : 'string';
    const raw = (await knex().select(dialect().keyList!(knex(), from, column, type).wrap('(', ') as k')))[0].k;
    return type === 'integer' ? integerKeys(raw) : dialect().decodeKeyList!(raw);
  };

  it('integer keys come back in numeric order, as strings', async () => {
    expect(await listOf(1, 'n')).to.deep.equal(['4', '11', '30', '200']);
  });

  it('text keys keep their commas, quotes and backslashes', async () => {
    const keys = await listOf(1, 'code');
    expect([...keys].sort()).to.deep.equal(['a"q', 'b,c', 'z\\y', 'é'].sort());
  });

  it('no rows are an empty list, for either type', async () => {
    expect(await listOf(2, 'n')).to.deep.equal([]);
    expect(await listOf(2, 'code')).to.deep.equal([]);
  });
});

describe('integerKeys', () => {
  it('reads null, the empty text and comma-separated digits', () => {
    expect(integerKeys(null)).to.deep.equal([]);
    expect(integerKeys('')).to.deep.equal([]);
    expect(integerKeys('7')).to.deep.equal(['7']);
    expect(integerKeys('1,22,333')).to.deep.equal(['1', '22', '333']);
    expect(integerKeys(Buffer.from('5,6'))).to.deep.equal(['5', '6']);
  });
});
