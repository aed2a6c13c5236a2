import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The three commands a user starts, as the root package.json runs them from source. */
const ENTRY_POINTS = [
  { name: 'demo', script: 'apps/demo/src/main.ts', args: ['--help'] },
  { name: 'colapi', script: 'packages/cli/src/bin.ts', args: ['--help'] },
  // No --help here: it would serve; an unreachable database makes it stop at once, past the check.
  { name: 'conformance target', script: 'test-fixtures/src/serve.ts', args: [] },
];

/** Nothing listens on port 1: a start that gets past the check fails on the database, quickly. */
const UNREACHABLE = 'postgres://root@127.0.0.1:1/none';

/** Makes the child believe it runs on another release, before anything else is loaded. */
function pretend(version: string): string {
  const code = `Object.defineProperty(process.versions, 'node', { value: ${JSON.stringify(version)} });`;
  return `data:text/javascript,${encodeURIComponent(code)}`;
}

function run(node: string, preload: string[], script: string, args: string[]) {
  return spawnSync(node, [...preload, '--conditions=development', '--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: UNREACHABLE, PORT: '0' },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('the commands on an unsupported Node.js', function () {
  this.timeout(60_000);

  for (const { name, script, args } of ENTRY_POINTS) {
    it(`${name}: one line on stderr, exit code 1, nothing started`, () => {
      const r = run(process.execPath, ['--import', pretend('20.20.2')], script, args);
      expect(r.status, r.stderr).to.equal(1);
      expect(r.stdout).to.equal('');
      expect(r.stderr).to.equal(
        `${name}: Node.js v20.20.2 is not supported: colapi needs Node.js 22.12.0+ or 24 (see "Supported Node.js" in its README).\n`,
      );
    });

    it(`${name}: a later major warns in one line and goes on`, () => {
      const r = run(process.execPath, ['--import', pretend('26.0.0')], script, args);
      const [first, ...rest] = r.stderr.split('\n');
      expect(first).to.equal(
        `${name}: Node.js v26.0.0 is newer than colapi is tested on (Node.js 22.12.0+ or 24); continuing.`,
      );
      // It went on: the help on stdout, or the database's refusal after the warning.
      expect(r.stdout + rest.join('\n')).to.match(
        name === 'conformance target' ? /127\.0\.0\.1:1|ECONNREFUSED|reach/i : /usage|DATABASE_URL|serve/i,
      );
    });
  }

  // The machines this project is built on ship Node.js 20 as the system's node: the real thing, where
  // better-sqlite3 13 would crash if it were ever loaded.
  const system = '/usr/bin/node';
  const systemMajor = existsSync(system)
    ? Number(spawnSync(system, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).stdout.trim())
    : 0;
  if (systemMajor && systemMajor < 22) {
    for (const { name, script, args } of ENTRY_POINTS) {
      it(`${name}: refused by a real Node.js ${systemMajor} in one line`, () => {
        const r = run(system, [], script, args);
        expect(r.status, r.stderr).to.equal(1);
        expect(r.stderr.trim().split('\n')).to.have.length(1);
        expect(r.stderr).to.match(new RegExp(`^${name}: Node\\.js v${systemMajor}\\.\\d+\\.\\d+ is not supported`));
      });
    }
  }
});
