import { readCatalogue } from '@colapi/catalogue';
import { startConformanceTarget, type ConformanceTarget } from '@colapi/test-fixtures';
import { seed, STANDARD_DATA, testDatabaseOrSkip, testedKinds, type TestDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, serveCatalogue, type CatalogueServer } from '../src/index.js';

/**
 * The conformance tables served from their catalogue, with a configuration file naming the collections and
 * registration options of conformance/SCHEMA.md, answer what the model-driven conformance target answers,
 * in both formats. The virtual attribute is_minor is the one difference: no catalogue holds it, so it is
 * taken out of the target's answers. The file also names the types that SQLite (dates kept as text) and
 * MariaDB (an address in a varchar, seconds in a bigint) cannot tell, as the target's models do; on
 * PostgreSQL the catalogue tells them all (checked below).
 */
const CONFIG_FILE = join(dirname(fileURLToPath(import.meta.url)), 'conformance.config.json');
interface Step {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
}
/** Requests whose answers are compared in order; a case with a write runs on freshly seeded tables. */
interface Case {
  readonly name: string;
  readonly steps: readonly Step[];
}

const get = (path: string): Step => ({ method: 'GET', path });
const json = (v: unknown) => encodeURIComponent(JSON.stringify(v));
const filter = (f: unknown) => `filter[objects]=${json(f)}`;
const read = (name: string, ...paths: string[]): Case => ({ name, steps: paths.map(get) });
const write = (name: string, ...steps: Step[]): Case => ({ name, steps });

const JSONAPI_READS: Case[] = [
  read(
    'lists, sorts and pages',
    '/api/person',
    '/api/person?sort=-age,name',
    '/api/person?page[size]=2&page[number]=2',
    '/api/task?sort=duration',
  ),
  read('one resource, missing ones, bad ids', '/api/person/1', '/api/person/99', '/api/person/abc', '/api/unknown'),
  read(
    'includes',
    '/api/article?include=author,comments,tags',
    '/api/article/1?include=tags.articles',
    '/api/comment?include=article.author',
  ),
  read(
    'filters',
    `/api/article?${filter([{ name: 'tags', op: 'any', val: { name: 'name', op: '==', val: 'tech' } }])}`,
    `/api/comment?${filter([{ name: 'author', op: 'has', val: { name: 'age', op: '>', val: 20 } }])}`,
    `/api/person?${filter([{ name: 'name', op: 'ilike', val: '%a%' }])}`,
    `/api/person?${filter([{ name: 'birthday', op: '<', val: '2000-01-01' }])}`,
    `/api/person?${filter([{ name: 'birth_datetime', op: '>=', val: '2006-03-03T00:00:00' }])}`,
    `/api/person?${filter([{ name: 'bedtime', op: '>', val: '21:00' }])}`,
    `/api/network?${filter([{ name: 'address', op: '==', val: '192.168.1.5' }])}`,
    `/api/task?${filter([{ name: 'duration', op: '>', val: 100 }])}`,
    `/api/person?${filter([{ name: 'age', op: 'is_null' }])}`,
  ),
  read(
    'bad requests',
    `/api/person?${filter([{ name: 'nope', op: '==', val: 1 }])}`,
    '/api/person?sort=nope',
    `/api/person?${filter([{ name: 'birthday', op: '<', val: 'soon' }])}`,
    '/api/article?include=nope',
  ),
  read(
    'relationships',
    '/api/person/1/articles',
    '/api/article/1/relationships/tags',
    '/api/article/1/author',
    '/api/article/4/author',
    '/api/tag/2/articles',
    '/api/article/1/relationships/author',
  ),
  read(
    'grouping and sparse fieldsets',
    '/api/article?group=author.name',
    '/api/person?fields[person]=name,age',
    '/api/article?include=author&fields[person]=name',
  ),
  read(
    'function evaluation',
    `/api/eval/person?functions=${json([
      { name: 'avg', field: 'age' },
      { name: 'count', field: 'id' },
      { name: 'max', field: 'birthday' },
    ])}`,
    `/api/eval/task?functions=${json([{ name: 'sum', field: 'duration' }])}`,
    `/api/eval/comment?functions=${json([{ name: 'count', field: 'id' }])}`,
  ),
  read(
    'other collections of a model',
    '/api/person_names',
    '/api/person_private?include=articles',
    '/api/person_private/1/comments',
  ),
];

const JSONAPI_WRITES: Case[] = [
  write(
    'create',
    {
      method: 'POST',
      path: '/api/person',
      body: {
        data: {
          type: 'person',
          attributes: {
            name: 'Zed',
            age: 30,
            birthday: '1990-01-02',
            birth_datetime: '1990-01-02T03:04:05.5',
            bedtime: '22:00',
          },
        },
      },
    },
    get('/api/person/6'),
  ),
  write(
    'create with relationships',
    {
      method: 'POST',
      path: '/api/article',
      body: {
        data: {
          type: 'article',
          attributes: { title: 'T' },
          relationships: { author: { data: { type: 'person', id: '2' } }, tags: { data: [{ type: 'tag', id: '3' }] } },
        },
      },
    },
    get('/api/article/6?include=tags'),
  ),
  write(
    'create with a client id, then a duplicate',
    { method: 'POST', path: '/api/tag', body: { data: { type: 'tag', id: '10', attributes: { name: 'ten' } } } },
    { method: 'POST', path: '/api/tag', body: { data: { type: 'tag', attributes: { name: 'ten' } } } },
  ),
  write(
    'create refused',
    { method: 'POST', path: '/api/person', body: { data: { type: 'person', attributes: { birthday: '2001-02-30' } } } },
    { method: 'POST', path: '/api/person', body: { data: { type: 'person', attributes: { name: 'x'.repeat(101) } } } },
    { method: 'POST', path: '/api/comment', body: { data: { type: 'comment', attributes: {} } } },
  ),
  write(
    'update',
    {
      method: 'PATCH',
      path: '/api/person/1',
      body: { data: { type: 'person', id: '1', attributes: { age: 26, bedtime: '23:00' } } },
    },
    { method: 'PATCH', path: '/api/task/1', body: { data: { type: 'task', id: '1', attributes: { duration: 60 } } } },
    get('/api/task/1'),
  ),
  write(
    'delete',
    { method: 'DELETE', path: '/api/person/5' },
    { method: 'DELETE', path: '/api/person/4' },
    get('/api/person'),
  ),
  write(
    'relationship endpoints',
    { method: 'POST', path: '/api/article/1/relationships/tags', body: { data: [{ type: 'tag', id: '3' }] } },
    { method: 'DELETE', path: '/api/article/1/relationships/tags', body: { data: [{ type: 'tag', id: '1' }] } },
    { method: 'PATCH', path: '/api/article/2/relationships/author', body: { data: { type: 'person', id: '3' } } },
    get('/api/article?include=tags,author'),
  ),
  write(
    'another collection of a model',
    {
      method: 'PATCH',
      path: '/api/person_private/1',
      body: { data: { type: 'person_private', id: '1', attributes: { name: 'Alicia' } } },
    },
    get('/api/person/1'),
  ),
];

const q = (v: unknown) => `q=${json(v)}`;
const LEGACY_READS: Case[] = [
  read('lists and pages', '/api/person', '/api/person?page=2&results_per_page=2', '/api/task'),
  read('one instance, missing, bad ids', '/api/person/1', '/api/person/99', '/api/person/abc', '/api/article/1'),
  read(
    'searches',
    `/api/person?${q({ filters: [{ name: 'age', op: 'gt', val: 18 }], order_by: [{ field: 'age', direction: 'desc' }] })}`,
    `/api/article?${q({ filters: [{ name: 'author__name', op: '==', val: 'Alice' }] })}`,
    `/api/person?${q({ filters: [{ name: 'articles__tags__name', op: '==', val: 'life' }] })}`,
    `/api/article?${q({ filters: [{ name: 'tags', op: 'any', val: { name: 'name', op: '==', val: 'tech' } }] })}`,
    `/api/network?${q({ filters: [{ name: 'address', op: '==', val: '10.0.0.0/8' }] })}`,
    `/api/task?${q({ filters: [{ name: 'duration', op: '<', val: 100 }] })}`,
    `/api/person?${q({ filters: [{ name: 'birth_datetime', op: '<', val: '2000-01-01T00:00:00' }], single: true })}`,
    `/api/person?${q({ filters: [{ name: 'nope', op: '==', val: 1 }] })}`,
  ),
  read(
    'related instances',
    '/api/person/1/articles',
    '/api/article/1/tags',
    '/api/article/4/author',
    '/api/tag/2/articles',
  ),
  read(
    'function evaluation',
    `/api/eval/person?${q({
      functions: [
        { name: 'avg', field: 'age' },
        { name: 'count', field: 'id' },
      ],
    })}`,
    `/api/eval/task?${q({ functions: [{ name: 'sum', field: 'duration' }] })}`,
  ),
  read('other collections of a model', '/api/person_names', '/api/person_private/1'),
];

const LEGACY_WRITES: Case[] = [
  write(
    'create',
    { method: 'POST', path: '/api/person', body: { name: 'Zed', age: 30, birthday: '1990-01-02', bedtime: '22:00' } },
    {
      method: 'POST',
      path: '/api/article',
      body: { title: 'T', author: { id: 1 }, tags: [{ id: 2 }, { name: 'fresh' }] },
    },
    get('/api/article/6'),
  ),
  write(
    'replace and update',
    {
      method: 'PUT',
      path: '/api/article/4',
      body: { title: 'Titled', publishtime: '2023-03-03T03:03:03', author: { id: 5 }, tags: { add: [{ id: 2 }] } },
    },
    { method: 'PATCH', path: '/api/task/2', body: { duration: 42 } },
    get('/api/article/4'),
    get('/api/task/2'),
  ),
  write(
    'update many',
    { method: 'PATCH', path: '/api/person', body: { other: 9, q: { filters: [{ name: 'age', op: '<', val: 20 }] } } },
    get('/api/person'),
  ),
  write(
    'delete and unlink',
    { method: 'DELETE', path: '/api/person/5' },
    { method: 'DELETE', path: '/api/article/1/tags/1' },
    { method: 'DELETE', path: '/api/person/1' },
    get('/api/article/1'),
  ),
  write(
    'refused',
    { method: 'POST', path: '/api/tag', body: { name: 'news' } },
    { method: 'POST', path: '/api/person', body: { bedtime: '25:00' } },
    { method: 'POST', path: '/api/comment', body: {} },
  ),
];

const MEDIA: Record<string, string> = { jsonapi: 'application/vnd.api+json', legacy: 'application/json' };

/** What a client sees of an answer, with the server's own origin and the virtual attribute taken out. */
async function answer(origin: string, format: string, step: Step): Promise<unknown> {
  const headers: Record<string, string> = { accept: MEDIA[format]! };
  if (step.body !== undefined) headers['content-type'] = MEDIA[format]!;
  const res = await fetch(`${origin}${step.path}`, {
    method: step.method,
    headers,
    ...(step.body === undefined ? {} : { body: JSON.stringify(step.body) }),
  });
  const text = (await res.text()).split(origin).join('ORIGIN');
  const kept = ['content-type', 'allow', 'location', 'link'].map((h) => [
    h,
    res.headers.get(h)?.split(origin).join('ORIGIN') ?? null,
  ]);
  return {
    step: `${step.method} ${decodeURIComponent(step.path)}`,
    status: res.status,
    headers: Object.fromEntries(kept),
    body: text ? withoutVirtual(JSON.parse(text)) : null,
  };
}

function withoutVirtual(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutVirtual);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'is_minor')
      .map(([k, v]) => [k, withoutVirtual(v)]),
  );
}

for (const kind of testedKinds()) {
  for (const format of ['jsonapi', 'legacy'] as const) {
    describe(`the conformance tables served from the catalogue answer as the model-driven target [${kind}, ${format}]`, function () {
      this.timeout(120_000);
      let db: TestDatabase | undefined;
      let target: ConformanceTarget;
      let served: CatalogueServer;
      const reseed = () => seed(target.database.knex, target.database.dialect, STANDARD_DATA);

      before(async function () {
        db = await testDatabaseOrSkip(this, kind);
        // The target creates the conformance tables; the catalogue server reads them.
        target = await startConformanceTarget({ url: db!.url, format, connect: { pool: { min: 0, max: 2 } } });
        served = await serveCatalogue({
          databaseUrl: db!.url,
          format,
          config: () => loadConfig(CONFIG_FILE).config,
          configSource: 'conformance.config.json',
          connect: { pool: { min: 0, max: 2 } },
        });
        await reseed();
      });
      after(async () => {
        await served?.close(500);
        await target?.close();
        await db?.drop();
      });

      it('serves the same collections, and warns of nothing', () => {
        expect([...served.current().registry.collections.keys()].sort()).to.deep.equal(
          [...target.registry.collections.keys()].sort(),
        );
        expect(served.current().warnings).to.deep.equal([]);
      });

      it('describes the same paths and methods in OpenAPI', async () => {
        const paths = async (origin: string) => {
          const doc = (await (await fetch(`${origin}/api/openapi.json`)).json()) as {
            paths: Record<string, Record<string, unknown>>;
          };
          return Object.fromEntries(Object.entries(doc.paths).map(([p, ops]) => [p, Object.keys(ops).sort()]));
        };
        // The target mounts no OpenAPI route: its document is the same generator run on its registry.
        const { openApiDocument } = await import('@colapi/openapi');
        const expected = Object.fromEntries(
          Object.entries(openApiDocument(target.registry, { format: target.format }).paths).map(([p, ops]) => [
            p,
            Object.keys(ops).sort(),
          ]),
        );
        expect(await paths(served.origin)).to.deep.equal(expected);
      });

      if (kind === 'postgres') {
        it('needs none of the configured types on PostgreSQL: its catalogue holds them', async () => {
          const catalogue = await readCatalogue(served.current().database);
          const config = loadConfig(CONFIG_FILE).config;
          for (const [table, settings] of Object.entries(config.tables ?? {})) {
            for (const [column, { type }] of Object.entries(settings.columns ?? {})) {
              if (type === undefined) continue;
              expect(
                catalogue.tables.find((t) => t.name === table)!.columns.find((c) => c.name === column)!.type,
                `${table}.${column}`,
              ).to.equal(type);
            }
          }
        });
      }

      const reads = format === 'jsonapi' ? JSONAPI_READS : LEGACY_READS;
      const writes = format === 'jsonapi' ? JSONAPI_WRITES : LEGACY_WRITES;
      for (const c of reads) {
        it(`reads: ${c.name}`, async () => {
          for (const step of c.steps)
            expect(await answer(served.origin, format, step)).to.deep.equal(await answer(target.origin, format, step));
        });
      }
      for (const c of writes) {
        it(`writes: ${c.name}`, async () => {
          const run = async (origin: string) => {
            await reseed();
            const out = [];
            for (const step of c.steps) out.push(await answer(origin, format, step));
            return out;
          };
          const expected = await run(target.origin);
          expect(await run(served.origin)).to.deep.equal(expected);
          await reseed();
        });
      }
    });
  }
}
