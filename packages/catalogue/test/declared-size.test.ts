import { expect } from 'chai';
import { declaredSize } from '../src/readers/declared-size.js';

describe('declaredSize: what a declared type bounds, as each database prints it', () => {
  const CASES: [string, ReturnType<typeof declaredSize>][] = [
    ['numeric(5,2)', { precision: 5, scale: 2 }],
    ['numeric(7)', { precision: 7, scale: 0 }],
    ['decimal(10,2) unsigned', { precision: 10, scale: 2 }],
    ['NUMERIC(12, 4)', { precision: 12, scale: 4 }],
    ['numeric', {}],
    ['double precision', {}],
    ['smallint', { minimum: -32768, maximum: 32767 }],
    ['integer', { minimum: -2147483648, maximum: 2147483647 }],
    ['int(11)', { minimum: -2147483648, maximum: 2147483647 }],
    ['int(10) unsigned', { minimum: 0, maximum: 4294967295 }],
    ['tinyint(4)', { minimum: -128, maximum: 127 }],
    ['tinyint(3) unsigned zerofill', { minimum: 0, maximum: 255 }],
    ['mediumint(8) unsigned', { minimum: 0, maximum: 16777215 }],
    ['bigint', { minimum: -(2 ** 63), maximum: 2 ** 63 - 1 }],
    ['bigint(20) unsigned', { minimum: 0, maximum: 2 ** 64 - 1 }],
    ['SMALLINT', { minimum: -32768, maximum: 32767 }],
    ['integer[]', {}],
    ['text', {}],
  ];
  for (const [type, size] of CASES) {
    it(`${type}`, () => expect(declaredSize(type)).to.deep.equal(size));
  }
});
