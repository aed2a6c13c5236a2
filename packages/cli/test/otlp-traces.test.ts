import { connect, disconnect } from '@colapi/sql-compiler';
import { createLibrary, testDatabaseOrSkip, testedKinds, type TestDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { colapi, freePort, line, stop, type Run } from './colapi-process.js';

interface OtlpSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}

/** A stand-in OTLP/HTTP collector: keeps every span of every JSON export it is sent, answers 200. */
function collector(): { server: Server; spans: OtlpSpan[]; services: string[] } {
  const spans: OtlpSpan[] = [];
  const services: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += String(d)));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const doc = JSON.parse(body) as {
          resourceSpans: {
            resource: { attributes: { key: string; value: { stringValue?: string } }[] };
            scopeSpans: { spans: OtlpSpan[] }[];
          }[];
        };
        for (const r of doc.resourceSpans) {
          const name = r.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue;
          if (name) services.push(name);
          for (const s of r.scopeSpans) spans.push(...s.spans);
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return { server, spans, services };
}

const attribute = (span: OtlpSpan, key: string) => {
  const v = span.attributes.find((a) => a.key === key)?.value;
  return v && Object.values(v)[0];
};

describe('colapi serve: traces to an OTLP endpoint', function () {
  this.timeout(60_000);

  for (const kind of testedKinds()) {
    describe(`on ${kind}`, () => {
      let db: TestDatabase | undefined;
      let run: Run | undefined;
      let dir: string;
      const sink = collector();

      before(async function () {
        db = await testDatabaseOrSkip(this, kind);
        const sql = connect(db!.url, { pool: { min: 0, max: 1 } });
        await createLibrary(sql.knex, kind);
        await disconnect(sql);
        dir = mkdtempSync(join(tmpdir(), 'colapi-otlp-'));
        writeFileSync(join(dir, 'colapi.config.json'), '{}');
        await new Promise<void>((resolve) => sink.server.listen(0, '127.0.0.1', resolve));
      });
      after(async () => {
        if (run && run.child.exitCode === null) run.child.kill('SIGKILL');
        await db?.drop();
        if (dir) rmSync(dir, { recursive: true, force: true });
        await new Promise((resolve) => sink.server.close(resolve));
      });

      it('sends a server span per request and its statements, named by route template, and flushes on SIGTERM', async () => {
        const port = await freePort();
        const endpoint = `http://127.0.0.1:${(sink.server.address() as AddressInfo).port}`;
        run = colapi(['serve', db!.url, '--port', String(port), '--config', join(dir, 'colapi.config.json')], {
          OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
          // Long enough that only the flush at SIGTERM can send the spans.
          OTEL_BSP_SCHEDULE_DELAY: '600000',
        });
        const [, origin] = (await line(run, /^listening on (\S+)/))!;
        expect(run.stderr).to.match(/sending traces to the OTLP endpoint/);
        const res = await fetch(`${origin}/api/book/2`, { headers: { accept: 'application/vnd.api+json' } });
        expect(res.status).to.equal(200);
        await stop(run);
        expect(run.child.exitCode).to.equal(0);
        const server = sink.spans.find((s) => s.name === 'GET /api/book/:id');
        expect(server, sink.spans.map((s) => s.name).join()).not.to.equal(undefined);
        expect(attribute(server!, 'http.route')).to.equal('/api/book/:id');
        expect(Number(attribute(server!, 'http.response.status_code'))).to.equal(200);
        const inTrace = sink.spans.filter((s) => s.traceId === server!.traceId);
        const statements = inTrace.filter((s) => attribute(s, 'db.query.text') !== undefined);
        expect(statements.length).to.be.at.least(1);
        expect(attribute(statements[0]!, 'db.system')).to.equal(
          { postgres: 'postgresql', mysql: 'mysql', sqlite: 'sqlite' }[kind],
        );
        expect(sink.services).to.include('colapi');
      });
    });
  }
});
