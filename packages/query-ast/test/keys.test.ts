import { defineModel } from '@colapi/schema';
import { expect } from 'chai';
import { parseKey } from '../src/index.js';

const byInteger = defineModel({
  name: 'person',
  table: 'person',
  columns: [{ name: 'id', type: 'integer', nullable: false, generated: true }],
});
const byText = defineModel({
  name: 'code',
  table: 'code',
  key: 'code',
  columns: [{ name: 'code', type: 'string', nullable: false, maxLength: 4 }],
});
const byDate = defineModel({
  name: 'day',
  table: 'day',
  key: 'day',
  columns: [{ name: 'day', type: 'date', nullable: false }],
});

/** [what the client sent, the key it names or undefined when it names none] */
const INTEGER_KEYS: [unknown, number | string | undefined][] = [
  ['1', 1],
  ['0', 0],
  ['-3', -3],
  ['9007199254740991', 9007199254740991],
  [7, 7],
  [-7, -7],
  ['1x', undefined],
  [' 1', undefined],
  ['1 ', undefined],
  ['+1', undefined],
  ['1.0', undefined],
  ['01', undefined],
  ['-0', undefined],
  ['1e0', undefined],
  ['0x1', undefined],
  ['1\u0000', undefined],
  ['', undefined],
  ['-', undefined],
  ['99999999999999999999', undefined],
  // Past 2^53 a key keeps every digit as text, up to what a bigint holds.
  ['9007199254740993', '9007199254740993'],
  ['9223372036854775807', '9223372036854775807'],
  ['-9223372036854775808', '-9223372036854775808'],
  ['9223372036854775808', undefined],
  [1.5, undefined],
  [Number.NaN, undefined],
  [Infinity, undefined],
  [true, undefined],
  [null, undefined],
  [{}, undefined],
];

describe('parseKey: one strict spelling per key', () => {
  for (const [raw, key] of INTEGER_KEYS) {
    it(`integer key: ${JSON.stringify(raw) ?? String(raw)} → ${key ?? 'no key'}`, () => {
      const parsed = parseKey(byInteger, raw);
      if (key === undefined) {
        expect(parsed.ok).to.equal(false);
        if (!parsed.ok) expect(parsed.reason).to.be.a('string').and.not.equal('');
      } else expect(parsed).to.deep.equal({ ok: true, key });
    });
  }

  it('text key: any non-empty text within the column, as it is (spaces are part of it)', () => {
    expect(parseKey(byText, 'ab')).to.deep.equal({ ok: true, key: 'ab' });
    expect(parseKey(byText, ' ab ')).to.deep.equal({ ok: true, key: ' ab ' });
    for (const raw of ['', 'abcde', 'a\u0000', 12, null])
      expect(parseKey(byText, raw).ok, JSON.stringify(raw)).to.equal(false);
  });

  it('another key type: its canonical spelling only', () => {
    expect(parseKey(byDate, '2024-02-29')).to.deep.equal({ ok: true, key: '2024-02-29' });
    for (const raw of ['2023-02-29', '2024-2-29', ' 2024-02-29', 'CURRENT_DATE'])
      expect(parseKey(byDate, raw).ok, raw).to.equal(false);
  });
});
