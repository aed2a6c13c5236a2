import { expect } from 'chai';
import { textFormOf, toTextForm } from '../src/index.js';

describe('textFormOf: the form some stored values of a SQLite column share', () => {
  const cases: [string, 'date' | 'datetime' | 'time', unknown[], string | undefined][] = [
    ['Chinook’s timestamps', 'datetime', ['2009-01-01 00:00:00', '2009-01-02 10:30:00'], 'YYYY-MM-DD HH:MM:SS'],
    ['the wire’s form needs none', 'datetime', ['2009-01-01T00:00:00', '2009-01-01T00:00:00.5'], undefined],
    [
      'three digits always',
      'datetime',
      ['2009-01-01T00:00:00.000', '2009-01-01T00:00:00.250'],
      'YYYY-MM-DDTHH:MM:SS.SSS',
    ],
    [
      'digits of varying count are as on the wire',
      'datetime',
      ['2009-01-01 00:00:00.5', '2009-01-01 00:00:00.25'],
      'YYYY-MM-DD HH:MM:SS',
    ],
    [
      'some with a fraction, some without',
      'datetime',
      ['2009-01-01 00:00:00', '2009-01-01 00:00:00.250'],
      'YYYY-MM-DD HH:MM:SS',
    ],
    ['two separators', 'datetime', ['2009-01-01 00:00:00', '2009-01-01T00:00:00'], undefined],
    ['no values', 'datetime', [], undefined],
    ['numbers (Julian days)', 'datetime', [2454832.5], undefined],
    ['a date alone in a timestamp column', 'datetime', ['2009-01-01'], undefined],
    ['a date with a midnight time', 'date', ['2009-01-01 00:00:00'], 'YYYY-MM-DD HH:MM:SS'],
    ['a plain date', 'date', ['2009-01-01'], undefined],
    ['a time with two digits always', 'time', ['08:00:00.00', '09:00:00.50'], 'HH:MM:SS.SS'],
    ['a timestamp in a time column', 'time', ['2009-01-01 08:00:00'], undefined],
    ['text that is no date', 'datetime', ['soon'], undefined],
  ];
  for (const [why, type, values, form] of cases) {
    it(why, () => {
      expect(textFormOf(type, values)).to.equal(form);
    });
  }
});

describe('toTextForm: a wire value in a column’s form', () => {
  it('spells timestamps, dates and times as the form says, padding fixed fractions and never cutting them', () => {
    expect(toTextForm('YYYY-MM-DD HH:MM:SS', 'datetime', '2009-01-01T10:00:00.5')).to.equal('2009-01-01 10:00:00.5');
    expect(toTextForm('YYYY-MM-DDTHH:MM:SS.SSS', 'datetime', '2009-01-01T10:00:00.5')).to.equal(
      '2009-01-01T10:00:00.500',
    );
    expect(toTextForm('YYYY-MM-DD HH:MM:SS.SSS', 'datetime', '2009-01-01T10:00:00')).to.equal(
      '2009-01-01 10:00:00.000',
    );
    expect(toTextForm('YYYY-MM-DD HH:MM:SS.SSS', 'datetime', '2009-01-01T10:00:00.1234')).to.equal(
      '2009-01-01 10:00:00.1234',
    );
    expect(toTextForm('YYYY-MM-DD HH:MM:SS', 'date', '2009-01-01')).to.equal('2009-01-01 00:00:00');
    expect(toTextForm('HH:MM:SS.SS', 'time', '09:00:00.5')).to.equal('09:00:00.50');
  });
});
