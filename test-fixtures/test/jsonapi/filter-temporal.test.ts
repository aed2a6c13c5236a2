import { describeEachDatabase, type SeedData } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { asIds, filteredIds, todayUtc, type FilterCase } from './helpers.js';

/*
 * Standard dataset: person birthday / birth_datetime / bedtime
 * 1 1999-01-15 / 1999-01-15T08:30:00 / 22:30:00 · 2 2007-06-01 / 2007-06-01T12:00:00.25 / 21:00:00
 * 3 null · 4 1984-12-31 / 1984-12-31T23:59:59 / 23:15:30.5 · 5 2006-03-03 / 2006-03-03T00:00:00 / 20:00:00
 * task duration (seconds) / due: 1 3600 / 2024-01-01 · 2 90 / null · 3 null / 2024-06-30
 */

const p = (name: string, field: string, op: string, val: unknown, expected: number[]): FilterCase => ({
  name,
  collection: 'person',
  filter: [{ name: field, op, val }],
  expected,
});
const task = (name: string, field: string, op: string, val: unknown, expected: number[]): FilterCase => ({
  name,
  collection: 'task',
  filter: [{ name: field, op, val }],
  expected,
});

const DATE_CASES: FilterCase[] = [
  p('date ==', 'birthday', '==', '1999-01-15', [1]),
  p('date >', 'birthday', '>', '2000-01-01', [2, 5]),
  p('date <', 'birthday', '<', '1990-01-01', [4]),
  p('date >= on the boundary', 'birthday', '>=', '2006-03-03', [2, 5]),
  p('date <= on the boundary', 'birthday', '<=', '1999-01-15', [1, 4]),
  p('date !=', 'birthday', '!=', '1999-01-15', [2, 4, 5]),
  p('date in', 'birthday', 'in', ['1984-12-31', '2006-03-03', '2000-02-29'], [4, 5]),
  p('date on a leap day', 'birthday', '<', '2000-02-29', [1, 4]),
  task('date == on task.due', 'due', '==', '2024-06-30', [3]),
];

const TIMESTAMP_CASES: FilterCase[] = [
  p('timestamp ==', 'birth_datetime', '==', '1999-01-15T08:30:00', [1]),
  p('timestamp == with a fraction', 'birth_datetime', '==', '2007-06-01T12:00:00.25', [2]),
  p('timestamp == with trailing zeros in the fraction', 'birth_datetime', '==', '2007-06-01T12:00:00.250000', [2]),
  p('timestamp == with a space instead of T', 'birth_datetime', '==', '2007-06-01 12:00:00.25', [2]),
  p('timestamp == with a zero offset', 'birth_datetime', '==', '1999-01-15T08:30:00Z', [1]),
  p('timestamp == without seconds', 'birth_datetime', '==', '1999-01-15T08:30', [1]),
  p('timestamp == a date alone is midnight', 'birth_datetime', '==', '2006-03-03', [5]),
  p('timestamp == misses by a fraction', 'birth_datetime', '==', '2007-06-01T12:00:00.2', []),
  p('timestamp > a whole second below a fraction', 'birth_datetime', '>', '2007-06-01T12:00:00', [2]),
  p('timestamp < just above a fraction', 'birth_datetime', '<', '2007-06-01T12:00:00.3', [1, 2, 4, 5]),
  p('timestamp < just below a fraction', 'birth_datetime', '<', '2007-06-01T12:00:00.2', [1, 4, 5]),
  p('timestamp >= the last second of a year', 'birth_datetime', '>=', '1984-12-31T23:59:59', [1, 2, 4, 5]),
  p('timestamp > the last second of a year', 'birth_datetime', '>', '1984-12-31T23:59:59', [1, 2, 5]),
  p('timestamp <= midnight', 'birth_datetime', '<=', '2006-03-03T00:00:00.000', [1, 4, 5]),
  p('timestamp in', 'birth_datetime', 'in', ['2006-03-03T00:00:00', '2007-06-01T12:00:00.25'], [2, 5]),
  {
    name: 'timestamp on article.publishtime',
    collection: 'article',
    filter: [{ name: 'publishtime', op: '>=', val: '2020-02-01T10:00:00' }],
    expected: [2, 3, 5],
  },
];

const TIME_CASES: FilterCase[] = [
  p('time ==', 'bedtime', '==', '22:30:00', [1]),
  p('time == without seconds', 'bedtime', '==', '21:00', [2]),
  p('time == with a fraction', 'bedtime', '==', '23:15:30.5', [4]),
  p('time == with trailing zeros', 'bedtime', '==', '23:15:30.500', [4]),
  p('time > a whole second below a fraction', 'bedtime', '>', '23:15:30', [4]),
  p('time < just above a whole second', 'bedtime', '<', '21:00:00.001', [2, 5]),
  p('time >', 'bedtime', '>', '22:00', [1, 4]),
  p('time <=', 'bedtime', '<=', '21:00:00', [2, 5]),
];

const INTERVAL_CASES: FilterCase[] = [
  task('interval == seconds', 'duration', '==', 3600, [1]),
  task('interval == seconds as a string', 'duration', '==', '90', [2]),
  task('interval >', 'duration', '>', 60, [1, 2]),
  task('interval <', 'duration', '<', 100, [2]),
  task('interval >= on the boundary', 'duration', '>=', 3600, [1]),
  task('interval <= on the boundary', 'duration', '<=', 90, [2]),
  task('interval !=', 'duration', '!=', 90, [1]),
  task('interval in', 'duration', 'in', [90, 3600, 7200], [1, 2]),
  task('interval not_in', 'duration', 'not_in', [90], [1]),
  task('interval is_null', 'duration', 'is_null', null, [3]),
  task('interval == null', 'duration', '==', null, [3]),
];

const NOW_CASES: FilterCase[] = [
  p('date < CURRENT_DATE', 'birthday', '<', 'CURRENT_DATE', [1, 2, 4, 5]),
  p('date > CURRENT_DATE', 'birthday', '>', 'CURRENT_DATE', []),
  p('date < CURRENT_TIMESTAMP', 'birthday', '<', 'CURRENT_TIMESTAMP', [1, 2, 4, 5]),
  p('timestamp < CURRENT_TIMESTAMP', 'birth_datetime', '<', 'CURRENT_TIMESTAMP', [1, 2, 4, 5]),
  p('timestamp > LOCALTIMESTAMP', 'birth_datetime', '>', 'LOCALTIMESTAMP', []),
  p('timestamp < CURRENT_DATE', 'birth_datetime', '<', 'CURRENT_DATE', [1, 2, 4, 5]),
  p('timestamp >= CURRENT_DATE', 'birth_datetime', '>=', 'CURRENT_DATE', []),
  task('date <= CURRENT_DATE on task.due', 'due', '<=', 'CURRENT_DATE', [1, 3]),
];

describeEachDatabase('Format A: filters on dates, times, timestamps and intervals', (t) => {
  for (const [title, cases] of [
    ['dates', DATE_CASES],
    ['timestamps', TIMESTAMP_CASES],
    ['times', TIME_CASES],
    ['intervals in seconds', INTERVAL_CASES],
    ['CURRENT_DATE, CURRENT_TIMESTAMP and LOCALTIMESTAMP', NOW_CASES],
  ] as const) {
    describe(title, () => {
      for (const c of cases) {
        it(c.name, async () => {
          expect(await filteredIds(t(), c.collection, c.filter)).to.deep.equal(asIds(c.expected));
        });
      }
    });
  }

  it('compares a time with CURRENT_TIMESTAMP as the current time of day (UTC)', async () => {
    const bedtimes: [number, string][] = [
      [1, '22:30:00'],
      [2, '21:00:00'],
      [4, '23:15:30.5'],
      [5, '20:00:00'],
    ];
    const now = new Date().toISOString().slice(11, 19);
    const expected = bedtimes
      .filter(([, time]) => time <= now)
      .map(([id]) => String(id))
      .sort();
    const filter = [{ name: 'bedtime', op: '<=', val: 'CURRENT_TIMESTAMP' }];
    expect(await filteredIds(t(), 'person', filter)).to.deep.equal(expected);
  });

  describe("today's values", () => {
    const today = todayUtc();
    const data: SeedData = {
      task: [
        { id: 1, title: 'today', due: today },
        { id: 2, title: 'past', due: '2000-01-01' },
        { id: 3, title: 'future', due: '2999-12-31' },
      ],
      article: [
        { id: 1, title: 'at midnight today', publishtime: `${today}T00:00:00` },
        { id: 2, title: 'long ago', publishtime: '2000-01-01T00:00:00' },
        { id: 3, title: 'far ahead', publishtime: '2999-12-31T23:59:59.999999' },
      ],
    };
    before(async () => {
      await t().seed(data);
    });
    after(async () => {
      await t().seed();
    });

    const cases: FilterCase[] = [
      task('date == CURRENT_DATE', 'due', '==', 'CURRENT_DATE', [1]),
      task('date < CURRENT_DATE', 'due', '<', 'CURRENT_DATE', [2]),
      task('date > CURRENT_DATE', 'due', '>', 'CURRENT_DATE', [3]),
      task('date > CURRENT_TIMESTAMP', 'due', '>', 'CURRENT_TIMESTAMP', [3]),
      // A now-value takes the type of the field, as a write would store it: against a date it is today.
      task('date < CURRENT_TIMESTAMP', 'due', '<', 'CURRENT_TIMESTAMP', [2]),
      task('date == CURRENT_TIMESTAMP', 'due', '==', 'CURRENT_TIMESTAMP', [1]),
      task('date == LOCALTIMESTAMP', 'due', '==', 'LOCALTIMESTAMP', [1]),
      task('date >= CURRENT_DATE', 'due', '>=', 'CURRENT_DATE', [1, 3]),
      task('date != CURRENT_DATE', 'due', '!=', 'CURRENT_DATE', [2, 3]),
      {
        name: 'midnight today == CURRENT_DATE',
        collection: 'article',
        filter: [{ name: 'publishtime', op: '==', val: 'CURRENT_DATE' }],
        expected: [1],
      },
      {
        name: 'timestamp >= CURRENT_DATE',
        collection: 'article',
        filter: [{ name: 'publishtime', op: '>=', val: 'CURRENT_DATE' }],
        expected: [1, 3],
      },
      {
        name: 'timestamp < CURRENT_DATE',
        collection: 'article',
        filter: [{ name: 'publishtime', op: '<', val: 'CURRENT_DATE' }],
        expected: [2],
      },
      {
        name: 'timestamp > CURRENT_TIMESTAMP',
        collection: 'article',
        filter: [{ name: 'publishtime', op: '>', val: 'CURRENT_TIMESTAMP' }],
        expected: [3],
      },
      {
        name: 'timestamp <= LOCALTIMESTAMP',
        collection: 'article',
        filter: [{ name: 'publishtime', op: '<=', val: 'LOCALTIMESTAMP' }],
        expected: [1, 2],
      },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        expect(await filteredIds(t(), c.collection, c.filter)).to.deep.equal(asIds(c.expected));
      });
    }
  });
});
