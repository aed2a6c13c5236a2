import { testedKinds } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../faults/private-server.js';

/**
 * SQLite written by several processes (the conformance target's `--workers 2`): one waits for the other's
 * write lock, and when the wait fails (SQLITE_BUSY, or SQLITE_BUSY_SNAPSHOT when a read-then-write transaction
 * lost its snapshot) the server retries within its retry budget, then answers 503. Never a 500; every 201 is in
 * the file.
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const MEDIA = 'application/vnd.api+json';

// Only where SQLite is tested: the case is about SQLite's file locks.
if (testedKinds().includes('sqlite'))
  describe('concurrency: SQLite written by two processes', function () {
    this.timeout(90_000);

    it('every answer is a success or a 503, and every created row is there', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'colapi-workers-'));
      const port = await freePort();
      const file = join(dir, 'db.sqlite');
      const child = spawn(
        process.execPath,
        ['--conditions=development', '--import', 'tsx', 'test-fixtures/src/serve.ts', '--workers', '2'],
        {
          cwd: ROOT,
          env: { ...process.env, DATABASE_URL: `sqlite:${file}`, PORT: String(port) },
          stdio: ['ignore', 'pipe', 'inherit'],
          detached: true,
        },
      );
      try {
        let out = '';
        await new Promise<void>((resolve, reject) => {
          child.stdout!.on('data', (c: Buffer) => {
            out += c;
            if (out.includes('listening on')) resolve();
          });
          child.on('exit', () => reject(new Error(`the server stopped: ${out}`)));
        });
        const origin = `http://127.0.0.1:${port}`;
        const statuses = new Map<number, number>();
        const created: string[] = [];
        const problems: string[] = [];
        const until = performance.now() + 5000;
        const client = async (c: number) => {
          for (let n = 0; performance.now() < until; n++) {
            const body = {
              data: { type: 'article', attributes: { title: `w-${c}-${n}` }, relationships: { tags: { data: [] } } },
            };
            const res = await fetch(`${origin}/api/article`, {
              method: 'POST',
              headers: { accept: MEDIA, 'content-type': MEDIA },
              body: JSON.stringify(body),
              signal: AbortSignal.timeout(15_000),
            });
            const text = await res.text();
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            if (res.status === 201) created.push(JSON.parse(text).data.id);
            else if (res.status !== 503) problems.push(`${res.status} ${text.slice(0, 200)}`);
          }
        };
        await Promise.all(Array.from({ length: 16 }, (_, c) => client(c)));
        expect(problems.slice(0, 5)).to.deep.equal([]);
        const list = await (await fetch(`${origin}/api/article?page[size]=1`, { headers: { accept: MEDIA } })).json();
        expect((list as { meta: { total: number } }).meta.total).to.equal(created.length);
        expect(created.length).to.be.greaterThan(50);
      } finally {
        process.kill(-child.pid!, 'SIGTERM');
        await once(child, 'exit');
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
