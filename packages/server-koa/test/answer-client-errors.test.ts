import { expect } from 'chai';
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { answerClientErrors } from '../src/index.js';

/** Sends raw bytes and collects everything the server says until it closes, or the error that ended it. */
async function raw(port: number, bytes: string): Promise<{ text: string; error?: string }> {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (d) => (text += String(d)));
  socket.write(bytes);
  return new Promise((resolve) => {
    socket.on('error', (e: NodeJS.ErrnoException) => resolve({ text, error: e.code ?? e.message }));
    socket.on('close', () => resolve({ text }));
  });
}

describe('answerClientErrors', () => {
  let server: Server;
  let port: number;
  before(async () => {
    server = answerClientErrors(createServer((_req, res) => res.end('ok')));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('answers a request line over the header limit with 431, and the client reads it without a reset', async () => {
    // 200 KB: far more than the socket buffers hold, so the client is still sending when the answer comes.
    const url = `/api/person?filter=${'%5B'.repeat(70_000)}`;
    const r = await raw(port, `GET ${url} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(r.error).to.equal(undefined);
    expect(r.text).to.equal(
      'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
    );
  });

  it('gives Node’s own http client the 431, where the default handler made it see ECONNRESET', async () => {
    const status = await new Promise<number | string>((resolve) => {
      const req = request({ host: '127.0.0.1', port, path: `/x?${'a'.repeat(90_000)}` }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
      req.end();
    });
    expect(status).to.equal(431);
  });

  it('answers on a keep-alive connection that has served requests before', async () => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d) => (text += String(d)));
    const closed = new Promise<string | undefined>((resolve) => {
      socket.on('error', (e: NodeJS.ErrnoException) => resolve(e.code));
      socket.on('close', () => resolve(undefined));
    });
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    while (!text.endsWith('ok')) await new Promise((resolve) => setTimeout(resolve, 5));
    socket.write(`GET /${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(await closed).to.equal(undefined);
    expect(text).to.match(/ok(HTTP\/1\.1 431 Request Header Fields Too Large\r\n[\s\S]*)$/);
  });

  it('answers a malformed head with 400', async () => {
    const r = await raw(port, 'GET / HTTP/1.1\r\nHost x\r\n\r\n');
    expect(r.text).to.match(/^HTTP\/1\.1 400 Bad Request\r\n/);
  });

  it('serves well-formed requests as before', async () => {
    const r = await raw(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(r.text).to.match(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nok$/);
  });

  it('lets go of a client that keeps sending after the answer, once the linger time is over', async () => {
    const lingering = answerClientErrors(createServer(), 200);
    lingering.listen(0, '127.0.0.1');
    await once(lingering, 'listening');
    const socket = connect((lingering.address() as AddressInfo).port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write(`GET /${'a'.repeat(70_000)}`);
    const writer = setInterval(() => socket.writable && socket.write('a'.repeat(1000)), 10);
    const started = Date.now();
    // The server letting go shows here as EPIPE or a reset on the next write: only the close matters.
    await new Promise((resolve) => socket.on('close', resolve)).finally(() => clearInterval(writer));
    expect(Date.now() - started).to.be.lessThan(2_000);
    lingering.close();
  });
});
