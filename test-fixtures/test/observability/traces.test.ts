import type { HookContext } from '@colapi/server-koa';
import { connect, disconnect, type Database } from '@colapi/sql-compiler';
import { describeEachDatabase, filterParam } from '@colapi/test-fixtures/testing';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { LOSE_CONFLICT } from '../concurrency/lose-conflict.js';

/**
 * With an OpenTelemetry SDK registered (here an in-memory exporter), each request is one server span named
 * for its route template; the pipeline's stages and each transaction attempt are its children, and every
 * statement a client span under them, with its text and never its values.
 */
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
/** Values the requests below send, which no attribute of any span may carry. */
const SECRETS = ['Zq7SecretName', 'Wx9SecretName', 'Kv3SecretTitle'];
let other: Database | undefined;
let attempts = 0;

/** As in concurrency/retry.test.ts: the first `x-test-lose` attempts of an update lose a real conflict. */
async function loseConflicts(_op: unknown, hook: HookContext): Promise<void> {
  const lose = hook.request.headers['x-test-lose'];
  if (lose === undefined) return;
  attempts++;
  const db = hook.db!;
  const write = () => db('task').insert({ title: `attempt ${attempts}` });
  if (attempts > Number(lose)) return void (await write());
  await LOSE_CONFLICT[(db.client.config as { client: string }).client]!(db, other!.knex, write);
}

/** The finished spans of the one request that was made since the last reset, root first. */
function requestTree(): { root: ReadableSpan; children: (span: ReadableSpan) => ReadableSpan[] } {
  const servers = exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER);
  expect(servers, 'one server span').to.have.length(1);
  const root = servers[0]!;
  const traceId = root.spanContext().traceId;
  const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
  const children = (span: ReadableSpan) =>
    spans
      .filter((s) => s.parentSpanContext?.spanId === span.spanContext().spanId)
      .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
  return { root, children };
}

/** Every attribute value of every finished span, as text. */
const attributeTexts = () =>
  exporter.getFinishedSpans().flatMap((s) => [s.name, ...Object.values(s.attributes).map((v) => String(v))]);

function expectStatement(span: ReadableSpan, system: string, operation: string): void {
  expect(span.kind).to.equal(SpanKind.CLIENT);
  expect(span.attributes['db.system']).to.equal(system);
  expect(span.attributes['db.operation.name']).to.equal(operation);
  expect(String(span.attributes['db.query.text'])).to.match(new RegExp(`^\\s*${operation}`, 'i'));
}

const SYSTEMS = { postgres: 'postgresql', mysql: 'mysql', sqlite: 'sqlite' } as const;

/** The SDK is registered only while this file's tests run, so that no other file pays for recording spans. */
let using = 0;
function useSdk(): void {
  if (using++ > 0) return;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
}
async function leaveSdk(): Promise<void> {
  if (--using > 0) return;
  await provider.forceFlush();
  trace.disable();
  context.disable();
}

describeEachDatabase(
  'observability: the spans of requests',
  (t) => {
    const system = () => SYSTEMS[t().kind as keyof typeof SYSTEMS];
    before(() => {
      useSdk();
      other = connect(t().target.url);
    });
    after(async () => {
      await disconnect(other!);
      await leaveSdk();
    });
    beforeEach(() => {
      attempts = 0;
      exporter.reset();
    });

    it('a list with include: a server span by route template, then execute with a statement per level, then encode', async () => {
      const filter = filterParam([{ name: 'name', op: '!=', val: SECRETS[0] }]);
      const res = await t().http.get(`/api/person?include=articles&sort=id&${filter}`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.included.length).to.be.above(0);
      const { root, children } = requestTree();
      expect(root.name).to.equal('GET /api/person');
      expect(root.attributes).to.include({
        'http.request.method': 'GET',
        'http.route': '/api/person',
        'http.response.status_code': 200,
        'url.scheme': 'http',
      });
      expect(root.parentSpanContext, 'a root span').to.equal(undefined);
      expect(children(root).map((s) => s.name)).to.deep.equal(['execute', 'encode']);
      const statements = children(children(root)[0]!);
      // The page of persons, then their articles (the included level); nothing else runs.
      expect(statements.length).to.be.at.least(2);
      for (const s of statements) expectStatement(s, system(), 'SELECT');
      expect(String(statements[0]!.attributes['db.query.text'])).to.match(/person/);
      expect(statements.some((s) => /article/.test(String(s.attributes['db.query.text'])))).to.equal(true);
      // Each statement lies within the request's time, to the SDK's clock: it anchors each trace's spans to the
      // wall clock apart, and a child was seen to end 13 µs after its root (a CI run); 1 ms is allowed.
      const SKEW = 1e6;
      const [rootStart, rootEnd] = [root.startTime, root.endTime].map(([s, n]) => s * 1e9 + n);
      for (const s of statements) {
        expect(s.startTime[0] * 1e9 + s.startTime[1]).to.be.at.least(rootStart! - SKEW);
        expect(s.endTime[0] * 1e9 + s.endTime[1]).to.be.at.most(rootEnd! + SKEW);
      }
      expect(attributeTexts().join('\n')).not.to.include(SECRETS[0]);
    });

    it('a fetch by id is named for the template, never the id', async () => {
      const res = await t().http.get('/api/person/3');
      expect(res.status, res.text).to.equal(200);
      const { root } = requestTree();
      expect(root.name).to.equal('GET /api/person/:id');
      expect(root.attributes['http.route']).to.equal('/api/person/:id');
      const missing = await t().http.get('/api/nosuchthing/7');
      expect(missing.status).to.equal(404);
      const names = exporter
        .getFinishedSpans()
        .filter((s) => s.kind === SpanKind.SERVER)
        .map((s) => s.name);
      expect(names).to.deep.equal(['GET /api/person/:id', 'GET /api/:collection/:id']);
    });

    it('a write whose transaction is retried: one span per attempt, the lost one failed, the last committing', async () => {
      const res = await t().http.request('PATCH', '/api/person/3', {
        headers: { 'x-test-lose': '1' },
        body: { data: { type: 'person', id: '3', attributes: { name: SECRETS[1] } } },
      });
      expect(res.status, res.text).to.equal(200);
      expect(attempts).to.equal(2);
      const { root, children } = requestTree();
      expect(root.name).to.equal('PATCH /api/person/:id');
      expect(root.attributes['http.response.status_code']).to.equal(200);
      const [execute] = children(root);
      expect(execute!.name).to.equal('execute');
      const transactions = children(execute!);
      expect(transactions.map((s) => [s.name, s.attributes['colapi.transaction.attempt']])).to.deep.equal([
        ['transaction', 1],
        ['transaction', 2],
      ]);
      expect(transactions[0]!.status.code).to.equal(SpanStatusCode.ERROR);
      expect(transactions[1]!.status.code).not.to.equal(SpanStatusCode.ERROR);
      // The update itself ran in the attempt that committed, its value bound, not in its text.
      const committed = children(transactions[1]!);
      const update = committed.find((s) => s.attributes['db.operation.name'] === 'UPDATE');
      expect(update, committed.map((s) => s.name).join()).not.to.equal(undefined);
      expectStatement(update!, system(), 'UPDATE');
      expect(attributeTexts().join('\n')).not.to.include(SECRETS[1]);
    });

    it('no value the client sent appears in any attribute of any span', async () => {
      const created = await t().http.request('POST', '/api/article', {
        body: { data: { type: 'article', attributes: { title: SECRETS[2] } } },
      });
      expect(created.status, created.text).to.equal(201);
      const filter = filterParam([{ name: 'title', op: '==', val: SECRETS[2] }]);
      const found = await t().http.get(`/api/article?${filter}&include=author`);
      expect(found.body.data).to.have.length(1);
      const bad = await t().http.get(`/api/article?${filterParam([{ name: 'title', op: 'like', val: 5 }])}`);
      expect(bad.status).to.equal(400);
      const statements = exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.CLIENT);
      expect(statements.length).to.be.at.least(2);
      const texts = attributeTexts().join('\n');
      for (const secret of SECRETS) expect(texts).not.to.include(secret);
    });
  },
  { api: { hooks: { person: { update: { before: loseConflicts } } }, transactionRetryBudget: 5000 } },
);
