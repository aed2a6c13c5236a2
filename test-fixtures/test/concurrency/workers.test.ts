import { connect } from '@colapi/sql-compiler';
import { createTestDatabase, seed, STANDARD_DATA, testedKinds, type TestDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { freePort } from '../faults/private-server.js';

/**
 * Three worker processes of the conformance target (`--workers 3`) share nothing but the database: whichever
 * worker a connection reaches, it answers the same document, and a write answered by one is read by the next.
 * Every request below opens a connection of its own, so that node:cluster hands them out in turn.
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const MEDIA = 'application/vnd.api+json';
const WORKERS = 3;

/** One request on a connection of its own (no keep-alive agent): the next one may reach another worker. */
function request(
  origin: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${origin}${path}`,
      { method, agent: false, headers: { accept: MEDIA, ...(body ? { 'content-type': MEDIA } : {}) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

for (const kind of testedKinds()) {
  describe(`workers: ${WORKERS} processes on one ${kind} database`, function () {
    this.timeout(90_000);
    let db: TestDatabase | undefined;
    let child: ChildProcess | undefined;
    let origin = '';

    before(async () => {
      db = await createTestDatabase(kind).catch((error: Error) => {
        if (process.env.CI === 'true') throw error;
        return undefined;
      });
      if (!db) return;
      const port = await freePort();
      child = spawn(
        process.execPath,
        ['--conditions=development', '--import', 'tsx', 'test-fixtures/src/serve.ts', '--workers', String(WORKERS)],
        {
          cwd: ROOT,
          env: { ...process.env, DATABASE_URL: db.url, PORT: String(port) },
          stdio: ['ignore', 'pipe', 'inherit'],
          detached: true,
        },
      );
      let out = '';
      await new Promise<void>((resolve, reject) => {
        child!.stdout!.on('data', (c: Buffer) => {
          out += c;
          if (out.includes('listening on')) resolve();
        });
        child!.on('exit', () => reject(new Error(`the server stopped: ${out}`)));
      });
      origin = `http://127.0.0.1:${port}`;
      const direct = connect(db.url, { pool: { min: 0, max: 1 } });
      await seed(direct.knex, direct.dialect, STANDARD_DATA);
      await direct.knex.destroy();
    });

    after(async () => {
      if (child?.pid) {
        process.kill(-child.pid, 'SIGTERM');
        if (child.exitCode === null) await once(child, 'exit');
      }
      await db?.drop();
    });

    it('every worker answers the same documents', async function () {
      if (!db) this.skip();
      for (const path of [
        '/api/person?sort=-age&include=articles',
        '/api/article/1?include=author,tags',
        '/api/person/1/articles',
        `/api/eval/person?functions=${encodeURIComponent('[{"name":"count","field":"id"}]')}`,
      ]) {
        const answers = await Promise.all(Array.from({ length: 4 * WORKERS }, () => request(origin, 'GET', path)));
        expect(answers.map((a) => a.status)).to.deep.equal(answers.map(() => 200));
        expect(new Set(answers.map((a) => a.text)).size, path).to.equal(1);
      }
    });

    it('a write answered by one worker is read by whichever worker answers next', async function () {
      if (!db) this.skip();
      for (let n = 0; n < 4 * WORKERS; n++) {
        const created = await request(origin, 'POST', '/api/person', {
          data: { type: 'person', attributes: { name: `w${n}`, age: n } },
        });
        expect(created.status, created.text).to.equal(201);
        const id = JSON.parse(created.text).data.id as string;
        const read = await request(origin, 'GET', `/api/person/${id}`);
        expect(read.status, `person ${id}`).to.equal(200);
        expect(JSON.parse(read.text).data.attributes.name).to.equal(`w${n}`);
        const patched = await request(origin, 'PATCH', `/api/person/${id}`, {
          data: { type: 'person', id, attributes: { age: n + 100 } },
        });
        expect(patched.status).to.equal(200);
        expect(JSON.parse((await request(origin, 'GET', `/api/person/${id}`)).text).data.attributes.age).to.equal(
          n + 100,
        );
        expect((await request(origin, 'DELETE', `/api/person/${id}`)).status).to.equal(204);
        expect((await request(origin, 'GET', `/api/person/${id}`)).status).to.equal(404);
      }
    });
  });
}
