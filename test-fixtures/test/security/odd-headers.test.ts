import { describeEachDatabase, type TestTarget } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import http from 'node:http';
import net from 'node:net';

/** One GET with headers fetch() will not send as given (Host above all), over a plain socket. */
function rawGet(
  t: TestTarget,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; link?: string }> {
  const { hostname, port } = new URL(t.target.origin);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path, method: 'GET', headers, setHost: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body, ...(res.headers.link ? { link: String(res.headers.link) } : {}) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** An HTTP/1.0 request with no Host header, as old clients send; answers the whole raw response. */
function http10(t: TestTarget, path: string): Promise<string> {
  const { hostname, port } = new URL(t.target.origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(`GET ${path} HTTP/1.0\r\n\r\n`));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (text += c));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

/** Host values the URL parser refuses, or that would make a link name another host than the one sent. */
const BAD_HOSTS = [
  '[::1]:99999',
  'example.com:65536',
  'a@b',
  'a,b',
  'x y',
  '[zz]',
  'h/p',
  'h?q',
  'h#f',
  'ex%41mple.com',
];
/** Forwarded headers are the proxy's words, not the client's: odd ones are ignored. */
const FORWARDED: Record<string, string>[] = [
  { 'x-forwarded-proto': 'https' },
  { 'x-forwarded-proto': 'javascript' },
  { 'x-forwarded-proto': 'http s, https' },
  { 'x-forwarded-host': '[::1]:99999' },
  { 'x-forwarded-host': 'a@b', 'x-forwarded-proto': '' },
  { forwarded: 'for=";host=[::1]:99999' },
];

for (const format of ['jsonapi', 'legacy'] as const) {
  const paths =
    format === 'jsonapi'
      ? ['/api/person', '/api/person/2', '/api/eval/person?functions=[]']
      : [
          '/api/person',
          '/api/person/2',
          `/api/eval/person?q=${encodeURIComponent('{"functions":[{"name":"count","field":"id"}]}')}`,
        ];
  describeEachDatabase(
    `Format ${format === 'jsonapi' ? 'A' : 'B'}: odd Host and forwarded headers never give a 5xx`,
    (t) => {
      for (const host of BAD_HOSTS) {
        it(`a Host of ${JSON.stringify(host)} is 400 on every kind of read`, async () => {
          for (const path of paths) {
            const res = await rawGet(t(), path, { host, 'x-forwarded-proto': 'https' });
            expect(res.status, `${path}: ${res.body}`).to.equal(400);
            expect(res.body).to.match(/Host header/);
          }
        });
      }

      for (const headers of FORWARDED) {
        it(`forwarded headers ${JSON.stringify(headers)} are ignored: 200, links on the Host sent`, async () => {
          for (const path of paths) {
            const res = await rawGet(t(), path, { host: 'api.example:8443', ...headers });
            expect(res.status, `${path}: ${res.body}`).to.equal(200);
            const links = `${res.body} ${res.link ?? ''}`.match(/\w+:\/\/[^/"]+\/api/g) ?? [];
            for (const link of links) expect(link).to.equal('http://api.example:8443/api');
          }
        });
      }

      it('no Host at all (HTTP/1.0) builds links on localhost', async () => {
        const answer = await http10(t(), '/api/person');
        expect(answer, answer).to.match(/^HTTP\/1\.[01] 200 /);
        expect(answer).to.include('http://localhost/api/person');
      });

      it('an IPv6 literal with its port is a valid Host', async () => {
        const res = await rawGet(t(), '/api/person/2', { host: '[::1]:8080' });
        expect(res.status, res.body).to.equal(200);
      });
    },
    { format },
  );
}
