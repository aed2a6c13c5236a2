import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startOn, type RunningDemo } from './helpers.js';

const README = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'README.md');
const run = promisify(execFile);

/** The README's port of each format's demo, as its tour starts them. */
const PORTS: Record<string, string> = { '8080': 'jsonapi', '8081': 'legacy' };

/** Every `curl` command of the README's sh blocks, continuation lines joined, in reading order. */
function readmeCurlCommands(markdown: string): string[] {
  const commands: string[] = [];
  for (const [, block] of markdown.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const joined = block!.replace(/\\\n\s*/g, '');
    for (const line of joined.split('\n')) if (line.startsWith('curl ')) commands.push(line);
  }
  return commands;
}

/**
 * Runs the README's curl examples, exactly as written but for the host and port, against one fresh demo
 * per format, so that a README edit or a server change that breaks them fails the build.
 */
describe('README curl examples', function () {
  this.timeout(60_000);
  const commands = readmeCurlCommands(readFileSync(README, 'utf8'));
  const demos = new Map<string, RunningDemo>();

  before(async function () {
    try {
      await run('curl', ['--version']);
    } catch {
      if (process.env.CI === 'true') throw new Error('curl is missing');
      console.warn('  ! curl is missing: skipping the README examples');
      this.skip();
    }
    for (const format of Object.values(PORTS)) demos.set(format, await startOn('sqlite', { format }));
  });
  after(async () => {
    for (const d of demos.values()) await d.stop();
  });

  it('cover filter, sort, include, paging, create, update and functions in both formats', () => {
    const of = (port: string) => commands.filter((c) => c.includes(`127.0.0.1:${port}/`)).join('\n');
    const a = of('8080');
    for (const part of ['filter[objects]', 'sort=', 'include=', 'page[number]', '-X POST', '-X PATCH', '/api/eval/'])
      expect(a, part).to.contain(part);
    const b = of('8081');
    for (const part of ['"filters"', '"order_by"', 'results_per_page', '-X POST', '-X PATCH', '/api/eval/'])
      expect(b, part).to.contain(part);
    expect(
      commands.every((c) => /127\.0\.0\.1:(8080|8081)\//.test(c)),
      'every example names a demo of the tour',
    ).to.equal(true);
  });

  it('the cursor example answers a page of the profile, with a cursor per item and a next link', async () => {
    const command = commands.find((c) => c.includes('cursor-pagination'))!;
    const line = command.replaceAll('http://127.0.0.1:8080', demos.get('jsonapi')!.demo.origin);
    const { stdout } = await run('bash', [
      '-c',
      `curl() { command curl --silent --show-error --include "$@"; }\n${line}`,
    ]);
    expect(stdout).to.match(
      /content-type: application\/vnd\.api\+json; profile="https:\/\/jsonapi\.org\/profiles\/ethanresnick\/cursor-pagination"/i,
    );
    const body = JSON.parse(stdout.slice(stdout.indexOf('\r\n\r\n') + 4));
    expect(body.data).to.have.lengthOf(3);
    for (const item of body.data) expect(item.meta.page.cursor).to.be.a('string');
    expect(new URL(body.links.next).searchParams.get('page[after]')).to.equal(body.data[2].meta.page.cursor);
  });

  it('the atomic example creates an author and a book of theirs in one request, linked by lid', async () => {
    const command = commands.find((c) => c.includes('/api/operations'))!;
    const line = command.replaceAll('http://127.0.0.1:8080', demos.get('jsonapi')!.demo.origin);
    const { stdout } = await run('bash', [
      '-c',
      `curl() { command curl --silent --show-error --include "$@"; }\n${line}`,
    ]);
    expect(stdout).to.match(/content-type: application\/vnd\.api\+json; ext="https:\/\/jsonapi\.org\/ext\/atomic"/i);
    const body = JSON.parse(stdout.slice(stdout.indexOf('\r\n\r\n') + 4));
    const [author, book] = body['atomic:results'].map((r: { data: Record<string, unknown> }) => r.data);
    expect(author.type).to.equal('authors');
    expect(book.relationships.author.data).to.deep.equal({ type: 'authors', id: author.id });
  });

  it('all answer 2xx', async () => {
    expect(commands.length).to.be.greaterThan(10);
    for (const command of commands) {
      const port = /127\.0\.0\.1:(\d+)\//.exec(command)![1]!;
      const origin = demos.get(PORTS[port]!)!.demo.origin;
      const line = command.replaceAll(`http://127.0.0.1:${port}`, origin);
      // A shell function in front of curl adds only what the test reads: the status after the body.
      const script = `curl() { command curl --silent --show-error --write-out '\\n%{http_code}' "$@"; }\n${line}`;
      const { stdout } = await run('bash', ['-c', script]);
      const status = Number(stdout.slice(stdout.lastIndexOf('\n') + 1));
      expect(status, `${command}\n→ ${stdout.slice(0, 600)}`).to.be.within(200, 299);
    }
  });
});
