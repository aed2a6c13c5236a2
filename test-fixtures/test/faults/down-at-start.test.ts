import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { freePort } from './private-server.js';

/**
 * The conformance target started on a database it cannot reach or open stops at once with one clear line on
 * standard error (which database, password hidden, and why) and a failing exit status; it never listens.
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

async function serve(url: string): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', 'test-fixtures/src/serve.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, PORT: String(await freePort()) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c));
  child.stderr.on('data', (c: Buffer) => (stderr += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr, ms: performance.now() - started };
}

describe('database faults: a database that is down at start', function () {
  this.timeout(60_000);
  const CASES: [string, () => Promise<string>, RegExp][] = [
    [
      'PostgreSQL',
      async () => `postgres://root:secret@127.0.0.1:${await freePort()}/test`,
      /cannot reach the database at postgres:\/\/root:\*\*\*@127\.0\.0\.1:\d+\/test: .*ECONNREFUSED/,
    ],
    [
      'MariaDB',
      async () => `mysql://root:secret@127.0.0.1:${await freePort()}/test`,
      /cannot reach the database at mysql:\/\/root:\*\*\*@127\.0\.0\.1:\d+\/test: .*ECONNREFUSED/,
    ],
    [
      'SQLite in a folder that does not exist',
      async () => 'sqlite:/colapi-no-such-folder/x.sqlite',
      /cannot open the database at sqlite:\/colapi-no-such-folder\/x\.sqlite: /,
    ],
  ];
  for (const [what, url, expected] of CASES) {
    it(`${what}: exit status 1 within seconds, one line on standard error, nothing listening`, async () => {
      const res = await serve(await url());
      expect(res.code).to.equal(1);
      expect(res.stdout).to.equal('');
      expect(res.stderr.endsWith('\n')).to.equal(true);
      const lines = res.stderr.trimEnd().split('\n');
      expect(lines, res.stderr).to.have.lengthOf(1);
      expect(lines[0]).to.match(/^conformance target failed to start: /);
      expect(lines[0]).to.match(expected);
      expect(lines[0]).to.not.include('secret');
      expect(res.ms).to.be.below(20_000);
    });
  }
});
