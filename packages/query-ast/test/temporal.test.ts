import { expect } from 'chai';
import { formatDateTime, formatTime, parseDate, parseDateTime, parseTime } from '../src/index.js';

/** [input, normal form or undefined when refused, why] */
type Case = [string, string | undefined, string];

const DATES: Case[] = [
  ['2020-01-15', '2020-01-15', 'a plain date'],
  ['2020-02-29', '2020-02-29', 'a leap day'],
  ['2000-02-29', '2000-02-29', 'a leap day of a year divisible by 400'],
  ['1900-02-29', undefined, 'no leap day in a year divisible by 100 only'],
  ['2021-02-29', undefined, 'no leap day in a common year'],
  ['2020-13-45', undefined, 'month 13, day 45'],
  ['2020-00-10', undefined, 'month 0'],
  ['2020-04-31', undefined, 'April 31st'],
  ['2020-01-00', undefined, 'day 0'],
  ['0000-01-01', undefined, 'year 0'],
  ['0001-01-01', '0001-01-01', 'year 1'],
  ['0050-06-15', '0050-06-15', 'a year below 100 is not read as 19xx'],
  ['0099-12-31', '0099-12-31', 'the last day of year 99'],
  ['9999-12-31', '9999-12-31', 'the last day of year 9999'],
  ['2020-1-5', undefined, 'digits missing'],
  ['20200115', undefined, 'no dashes'],
  [' 2020-01-15', undefined, 'a leading space'],
  ['2020-01-15T00:00:00', undefined, 'a timestamp'],
  ['', undefined, 'empty'],
  ['CURRENT_DATE', undefined, 'a function name is not a date'],
];

const TIMES: Case[] = [
  ['22:30:00', '22:30:00', 'hours, minutes and seconds'],
  ['22:30', '22:30:00', 'seconds default to 0'],
  ['00:00:00', '00:00:00', 'midnight'],
  ['23:59:59', '23:59:59', 'the last second'],
  ['23:15:30.5', '23:15:30.5', 'a fraction'],
  ['23:15:30.500', '23:15:30.5', 'trailing zeros are dropped'],
  ['23:15:30.000', '23:15:30', 'a zero fraction is dropped'],
  ['23:15:30.05', '23:15:30.05', 'leading zeros of a fraction stay'],
  ['23:59:59.999999', '23:59:59.999999', 'microseconds'],
  ['12:00:00.1234567', '12:00:00.123456', 'digits beyond microseconds are cut off'],
  ['12:00:00.123456789', '12:00:00.123456', 'nanoseconds are cut off'],
  ['12:00:00.1234567891', undefined, 'more than nine digits'],
  ['24:00:00', undefined, 'hour 24'],
  ['23:60:00', undefined, 'minute 60'],
  ['23:59:60', undefined, 'a leap second'],
  ['7:30', undefined, 'a one-digit hour'],
  ['07:30:5', undefined, 'a one-digit second'],
  ['12:00:00.', undefined, 'a dot without digits'],
  ['12:00:00Z', undefined, 'a zone'],
  ['12', undefined, 'hours alone'],
  ['', undefined, 'empty'],
];

const DATETIMES: Case[] = [
  ['2020-01-01T10:00:00', '2020-01-01T10:00:00', 'the wire form'],
  ['2020-01-01 10:00:00', '2020-01-01T10:00:00', 'a space for T'],
  ['2020-01-01', '2020-01-01T00:00:00', 'a date alone is midnight'],
  ['2020-01-01T10:00', '2020-01-01T10:00:00', 'no seconds'],
  ['2020-01-01T10:00:00.250', '2020-01-01T10:00:00.25', 'a fraction without trailing zeros'],
  ['2020-01-01T10:00:00.000000', '2020-01-01T10:00:00', 'a zero fraction is dropped'],
  ['2020-01-01T10:00:00.123456789', '2020-01-01T10:00:00.123456', 'nanoseconds are cut off to microseconds'],
  ['2020-01-01T10:00:00Z', '2020-01-01T10:00:00', 'Z is dropped'],
  ['2020-01-01T10:00:00.5Z', '2020-01-01T10:00:00.5', 'Z after a fraction'],
  ['2020-01-01T10:00:00+00:00', '2020-01-01T10:00:00', 'a zero offset is dropped'],
  ['2020-01-01T10:00:00-00:00', '2020-01-01T10:00:00', 'a negative zero offset'],
  ['2020-01-01T10:00:00+0000', '2020-01-01T10:00:00', 'a zero offset without colon'],
  ['2020-01-01Z', '2020-01-01T00:00:00', 'a date with Z'],
  ['0050-06-15T12:00:00', '0050-06-15T12:00:00', 'a year below 100'],
  ['2020-01-01T10:00:00+02:00', undefined, 'a non-zero offset is refused, not shifted'],
  ['2020-01-01T10:00:00-05:30', undefined, 'another offset'],
  ['2020-01-01T10:00:00z', undefined, 'a lower-case z'],
  ['2020-01-01t10:00:00', undefined, 'a lower-case t'],
  ['2020-02-30T10:00:00', undefined, 'February 30th'],
  ['2020-01-01T24:00:00', undefined, 'hour 24'],
  ['2020-01-01T10:61:00', undefined, 'minute 61'],
  ['2020-01-01T10', undefined, 'hours without minutes'],
  ['2020-01-01T', undefined, 'a T without a time'],
  ['2020-01-01T10:00:00.', undefined, 'a dot without digits'],
  ['2020-01-01T10:00:00.1234567890', undefined, 'more than nine fraction digits'],
  ['2020-01-01  10:00:00', undefined, 'two spaces'],
  ['1577872800', undefined, 'epoch seconds'],
  ['', undefined, 'empty'],
];

describe('temporal parsing', () => {
  for (const [title, parse, cases] of [
    ['parseDate', parseDate, DATES],
    ['parseTime', parseTime, TIMES],
    ['parseDateTime', parseDateTime, DATETIMES],
  ] as const) {
    describe(title, () => {
      for (const [input, expected, why] of cases) {
        it(`${JSON.stringify(input)} → ${expected === undefined ? 'refused' : JSON.stringify(expected)}: ${why}`, () => {
          expect(parse(input)).to.equal(expected);
        });
      }
    });
  }

  describe('formatting what the drivers return', () => {
    const cases: [(raw: string) => string, string, string][] = [
      [formatDateTime, '2020-01-01 10:00:00', '2020-01-01T10:00:00'],
      [formatDateTime, '2020-01-01 10:00:00.250000', '2020-01-01T10:00:00.25'],
      [formatDateTime, '2020-01-01T10:00:00.000000', '2020-01-01T10:00:00'],
      [formatDateTime, '2020-01-01', '2020-01-01T00:00:00'],
      [formatTime, '22:30:00.000000', '22:30:00'],
      [formatTime, '23:15:30.500000', '23:15:30.5'],
      [formatTime, '23:15:30', '23:15:30'],
    ];
    for (const [format, raw, expected] of cases) {
      it(`${format.name}(${JSON.stringify(raw)}) → ${JSON.stringify(expected)}`, () => {
        expect(format(raw)).to.equal(expected);
      });
    }

    it('parses what it formats to the same value', () => {
      for (const [input, expected] of DATETIMES)
        if (expected) expect(parseDateTime(formatDateTime(expected)), input).to.equal(expected);
      for (const [input, expected] of TIMES)
        if (expected) expect(parseTime(formatTime(expected)), input).to.equal(expected);
    });
  });
});
