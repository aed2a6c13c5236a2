import { expect } from 'chai';
import { databaseUrlOptions } from '../src/index.js';

describe('databaseUrlOptions: colapi parameters of a database URL', () => {
  const CASES: [string, string, boolean | undefined][] = [
    ['postgres://u@h/db', 'postgres://u@h/db', undefined],
    ['postgres://u@h/db?prepared_statements=false', 'postgres://u@h/db', false],
    ['postgres://u@h/db?prepared_statements=0', 'postgres://u@h/db', false],
    ['postgres://u@h/db?prepared_statements=TRUE', 'postgres://u@h/db', true],
    ['postgres://u@h/db?sslmode=disable&prepared_statements=false', 'postgres://u@h/db?sslmode=disable', false],
    ['postgres://u@h/db?prepared_statements=false&sslmode=disable', 'postgres://u@h/db?sslmode=disable', false],
    ['postgres://u@h/db?a=1&prepared_statements=false&b=2', 'postgres://u@h/db?a=1&b=2', false],
  ];
  for (const [given, url, preparedStatements] of CASES) {
    it(`${given} → ${url}, prepared statements ${preparedStatements ?? 'by default'}`, () => {
      expect(databaseUrlOptions(given)).to.deep.equal(
        preparedStatements === undefined ? { url } : { url, preparedStatements },
      );
    });
  }

  it('refuses a value it cannot read, naming the parameter', () => {
    expect(() => databaseUrlOptions('postgres://h/db?prepared_statements=no')).to.throw(/prepared_statements/);
    expect(() => databaseUrlOptions('postgres://h/db?prepared_statements=')).to.throw(/prepared_statements/);
  });
});
