import { expect } from 'chai';
import { roundFraction } from '../src/index.js';

/** [value, digits kept, rounded, why] */
const CASES: [string, number, string, string][] = [
  ['2021-01-01T10:00:00.5', 0, '2021-01-01T10:00:01', 'half rounds up'],
  ['2021-01-01T10:00:00.4999', 0, '2021-01-01T10:00:00', 'below half rounds down'],
  ['2021-01-01T10:00:00', 0, '2021-01-01T10:00:00', 'no fraction stays'],
  ['2021-01-01T10:00:00.12', 3, '2021-01-01T10:00:00.12', 'fewer digits than kept stay'],
  ['2021-01-01T10:00:00.1235', 3, '2021-01-01T10:00:00.124', 'to three digits'],
  ['2021-01-01T10:00:00.1204', 3, '2021-01-01T10:00:00.12', 'trailing zeros of the result are dropped'],
  ['2021-01-01T10:00:00.9996', 3, '2021-01-01T10:00:01', 'a carry out of the fraction'],
  ['2021-01-01T10:59:59.5', 0, '2021-01-01T11:00:00', 'into the hour'],
  ['2021-12-31T23:59:59.5', 0, '2022-01-01T00:00:00', 'into the next year'],
  ['2020-02-28T23:59:59.5', 0, '2020-02-29T00:00:00', 'onto a leap day'],
  ['0099-12-31T23:59:59.5', 0, '0100-01-01T00:00:00', 'a year below 100 is not read as 19xx'],
  ['10:00:00.5', 0, '10:00:01', 'a time'],
  ['09:59:59.95', 1, '10:00:00', 'a time carrying into the hour'],
  ['23:59:59.5', 0, '24:00:00', 'a time past the last second is 24:00:00, as PostgreSQL writes it'],
];

describe('roundFraction', () => {
  for (const [value, digits, rounded, why] of CASES) {
    it(`${value} to ${digits} digits: ${why}`, () => {
      expect(roundFraction(value, digits)).to.equal(rounded);
    });
  }
});
