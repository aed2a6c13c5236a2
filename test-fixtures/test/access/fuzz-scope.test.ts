import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import fc from 'fast-check';
import { ACCESS, bearer, MARK, TENANT_DATA, tampered, token } from './tenants.js';

/**
 * Random callers (either tenant, a token without the tenant claim, the anonymous role, a broken or foreign
 * token) send random reads and writes; whatever the answer, it holds nothing outside the caller's scope:
 * no text or id of the other tenant, and for the anonymous role no person, article or comment at all.
 * Writes are sent too, and afterwards the other tenant's rows are unchanged.
 */
const CASES = Number(process.env.FUZZ_CASES) || 300;

const OTHER_IDS: Readonly<Record<string, readonly string[]>> = { '1': ['2', '4'], '2': ['1', '3'] };
const TYPES = ['person', 'article', 'comment'] as const;

type Caller = { kind: 'tenant'; tenant: '1' | '2' } | { kind: 'no-claim' } | { kind: 'anonymous' } | { kind: 'broken' };

const caller: fc.Arbitrary<Caller> = fc.oneof(
  fc.constantFrom('1' as const, '2' as const).map((tenant) => ({ kind: 'tenant' as const, tenant })),
  fc.constant({ kind: 'no-claim' as const }),
  fc.constant({ kind: 'anonymous' as const }),
  fc.constant({ kind: 'broken' as const }),
);

const json = (v: unknown) => encodeURIComponent(JSON.stringify(v));
const id = fc.constantFrom('1', '2', '3', '4', '999');
const collection = fc.constantFrom('person', 'article', 'comment', 'tag', 'task');
const relation = fc.constantFrom('articles', 'comments', 'author', 'article', 'tags');
const include = fc.constantFrom(
  '',
  'author',
  'comments',
  'articles',
  'tags',
  'article.author',
  'comments.author',
  'articles.comments',
);
const filter = fc.constantFrom(
  [],
  [{ name: 'author', op: 'has', val: { name: 'name', op: 'like', val: '%' } }],
  [{ name: 'comments', op: 'any', val: { name: 'content', op: 'like', val: '%' } }],
  // A probe for the other tenant's titles, spelled so that the request's own URL (in links) holds no MARK.
  [{ name: 'articles', op: 'any', val: { name: 'title', op: 'like', val: `%${MARK.slice(1)}%` } }],
  [{ name: 'id', op: 'in', val: [1, 2, 3, 4] }],
  [
    {
      or: [
        { name: 'id', op: '==', val: 2 },
        { name: 'id', op: '==', val: 4 },
      ],
    },
  ],
);

const read = fc.oneof(
  fc
    .tuple(collection, include, filter, fc.constantFrom('', 'id', '-id', 'author.name'))
    .map(
      ([c, inc, f, sort]) =>
        `/api/${c}?page[size]=50${inc ? `&include=${inc}` : ''}${f.length ? `&filter[objects]=${json(f)}` : ''}${sort ? `&sort=${sort}` : ''}`,
    ),
  fc.tuple(collection, id, include).map(([c, i, inc]) => `/api/${c}/${i}${inc ? `?include=${inc}` : ''}`),
  fc.tuple(collection, id, relation).map(([c, i, r]) => `/api/${c}/${i}/${r}`),
  fc.tuple(collection, id, relation).map(([c, i, r]) => `/api/${c}/${i}/relationships/${r}`),
  fc.tuple(collection, id, relation, id).map(([c, i, r, j]) => `/api/${c}/${i}/${r}/${j}`),
  fc.constantFrom('person', 'article').map((c) => `/api/eval/${c}?functions=${json([{ name: 'count', field: 'id' }])}`),
);

const write = fc.oneof(
  fc.tuple(id, fc.constantFrom('title', 'tags', 'author', 'comments')).map(([i, what]) => ({
    method: 'PATCH',
    path: `/api/article/${i}`,
    body: {
      data: {
        type: 'article',
        id: i,
        ...(what === 'title'
          ? { attributes: { title: 'fuzzed' } }
          : {
              relationships: {
                [what]: {
                  data:
                    what === 'author'
                      ? { type: 'person', id: '2' }
                      : [{ type: what === 'tags' ? 'tag' : 'comment', id: '2' }],
                },
              },
            }),
      },
    },
  })),
  id.map((i) => ({ method: 'DELETE', path: `/api/article/${i}`, body: undefined })),
  fc.constant({
    method: 'POST',
    path: '/api/article',
    body: { data: { type: 'article', attributes: { title: 'fuzzed' } } },
  }),
);

describeEachDatabase(
  'access control: random callers and requests never see outside their scope',
  (t) => {
    before(() => t().seed(TENANT_DATA));

    it(`${CASES} cases`, async function () {
      this.timeout(600_000);
      const tokens: Record<string, string> = {
        '1': await token('member', { tenant: 1, person: 1 }),
        '2': await token('member', { tenant: 2, person: 2 }),
        'no-claim': await token('member', { person: 1 }),
      };
      const headersOf = (c: Caller) =>
        c.kind === 'tenant'
          ? bearer(tokens[c.tenant]!)
          : c.kind === 'no-claim'
            ? bearer(tokens['no-claim']!)
            : c.kind === 'broken'
              ? bearer(tampered(tokens['1']!))
              : { headers: {} };
      const rowsOf = async (tenant: '1' | '2') => {
        const knex = t().target.database.knex;
        // The rows of the other tenant: those this caller must neither see nor change.
        const ids = OTHER_IDS[tenant]!.map(Number);
        return JSON.stringify([
          await knex('person').whereIn('id', ids).orderBy('id'),
          await knex('article').whereIn('id', ids).orderBy('id'),
          await knex('comment').whereIn('id', ids).orderBy('id'),
        ]);
      };
      await fc.assert(
        fc.asyncProperty(
          caller,
          fc.oneof(
            { weight: 4, arbitrary: read.map((path) => ({ method: 'GET', path, body: undefined as unknown })) },
            { weight: 1, arbitrary: write },
          ),
          async (c, r) => {
            // The rows the caller must not reach, as they were (for a tenant: the other tenant's).
            const guarded = c.kind === 'tenant' ? await rowsOf(c.tenant) : undefined;
            const res = await t().http.request(r.method, r.path, {
              ...headersOf(c),
              ...(r.body ? { body: r.body } : {}),
            });
            expect(res.status, `${r.method} ${r.path}: ${res.text}`).to.be.below(500);
            const seen = `${res.text}\n${[...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n')}`;
            if (c.kind === 'broken') expect(res.status).to.equal(401);
            const forbidden =
              c.kind === 'tenant'
                ? OTHER_IDS[c.tenant]!
                : c.kind === 'no-claim' || c.kind === 'anonymous'
                  ? ['1', '2', '3', '4']
                  : [];
            if (c.kind !== 'tenant' || c.tenant === '1') expect(seen, `${r.method} ${r.path}`).not.to.contain(MARK);
            if (guarded !== undefined) {
              expect(await rowsOf((c as { tenant: '1' | '2' }).tenant), `${r.method} ${r.path}`).to.equal(guarded);
            }
            // An error may repeat the ids the request named (its URL); that one is the same for a missing row is
            // proven by the read and write suites. Ids are scanned in answers that carry data.
            if (res.status >= 300) return;
            for (const type of TYPES) {
              for (const n of forbidden) {
                expect(seen, `${c.kind} ${r.method} ${r.path}: ${type} ${n}`).not.to.match(
                  new RegExp(`"type":"${type}","id":"${n}"|/${type}/${n}(?![0-9])`),
                );
              }
            }
          },
        ),
        { numRuns: CASES, ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}) },
      );
    });
  },
  { api: { access: ACCESS }, seed: false },
);
