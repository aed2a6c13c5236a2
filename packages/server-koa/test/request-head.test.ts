import { expect } from 'chai';
import Koa from 'koa';
import { spawnSync } from 'node:child_process';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { requestHead, standInHead, withBody } from '../src/stages/request-head.js';

/** A Koa context of a POST that never touched a network: headers only, over an unconnected socket. */
function context(): Koa.Context {
  const req = new IncomingMessage(new Socket());
  req.method = 'POST';
  req.url = '/api/tag?include=articles';
  req.headers = { host: 'example.com', 'content-length': '2', 'content-type': 'application/vnd.api+json' };
  return new Koa().createContext(req, new ServerResponse(req));
}

describe('request head', () => {
  const links = { prefix: '/api' };
  const route = { collection: 'tag' };

  it('withBody keeps every member of the head and adds the body', () => {
    for (const head of [requestHead(context(), route, links), standInHead(context(), route, links)]) {
      const request = withBody(head, { data: null });
      expect(Object.keys(request).sort()).to.deep.equal([...Object.keys(head), 'body'].sort());
      for (const [name, value] of Object.entries(head)) expect(request[name as keyof typeof request]).to.equal(value);
      expect(request.body).to.deep.equal({ data: null });
    }
  });

  it('withBody gives every request the same hidden class (V8 map), so that reads of it stay in their inline caches', () => {
    // Asked of V8 itself, in a process of its own: %HaveSameMap needs --allow-natives-syntax.
    const script = `
      const { withBody } = await import(${JSON.stringify(new URL('../src/stages/request-head.ts', import.meta.url).href)});
      const head = (i) => ({ method: 'POST', url: new URL('http://h/api/tag'), base: 'http://h/api', route: { collection: 'tag' }, headers: { n: String(i) }, hasBody: true });
      let same = 0, previous;
      for (let i = 0; i < 2000; i++) {
        const request = withBody(head(i), { i });
        if (previous && %HaveSameMap(request, previous)) same++;
        previous = request;
      }
      process.stdout.write(String(same));`;
    const run = spawnSync(
      process.execPath,
      // The workspace's sources, as this test's own process reads them (packages may not be built yet).
      ['--conditions=development', '--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', script],
      { encoding: 'utf8' },
    );
    expect(run.stderr).to.equal('');
    expect(Number(run.stdout)).to.be.at.least(1990);
  });
});
