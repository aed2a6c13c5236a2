import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Statements that become garbage between event-loop turns are finalised by V8's GC, sometimes when no
 * JavaScript context is entered. Node 24's node::ObjectWrap looks its environment up through the current
 * context in its destructor and aborts the process when there is none: better-sqlite3 12 (built on
 * node::ObjectWrap) aborted every run of this script on Node 24 ("Assertion failed: (env) != nullptr" in
 * Statement::~Statement), and the demo's first start, whose seeding leaves hundreds of statements behind,
 * now and then. better-sqlite3 13 is built on N-API, whose finalisers need no context.
 * It runs in a child process, since the failure is an abort.
 */
const SCRIPT = `
const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
const db = new Database(':memory:');
let n = 0;
(function burst() {
  for (let i = 0; i < 2000; i++) db.prepare('select ' + n++).get();
  if (n < 60000) setTimeout(burst, 5);
  else setTimeout(() => { db.close(); console.log('finalised ' + n); }, 500);
})();
`;

describe('the SQLite driver on this runtime', function () {
  this.timeout(120_000);

  it(`finalises 60,000 garbage statements across timer turns without aborting (Node ${process.versions.node})`, () => {
    const r = spawnSync(process.execPath, ['-e', SCRIPT], { encoding: 'utf8', timeout: 100_000 });
    expect(r.stderr).not.to.match(/Assertion failed/);
    expect(r.signal, r.stderr).to.equal(null);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.equal('finalised 60000');
  });
});
