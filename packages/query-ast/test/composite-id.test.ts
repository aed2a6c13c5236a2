import { defineModel } from '@colapi/schema';
import { expect } from 'chai';
import { formatCompositeId, keyParts, parseKey, rowId, splitCompositeId } from '../src/index.js';

const line = defineModel({
  name: 'line',
  table: 'line',
  keyColumns: ['order_id', 'sku'],
  columns: [
    { name: 'order_id', type: 'integer', nullable: false },
    { name: 'sku', type: 'string', nullable: false, maxLength: 6 },
  ],
});

describe('composite ids', () => {
  it('writes each tuple of parts one way, and reads it back', () => {
    const tuples: unknown[][] = [
      [1, 'a'],
      [1, 'a,b'],
      [1, 'a\\b'],
      [1, ',\\,'],
      [1, ''],
      ['x,', '\\'],
    ];
    for (const parts of tuples) {
      const id = formatCompositeId(parts);
      expect(splitCompositeId(id), id).to.deep.equal(parts.map(String));
    }
    expect(formatCompositeId([1, 'a,b\\c'])).to.equal('1,a\\,b\\\\c');
  });

  it('reads a backslash before anything but , or \\, or ending the id, as no id', () => {
    for (const id of ['1,a\\b', '1,a\\', '\\1,a']) expect(splitCompositeId(id), id).to.equal(undefined);
  });

  it('parses strictly: the number of parts, and each by its column', () => {
    expect(parseKey(line, '1,a')).to.deep.equal({ ok: true, key: '1,a' });
    expect(parseKey(line, '1,a\\,b')).to.deep.equal({ ok: true, key: '1,a\\,b' });
    expect(parseKey(line, '1,')).to.deep.equal({ ok: true, key: '1,' });
    for (const id of ['1', '1,a,b', '01,a', '1.0,a', ',a', '1,abcdefg', '1,a\\b', 1, null, '1,a\u0000']) {
      expect(parseKey(line, id).ok, JSON.stringify(id)).to.equal(false);
    }
  });

  it('splits a key into its column values, and makes the id of a row', () => {
    expect(keyParts(line, '12,x\\,y')).to.deep.equal([12, 'x,y']);
    expect(rowId(line, { order_id: 12, sku: 'x,y', other: 1 })).to.equal('12,x\\,y');
  });
});
