import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { census, expectError, expectStatus, resource } from './helpers.js';

const DAY = 24 * 3600 * 1000;

/** Milliseconds between a wire date or timestamp (no zone: read as UTC) and now. */
const distanceFromNow = (text: string) =>
  Math.abs(Date.parse(`${text.length === 10 ? `${text}T00:00:00` : text}Z`) - Date.now());

describeEachDatabase('Format A: values written', (t) => {
  beforeEach(() => t().seed());

  const create = async (collection: string, attributes: Record<string, unknown>) =>
    expectStatus(await t().http.post(`/api/${collection}`, resource(collection, attributes)), 201).body.data;
  const update = async (collection: string, id: string, attributes: Record<string, unknown>) =>
    expectStatus(await t().http.patch(`/api/${collection}/${id}`, resource(collection, attributes, undefined, id)), 200)
      .body.data;
  const reread = async (collection: string, id: string) =>
    expectStatus(await t().http.get(`/api/${collection}/${id}`), 200).body.data.attributes;

  describe('invalid dates, times and timestamps: 400 pointing at the attribute, nothing written', () => {
    const INVALID: [string, string, unknown][] = [
      ['person', 'birthday', '2021-02-30'],
      ['person', 'birthday', '2021-02-29'],
      ['person', 'birthday', '2021-13-01'],
      ['person', 'birthday', '2021-1-5'],
      ['person', 'birthday', 'yesterday'],
      ['person', 'birthday', 'current_date'],
      ['person', 'birthday', 20210101],
      ['person', 'birthday', ''],
      ['person', 'bedtime', '25:00:00'],
      ['person', 'bedtime', '24:00:00'],
      ['person', 'bedtime', '12:60:00'],
      ['person', 'bedtime', '12:00:61'],
      ['person', 'bedtime', 'noon'],
      ['person', 'birth_datetime', 'yesterday'],
      ['person', 'birth_datetime', '2021-02-30T10:00:00'],
      ['person', 'birth_datetime', '2021-02-03T25:00:00'],
      ['person', 'birth_datetime', '2021-02-03T10:00:00+02:00'],
      ['article', 'publishtime', 'now'],
      ['task', 'due', 'tomorrow'],
      ['task', 'duration', '1 hour'],
      ['task', 'duration', 1.5],
      ['task', 'duration', true],
    ];
    for (const [collection, field, value] of INVALID) {
      it(`${collection}.${field} = ${JSON.stringify(value)}`, async () => {
        const before = await census(t());
        const pointer = `/data/attributes/${field}`;
        expectError(await t().http.post(`/api/${collection}`, resource(collection, { [field]: value })), 400, {
          pointer,
        });
        expectError(
          await t().http.patch(`/api/${collection}/1`, resource(collection, { [field]: value }, undefined, '1')),
          400,
          { pointer },
        );
        expect(await census(t())).to.deep.equal(before);
      });
    }
  });

  describe('valid values are stored as given, fractions of seconds kept', () => {
    const VALID: [string, unknown, string][] = [
      ['birthday', '2020-02-29', '2020-02-29'],
      ['birthday', '0999-12-31', '0999-12-31'],
      ['bedtime', '23:59:59.5', '23:59:59.5'],
      ['bedtime', '07:08:09.123456', '07:08:09.123456'],
      ['bedtime', '07:08', '07:08:00'],
      ['bedtime', '00:00:00', '00:00:00'],
      ['birth_datetime', '2021-03-04T05:06:07.123456', '2021-03-04T05:06:07.123456'],
      ['birth_datetime', '2021-03-04T05:06:07.120', '2021-03-04T05:06:07.12'],
      ['birth_datetime', '2021-03-04T05:06:07.0000001', '2021-03-04T05:06:07'],
      ['birth_datetime', '2021-03-04 05:06:07.5', '2021-03-04T05:06:07.5'],
      ['birth_datetime', '2021-03-04T05:06:07Z', '2021-03-04T05:06:07'],
      ['birth_datetime', '2021-03-04', '2021-03-04T00:00:00'],
    ];
    for (const [field, value, expected] of VALID) {
      it(`person.${field} = ${JSON.stringify(value)} reads back as ${expected}`, async () => {
        const created = await create('person', { [field]: value });
        expect(created.attributes[field]).to.equal(expected);
        expect((await reread('person', created.id))[field]).to.equal(expected);
        const updated = await update('person', '1', { [field]: value });
        expect(updated.attributes[field]).to.equal(expected);
      });
    }

    it('keeps fractions of article.publishtime through a filter too', async () => {
      const created = await create('article', { title: 'precise', publishtime: '2022-02-02T02:02:02.654321' });
      const filter = encodeURIComponent(
        JSON.stringify([{ name: 'publishtime', op: '==', val: '2022-02-02T02:02:02.654321' }]),
      );
      const found = expectStatus(await t().http.get(`/api/article?filter[objects]=${filter}`), 200);
      expect(found.body.data.map((r: { id: string }) => r.id)).to.deep.equal([created.id]);
    });
  });

  describe('text lengths (person.name is varchar(100)) are checked alike on every dialect', () => {
    it('100 characters fit, counted in code points', async () => {
      for (const name of ['a'.repeat(100), '\u{1F600}'.repeat(100), 'é'.repeat(100)]) {
        const created = await create('person', { name });
        expect((await reread('person', created.id)).name).to.equal(name);
      }
    });

    it('101 characters are 400 pointing at the attribute, nothing written', async () => {
      const before = await census(t());
      const pointer = '/data/attributes/name';
      expectError(await t().http.post('/api/person', resource('person', { name: 'a'.repeat(101) })), 400, { pointer });
      expectError(
        await t().http.patch('/api/person/1', resource('person', { name: '\u{1F600}'.repeat(101) }, undefined, '1')),
        400,
        { pointer },
      );
      expect(await census(t())).to.deep.equal(before);
    });
  });

  describe('task.duration is an integer number of seconds', () => {
    for (const seconds of [0, 1, 90, 5400, 86400 * 3 + 5, 315_360_000, -30]) {
      it(`${seconds} s written and read back`, async () => {
        const created = await create('task', { title: 'timed', duration: seconds });
        expect(created.attributes.duration).to.equal(seconds);
        expect((await reread('task', created.id)).duration).to.equal(seconds);
        expect((await update('task', '3', { duration: seconds })).attributes.duration).to.equal(seconds);
      });
    }

    it('accepts a whole number written as a string, and null', async () => {
      expect((await create('task', { duration: '120' })).attributes.duration).to.equal(120);
      expect((await update('task', '1', { duration: null })).attributes.duration).to.equal(null);
    });
  });

  describe("CURRENT_TIMESTAMP, CURRENT_DATE and LOCALTIMESTAMP set the database's current value", () => {
    const FORMS: Record<string, RegExp> = {
      birthday: /^\d{4}-\d{2}-\d{2}$/,
      bedtime: /^\d{2}:\d{2}:\d{2}(\.\d{1,6})?$/,
      birth_datetime: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?$/,
    };
    for (const fn of ['CURRENT_TIMESTAMP', 'CURRENT_DATE', 'LOCALTIMESTAMP']) {
      for (const field of Object.keys(FORMS)) {
        it(`${fn} in person.${field}`, async () => {
          const created = await create('person', { name: fn, [field]: fn });
          const value = created.attributes[field] as string;
          expect(value).to.match(FORMS[field]!);
          if (field !== 'bedtime') expect(distanceFromNow(value), value).to.be.below(DAY);
          if (field === 'birth_datetime' && fn === 'CURRENT_DATE') expect(value).to.match(/T00:00:00$/);
          expect((await reread('person', created.id))[field]).to.equal(value);
        });
      }
    }

    it('in PATCH too, and in task.due and article.publishtime', async () => {
      const person = await update('person', '3', { birth_datetime: 'LOCALTIMESTAMP' });
      expect(distanceFromNow(person.attributes.birth_datetime)).to.be.below(DAY);
      const task = await update('task', '2', { due: 'CURRENT_DATE' });
      expect(distanceFromNow(task.attributes.due)).to.be.below(DAY);
      const article = await create('article', { publishtime: 'CURRENT_TIMESTAMP' });
      expect(article.attributes.publishtime).to.match(FORMS.birth_datetime!);
      expect(distanceFromNow(article.attributes.publishtime)).to.be.below(DAY);
    });

    it('is only a string in a text field', async () => {
      expect((await create('person', { name: 'CURRENT_DATE' })).attributes.name).to.equal('CURRENT_DATE');
    });
  });
});
