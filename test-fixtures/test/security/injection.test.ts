import {
  describeEachDatabase,
  filterParam,
  findLeak,
  tableDigest,
  type TestResponse,
  type TestTarget,
} from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { SQL_INJECTIONS } from '../fuzz/hostile.js';

/**
 * A corpus of SQL injection attempts in every position a client chooses, in both formats, on every database:
 * a name is refused (400, or 404 for a path segment), a value is only ever data (stored or compared exactly as
 * sent, or refused), nothing is slowed down by a sleep, no error shows SQL, and no row changes but the ones a
 * write was asked to make.
 */
type Case = readonly [where: string, send: (t: TestTarget, p: string) => Promise<TestResponse>, ok: readonly number[]];

const e = encodeURIComponent;
const json = (v: unknown) => e(JSON.stringify(v));
const NAME = [400] as const;
const PATH = [404] as const;

const FORMAT_A: Case[] = [
  ['filter field name', (t, p) => t.http.get(`/api/person?${filterParam([{ name: p, op: '==', val: 'x' }])}`), NAME],
  ['filter operator', (t, p) => t.http.get(`/api/person?${filterParam([{ name: 'name', op: p, val: 'x' }])}`), NAME],
  [
    'filter other field',
    (t, p) => t.http.get(`/api/person?${filterParam([{ name: 'name', op: '==', field: p }])}`),
    NAME,
  ],
  [
    'filter relationship',
    (t, p) =>
      t.http.get(`/api/article?${filterParam([{ name: p, op: 'has', val: { name: 'name', op: '==', val: 'x' } }])}`),
    NAME,
  ],
  [
    'filter path through a relationship',
    (t, p) =>
      t.http.get(`/api/article?${filterParam([{ name: 'author', op: 'has', val: { name: p, op: '==', val: 1 } }])}`),
    NAME,
  ],
  ['sort key', (t, p) => t.http.get(`/api/person?sort=${e(p)}`), NAME],
  ['descending sort key', (t, p) => t.http.get(`/api/person?sort=-${e(p)}`), NAME],
  ['group', (t, p) => t.http.get(`/api/person?group=${e(p)}`), NAME],
  ['include path', (t, p) => t.http.get(`/api/article?include=${e(p)}`), NAME],
  ['fields[type] type', (t, p) => t.http.get(`/api/person?${e(`fields[${p}]`)}=name`), NAME],
  ['fields[type] field', (t, p) => t.http.get(`/api/person?fields[person]=${e(p)}`), NAME],
  ['only', (t, p) => t.http.get(`/api/person?only=${e(p)}`), NAME],
  ['function name', (t, p) => t.http.get(`/api/eval/person?functions=${json([{ name: p, field: 'age' }])}`), NAME],
  ['function field', (t, p) => t.http.get(`/api/eval/person?functions=${json([{ name: 'count', field: p }])}`), NAME],
  // `person.name` is a JavaScript identifier path, which a callback may be; everything else is refused.
  ['JSONP callback', (t, p) => t.http.get(`/api/person?callback=${e(p)}`), [200, 400]],
  [
    'attribute name',
    (t, p) => t.http.post('/api/person', { data: { type: 'person', attributes: { [p]: 'x' } } }),
    NAME,
  ],
  [
    'relationship name',
    (t, p) => t.http.post('/api/article', { data: { type: 'article', relationships: { [p]: { data: null } } } }),
    NAME,
  ],
  ['query parameter name', (t, p) => t.http.get(`/api/person?${e(p)}=1`), [200, 400]],
  ['collection segment', (t, p) => t.http.get(`/api/${e(p)}`), PATH],
  ['evaluated collection', (t, p) => t.http.get(`/api/eval/${e(p)}?functions=[]`), PATH],
  ['relationship segment', (t, p) => t.http.get(`/api/person/1/${e(p)}`), PATH],
  ['relationships/ segment', (t, p) => t.http.get(`/api/person/1/relationships/${e(p)}`), PATH],
  ['id segment', (t, p) => t.http.get(`/api/person/${e(p)}`), PATH],
  ['related id segment', (t, p) => t.http.get(`/api/article/1/tags/${e(p)}`), PATH],
  [
    'filter value (text)',
    (t, p) => t.http.get(`/api/person?${filterParam([{ name: 'name', op: '==', val: p }])}`),
    [200, 400],
  ],
  [
    'filter value (integer)',
    (t, p) => t.http.get(`/api/person?${filterParam([{ name: 'age', op: '==', val: p }])}`),
    [400],
  ],
  [
    'filter list',
    (t, p) => t.http.get(`/api/person?${filterParam([{ name: 'name', op: 'in', val: [p, 'Alice'] }])}`),
    [200, 400],
  ],
  [
    'like pattern',
    (t, p) => t.http.get(`/api/person?${filterParam([{ name: 'name', op: 'like', val: p }])}`),
    [200, 400],
  ],
  [
    'ilike pattern',
    (t, p) => t.http.get(`/api/person?${filterParam([{ name: 'name', op: 'ilike', val: p }])}`),
    [200, 400],
  ],
  // A linkage id that cannot be a key is refused before any SQL, with its place in the body.
  [
    'linkage id',
    (t, p) => t.http.patch('/api/article/1/relationships/author', { data: { type: 'person', id: p } }),
    [400],
  ],
  [
    'client-generated id',
    (t, p) => t.http.post('/api/tag', { data: { type: 'tag', id: p, attributes: { name: 'n' } } }),
    [400],
  ],
];

const q = (search: unknown) => `q=${json(search)}`;
const FORMAT_B: Case[] = [
  [
    'q filter field name',
    (t, p) => t.http.get(`/api/person?${q({ filters: [{ name: p, op: '==', val: 'x' }] })}`),
    NAME,
  ],
  [
    'q filter operator',
    (t, p) => t.http.get(`/api/person?${q({ filters: [{ name: 'name', op: p, val: 'x' }] })}`),
    NAME,
  ],
  [
    'q filter other field',
    (t, p) => t.http.get(`/api/person?${q({ filters: [{ name: 'name', op: '==', field: p }] })}`),
    NAME,
  ],
  [
    'q relation__field',
    (t, p) => t.http.get(`/api/article?${q({ filters: [{ name: `author__${p}`, op: '==', val: 'x' }] })}`),
    NAME,
  ],
  ['q order_by field', (t, p) => t.http.get(`/api/person?${q({ order_by: [{ field: p }] })}`), NAME],
  [
    'q order_by direction',
    (t, p) => t.http.get(`/api/person?${q({ order_by: [{ field: 'name', direction: p }] })}`),
    NAME,
  ],
  ['q group_by field', (t, p) => t.http.get(`/api/person?${q({ group_by: [{ field: p }] })}`), NAME],
  ['q member name', (t, p) => t.http.get(`/api/person?${q({ [p]: 1 })}`), NAME],
  ['function name', (t, p) => t.http.get(`/api/eval/person?${q({ functions: [{ name: p, field: 'age' }] })}`), NAME],
  ['function field', (t, p) => t.http.get(`/api/eval/person?${q({ functions: [{ name: 'count', field: p }] })}`), NAME],
  // `person.name` is a JavaScript identifier path, which a callback may be; everything else is refused.
  ['JSONP callback', (t, p) => t.http.get(`/api/person?callback=${e(p)}`), [200, 400]],
  ['body field name', (t, p) => t.http.post('/api/person', { [p]: 'x' }), NAME],
  [
    'bulk update field name',
    (t, p) => t.http.patch('/api/person', { [p]: 'x', q: { filters: [{ name: 'id', op: '==', val: 1 }] } }),
    NAME,
  ],
  ['relationship operation', (t, p) => t.http.patch('/api/article/1', { tags: { [p]: [{ id: 1 }] } }), NAME],
  ['collection segment', (t, p) => t.http.get(`/api/${e(p)}`), PATH],
  ['relation segment', (t, p) => t.http.get(`/api/person/1/${e(p)}`), PATH],
  ['id segment', (t, p) => t.http.get(`/api/person/${e(p)}`), PATH],
  // The argument of a write: an id that cannot be a key of tag is 400, as its own parser says.
  ['related id of a DELETE', (t, p) => t.http.delete(`/api/article/1/tags/${e(p)}`), [400]],
  [
    'q filter value',
    (t, p) => t.http.get(`/api/person?${q({ filters: [{ name: 'name', op: '==', val: p }] })}`),
    [200, 400],
  ],
  [
    'q like pattern',
    (t, p) => t.http.get(`/api/person?${q({ filters: [{ name: 'name', op: 'like', val: p }] })}`),
    [200, 400],
  ],
  ['q limit', (t, p) => t.http.get(`/api/person?${q({ limit: p })}`), [400]],
  ['page', (t, p) => t.http.get(`/api/person?page=${e(p)}`), [400]],
  ['related id in a body', (t, p) => t.http.patch('/api/article/1', { tags: [{ id: p }] }), [400, 404]],
];

/** A value written as an attribute comes back, and sits in the row, exactly as sent: it was bound, not run. */
async function roundTrip(t: TestTarget, format: string, p: string): Promise<void> {
  const body = format === 'jsonapi' ? { data: { type: 'person', attributes: { name: p } } } : { name: p };
  const res = await t.http.post('/api/person', body);
  if (p.includes('\u0000')) return void expect(res.status, res.text).to.equal(400);
  expect(res.status, res.text).to.equal(201);
  const id = format === 'jsonapi' ? res.body.data.id : res.body.id;
  const row = await t.target.database
    .knex('person')
    .where({ id: Number(id) })
    .first();
  expect(row.name).to.equal(p);
  expect((await t.http.delete(`/api/person/${id}`)).status).to.equal(204);
}

for (const [format, cases] of [
  ['jsonapi', FORMAT_A],
  ['legacy', FORMAT_B],
] as const) {
  describeEachDatabase(
    `SQL injection attempts (${format})`,
    (t) => {
      for (const [where, sendIt, ok] of cases) {
        it(`in the ${where}: ${ok.join(' or ')}, no row changed, nothing slowed down or leaked`, async () => {
          const before = await tableDigest(t().target.database.knex);
          for (const p of SQL_INJECTIONS) {
            const started = performance.now();
            const res = await sendIt(t(), p);
            expect(ok, `${JSON.stringify(p)} answered ${res.status}: ${res.text}`).to.include(res.status);
            expect(performance.now() - started, `${JSON.stringify(p)} took its time`).to.be.below(2000);
            if (res.status >= 400) expect(findLeak(res.text, [p]), JSON.stringify(p)).to.equal(undefined);
          }
          expect(await tableDigest(t().target.database.knex)).to.equal(before);
        });
      }

      it('as an attribute value: stored and answered exactly as sent, then deleted, leaving every table as it was', async () => {
        const before = await tableDigest(t().target.database.knex);
        for (const p of SQL_INJECTIONS) await roundTrip(t(), format, p);
        expect(await tableDigest(t().target.database.knex)).to.equal(before);
      });
    },
    { format },
  );
}

/** Names JavaScript objects give meaning to: a member so named is a name like any other, and unknown. */
const JS_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype'];

describeEachDatabase(
  'JavaScript object names in a body or a search are unknown names (legacy)',
  (t) => {
    for (const name of JS_NAMES) {
      it(`"${name}" as a field, a relationship operation or a search member is 400`, async () => {
        const before = await tableDigest(t().target.database.knex);
        const member = `"${name}": {"name": "x"}`;
        for (const [path, body] of [
          ['/api/person', `{${member}, "name": "p"}`],
          ['/api/person/1', `{${member}}`],
          ['/api/article/1', `{"tags": {${member}}}`],
        ] as const) {
          const res = await t().http.request(path === '/api/person' ? 'POST' : 'PATCH', path, { body });
          expect(res.status, `${path} ${body}: ${res.text}`).to.equal(400);
        }
        expect((await t().http.get(`/api/person?q=${e(`{"${name}": 1}`)}`)).status).to.equal(400);
        expect(await tableDigest(t().target.database.knex)).to.equal(before);
      });
    }

    it('an object that cannot become a string ({"toString": ""}) where a name or an id goes is 400, not 500', async () => {
      const odd = { toString: '' };
      expect(
        (await t().http.get(`/api/eval/person?q=${json({ functions: [{ name: odd, field: 'id' }] })}`)).status,
      ).to.equal(400);
      expect((await t().http.patch('/api/person/1', { id: odd, name: 'x' })).status).to.equal(400);
    });
  },
  { format: 'legacy' },
);

describeEachDatabase('JavaScript object names in a body are unknown names (jsonapi)', (t) => {
  it('an object that cannot become a string ({"toString": ""}) where a name or a type goes is 400 or 409, not 500', async () => {
    const odd = { toString: '' };
    expect((await t().http.get(`/api/eval/person?functions=${json([{ name: odd, field: 'id' }])}`)).status).to.equal(
      400,
    );
    expect((await t().http.post('/api/person', { data: { type: odd, attributes: {} } })).status).to.equal(409);
  });

  it('a member named __proto__ is 400 saying so, pointing at it, not "not valid JSON"', async () => {
    for (const [body, pointer] of [
      [
        '{"data": {"type": "person", "attributes": {"__proto__": {"name": "x"}, "name": "p"}}}',
        '/data/attributes/__proto__',
      ],
      ['{"data": {"type": "person", "__proto__": {}}}', '/data/__proto__'],
      ['{"__proto__": 1, "data": {"type": "person"}}', '/__proto__'],
    ] as const) {
      const res = await t().http.request('POST', '/api/person', { body });
      expect(res.status, res.text).to.equal(400);
      expect(res.body.errors[0].detail).to.equal(
        `"__proto__" is not an acceptable member name in a request body (at ${pointer})`,
      );
      expect(res.body.errors[0].source).to.deep.equal({ pointer });
    }
  });

  for (const name of JS_NAMES) {
    it(`"${name}" as an attribute or a relationship is 400`, async () => {
      for (const body of [
        `{"data": {"type": "person", "attributes": {"${name}": {"name": "x"}, "name": "p"}}}`,
        `{"data": {"type": "article", "relationships": {"${name}": {"data": null}}}}`,
      ]) {
        const res = await t().http.request('POST', body.includes('article') ? '/api/article' : '/api/person', { body });
        expect(res.status, `${body}: ${res.text}`).to.equal(400);
      }
    });
  }
});
