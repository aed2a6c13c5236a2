import { expect } from 'chai';
import Koa from 'koa';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { ApiError } from '@colapi/query-ast';
import { requestOrigin, requestUrl } from '../src/request-origin.js';

/** A Koa context of a request that never touched a network: headers only, over an unconnected socket. */
function context(headers: Record<string, string>, options: { proxy?: boolean; encrypted?: boolean } = {}): Koa.Context {
  const app = new Koa({ proxy: options.proxy ?? false });
  const socket = new Socket();
  if (options.encrypted) Object.assign(socket, { encrypted: true });
  const req = new IncomingMessage(socket);
  req.method = 'GET';
  req.url = '/api/person';
  req.headers = headers;
  return app.createContext(req, new ServerResponse(req));
}

function refused(run: () => unknown): ApiError {
  try {
    run();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  return expect.fail('no error');
}

describe('requestOrigin', () => {
  const ACCEPTED: [string, string][] = [
    ['example.com', 'http://example.com'],
    ['example.com:8080', 'http://example.com:8080'],
    ['EXAMPLE.com', 'http://example.com'],
    // The URL parser drops a default port.
    ['example.com:80', 'http://example.com'],
    ['127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['[::1]:3000', 'http://[::1]:3000'],
    ['my_host.local', 'http://my_host.local'],
  ];
  for (const [host, origin] of ACCEPTED) {
    it(`builds links on ${origin} for Host ${host}`, () => {
      expect(requestOrigin(context({ host }))).to.equal(origin);
    });
  }

  const REFUSED = [
    'a@b',
    'example.com/evil',
    'example.com:70000',
    'example.com:',
    'exa mple.com',
    '[::g]',
    'example.com:80:80',
    '%65xample.com',
  ];
  for (const host of REFUSED) {
    it(`answers 400 to Host ${JSON.stringify(host)}`, () => {
      const e = refused(() => requestOrigin(context({ host })));
      expect(e.status).to.equal(400);
      expect(e.detail).to.equal('the Host header is not a valid host and port');
      expect(e.source).to.equal(undefined);
    });
  }

  it('builds links on localhost without a Host (HTTP/1.0)', () => {
    expect(requestOrigin(context({}))).to.equal('http://localhost');
  });

  it('takes the authority of HTTP/2 where there is no Host', () => {
    expect(requestOrigin(context({ ':authority': 'h2.example:8443' }))).to.equal('http://h2.example:8443');
  });

  it('is https on a TLS socket', () => {
    expect(requestOrigin(context({ host: 'example.com' }, { encrypted: true }))).to.equal('https://example.com');
  });

  describe('behind a proxy (app.proxy)', () => {
    it('takes the first forwarded host and the forwarded scheme', () => {
      const ctx = context(
        { host: 'internal:3000', 'x-forwarded-host': 'public.example, proxy.internal', 'x-forwarded-proto': 'https' },
        { proxy: true },
      );
      expect(requestOrigin(ctx)).to.equal('https://public.example');
    });

    it('ignores a forwarded host that is not a valid one, keeping the Host', () => {
      const ctx = context({ host: 'internal:3000', 'x-forwarded-host': 'a@evil.example' }, { proxy: true });
      expect(requestOrigin(ctx)).to.equal('http://internal:3000');
    });

    it('ignores a forwarded scheme other than http and https', () => {
      const ctx = context({ host: 'example.com', 'x-forwarded-proto': 'javascript' }, { proxy: true });
      expect(requestOrigin(ctx)).to.equal('http://example.com');
    });

    it('still refuses an invalid Host when nothing valid is forwarded', () => {
      const ctx = context({ host: 'a@b', 'x-forwarded-host': 'c@d' }, { proxy: true });
      expect(refused(() => requestOrigin(ctx)).status).to.equal(400);
    });
  });

  it('ignores forwarded headers without app.proxy', () => {
    const ctx = context({ host: 'internal:3000', 'x-forwarded-host': 'public.example', 'x-forwarded-proto': 'https' });
    expect(requestOrigin(ctx)).to.equal('http://internal:3000');
  });
});

describe('requestUrl', () => {
  it('resolves the request target on the origin', () => {
    const url = requestUrl('/api/person?sort=-age', 'http://example.com');
    expect(url.href).to.equal('http://example.com/api/person?sort=-age');
    expect(url.searchParams.get('sort')).to.equal('-age');
  });

  // A path is parsed on the origin's text (one parse); every other target is resolved against the origin.
  // Either way the URL is what resolving it would give.
  const TARGETS = [
    '/api/person',
    '/api/person/77/articles?page%5Bsize%5D=10&page[number]=2',
    '/api/a/../b/./c?q=%7B%22x%22%7D#frag',
    '/api/%E2%82%AC?x=€',
    '/api/person?',
    '/',
    '//evil.example/api/person',
    '/\\evil.example/api/person',
    'http://other.example:8080/api/person?x=1',
    '*',
  ];
  for (const target of TARGETS) {
    it(`gives ${JSON.stringify(target)} the URL resolving it on the origin gives`, () => {
      for (const origin of ['http://example.com', 'https://[::1]:8443', 'http://127.0.0.1:3000']) {
        expect(requestUrl(target, origin).href).to.equal(new URL(target, origin).href);
      }
    });
  }

  it('answers 400 to a target the URL parser refuses', () => {
    const e = refused(() => requestUrl('http://[::1/api', 'http://example.com'));
    expect(e.status).to.equal(400);
    expect(e.detail).to.equal('the request target is not a valid URL path');
  });
});
