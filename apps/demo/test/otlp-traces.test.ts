import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const APP = join(dirname(fileURLToPath(import.meta.url)), '..');

interface ExportedSpan {
  name: string;
  traceId: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}

/** `pnpm demo` with OTEL_EXPORTER_OTLP_ENDPOINT set sends its spans there, flushed when it stops. */
describe('pnpm demo: traces to an OTLP endpoint', function () {
  this.timeout(90_000);

  it('sends the server span of a request and its statements, named by route template, on SIGTERM', async () => {
    const spans: ExportedSpan[] = [];
    const services: string[] = [];
    const collector = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += String(d)));
      req.on('end', () => {
        if (req.url === '/v1/traces')
          for (const r of JSON.parse(body).resourceSpans) {
            services.push(
              r.resource.attributes.find((a: { key: string }) => a.key === 'service.name')?.value.stringValue,
            );
            for (const s of r.scopeSpans) spans.push(...s.spans);
          }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const dir = mkdtempSync(join(tmpdir(), 'colapi-demo-otlp-'));
    const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', 'src/main.ts'], {
      cwd: APP,
      env: {
        ...process.env,
        DATABASE_URL: `sqlite:${join(dir, 'otlp.sqlite')}`,
        PORT: '0',
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
        // Only the flush at SIGTERM can send them.
        OTEL_BSP_SCHEDULE_DELAY: '600000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 60_000;
      let origin: string | undefined;
      while (!origin) {
        origin = /Browse\s+(http:\/\/127\.0\.0\.1:\d+)\//.exec(out)?.[1];
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no Browse line:\n${out}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(out).to.contain('sending traces to the OTLP endpoint');
      const res = await fetch(`${origin}/api/books/1`);
      expect(res.status).to.equal(200);
      child.kill('SIGTERM');
      expect(await exited).to.equal(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await new Promise((resolve) => collector.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
    const server = spans.find((s) => s.name === 'GET /api/books/:id');
    expect(server, spans.map((s) => s.name).join()).not.to.equal(undefined);
    const statements = spans.filter(
      (s) => s.traceId === server!.traceId && s.attributes.some((a) => a.key === 'db.query.text'),
    );
    expect(statements.length).to.be.at.least(1);
    expect(statements[0]!.attributes.find((a) => a.key === 'db.system')?.value.stringValue).to.equal('sqlite');
    expect(services).to.include('colapi-demo');
  });
});
