import { expect } from 'chai';
import { capturingLogger, call, startOn, type RunningDemo } from './helpers.js';

describe('demo request log', () => {
  const { logger, lines } = capturingLogger();
  let running: RunningDemo;
  before(async () => {
    running = await startOn('sqlite', { logger });
  });
  after(() => running?.stop());
  const requestLines = () => lines.filter((l) => l.msg === 'request');
  /** The line is written once the answer is out, a moment after the client has it. */
  const lineAfter = async (count: number) => {
    for (let i = 0; i < 100 && requestLines().length <= count; i++) await new Promise((r) => setTimeout(r, 10));
    return requestLines()[count]!;
  };

  it('writes one structured line per request: method, route template, status, duration, bytes, request id', async () => {
    const before = requestLines().length;
    const res = await call(running.demo.origin, '/api/books?page[size]=1');
    const line = await lineAfter(before);
    expect(line).to.include({ method: 'GET', route: '/api/:collection', status: 200 });
    expect(line.duration_ms).to.be.a('number').and.at.least(0);
    expect(line.bytes)
      .to.be.greaterThan(0)
      .and.equal(Number(res.headers.get('content-length')));
    expect(line.request_id).to.be.a('string').and.equal(res.headers.get('x-request-id'));
    expect(line.request_id).to.match(/^[0-9a-f-]{36}$/);
  });

  it('keeps and echoes the X-Request-Id a client sends', async () => {
    const before = requestLines().length;
    const res = await call(running.demo.origin, '/api/authors/1', { headers: { 'X-Request-Id': 'trace-42.a' } });
    expect(res.headers.get('x-request-id')).to.equal('trace-42.a');
    expect(await lineAfter(before)).to.include({
      request_id: 'trace-42.a',
      route: '/api/:collection/:id',
      status: 200,
    });
  });

  it('replaces an X-Request-Id that could forge log lines or headers', async () => {
    const res = await call(running.demo.origin, '/api/authors/1', { headers: { 'X-Request-Id': 'x'.repeat(200) } });
    expect(res.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });

  it('logs client errors with their status', async () => {
    const before = requestLines().length;
    await call(running.demo.origin, '/api/nothing-here');
    expect(await lineAfter(before)).to.include({ route: '/api/:collection', status: 404 });
  });

  it('logs the seeding of the first start', () => {
    expect(lines.find((l) => l.msg === 'seeded the sample bookshop'))
      .to.have.property('rows')
      .greaterThan(300);
  });
});
