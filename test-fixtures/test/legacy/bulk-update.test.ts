import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectMessage, expectStatus, q, rows, snapshot } from './helpers.js';

/** The ages of persons 1..5 after a request. */
async function ages(t: Parameters<Parameters<typeof describeEachDatabase>[1]>[0]): Promise<(number | null)[]> {
  return (await rows(t(), 'person')).map((r) => (r.age === null ? null : Number(r.age)));
}

const SEEDED_AGES = [25, 17, null, 40, 18];
const olderThan = (age: number) => ({ filters: [{ name: 'age', op: '>', val: age }] });

interface BulkCase {
  readonly name: string;
  readonly method: 'PATCH' | 'PUT';
  /** Query string, without the `?`. */
  readonly query?: string;
  readonly body: Record<string, unknown>;
  readonly modified: number;
  readonly ages: (number | null)[];
}

const CASES: BulkCase[] = [
  {
    name: 'without q every instance is updated',
    method: 'PATCH',
    body: { age: 50 },
    modified: 5,
    ages: [50, 50, 50, 50, 50],
  },
  {
    name: 'q in the body narrows it',
    method: 'PATCH',
    body: { age: 50, q: olderThan(20) },
    modified: 2,
    ages: [50, 17, null, 50, 18],
  },
  {
    name: 'q in the query string (the earlier form)',
    method: 'PATCH',
    query: q(olderThan(20)),
    body: { age: 50 },
    modified: 2,
    ages: [50, 17, null, 50, 18],
  },
  {
    name: 'PUT is an alias of PATCH',
    method: 'PUT',
    body: { age: 50, q: olderThan(20) },
    modified: 2,
    ages: [50, 17, null, 50, 18],
  },
  {
    name: 'PUT with q in the query string',
    method: 'PUT',
    query: q(olderThan(30)),
    body: { age: 1 },
    modified: 1,
    ages: [25, 17, null, 1, 18],
  },
  {
    name: 'q with disjunction',
    method: 'PATCH',
    body: {
      age: 9,
      q: {
        filters: [
          { name: 'age', op: 'is_null' },
          { name: 'name', op: '==', val: 'Eve' },
        ],
        disjunction: true,
      },
    },
    modified: 2,
    ages: [25, 17, 9, 40, 9],
  },
  {
    name: 'q with a relation__field filter',
    method: 'PATCH',
    body: { age: 7, q: { filters: [{ name: 'articles__title', op: '==', val: 'Databases 101' }] } },
    modified: 1,
    ages: [25, 7, null, 40, 18],
  },
  {
    name: 'q as JSON text in the body',
    method: 'PATCH',
    body: { age: 50, q: JSON.stringify(olderThan(20)) },
    modified: 2,
    ages: [50, 17, null, 50, 18],
  },
  {
    name: 'a q that matches nothing modifies nothing',
    method: 'PATCH',
    body: { age: 50, q: olderThan(99) },
    modified: 0,
    ages: SEEDED_AGES,
  },
  {
    name: 'null is a value like any other',
    method: 'PATCH',
    body: { age: null, q: olderThan(20) },
    modified: 2,
    ages: [null, 17, null, null, 18],
  },
];

describeEachDatabase(
  'Format B: bulk update of a collection',
  (t) => {
    beforeEach(() => t().seed());

    for (const c of CASES) {
      it(`${c.name}: 201 with num_modified`, async () => {
        const path = `/api/person${c.query ? `?${c.query}` : ''}`;
        const res = expectStatus(await t().http.request(c.method, path, { body: c.body }), 201, `${c.method} ${path}`);
        expect(res.body).to.deep.equal({ num_modified: c.modified });
        expect(await ages(t)).to.deep.equal(c.ages);
      });
    }

    it('sets dates with CURRENT_DATE and several fields at once', async () => {
      const res = expectStatus(await t().http.patch('/api/task', { title: 'same', due: 'CURRENT_DATE' }), 201);
      expect(res.body).to.deep.equal({ num_modified: 3 });
      const today = new Date().toISOString().slice(0, 10);
      expect((await rows(t(), 'task')).map((r) => [r.title, String(r.due).slice(0, 10)])).to.deep.equal([
        ['same', today],
        ['same', today],
        ['same', today],
      ]);
    });

    const REFUSED: [string, string, Record<string, unknown>, number, RegExp][] = [
      [
        'q both in the body and the query string',
        `/api/person?${q(olderThan(20))}`,
        { age: 1, q: olderThan(30) },
        400,
        /not both/,
      ],
      ['a relationship', '/api/person', { articles: [{ id: 1 }] }, 400, /bulk update sets field values only/],
      ['a field that does not exist', '/api/person', { height: 3 }, 400, /"height" is not a field of person/],
      ['the key', '/api/person', { id: 3 }, 400, /key/],
      ['a value of the wrong type', '/api/person', { age: 'old' }, 400, /not an integer/],
      [
        'a poorly formed filter',
        '/api/person',
        { age: 1, q: { filters: [{ name: 'age', op: '==' }] } },
        400,
        /needs a val/,
      ],
      [
        'a search member a bulk update does not take',
        '/api/person',
        { age: 1, q: { limit: 1 } },
        400,
        /unknown member "limit"/,
      ],
      ['q that is not JSON', '/api/person?q=%7B', { age: 1 }, 400, /q is not valid JSON/],
      ['a collection that does not enable PATCH', '/api/comment', { content: 'x' }, 405, /not allowed/],
    ];
    for (const [name, path, body, status, message] of REFUSED) {
      it(`refuses ${name} (${status}) and changes nothing`, async () => {
        const before = await snapshot(t());
        expectMessage(await t().http.patch(path, body), status, message);
        expect(await snapshot(t())).to.equal(before);
      });
    }
  },
  { format: 'legacy' },
);
