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

  it('writes one structured line per request: method, path, status, duration, request id', async () => {
    const before = requestLines().length;
    const res = await call(running.demo.origin, '/api/books?page[size]=1');
    const line = requestLines().slice(before)[0]!;
    expect(line).to.include({ method: 'GET', path: '/api/books', status: 200 });
    expect(line.duration_ms).to.be.a('number').and.at.least(0);
    expect(line.request_id).to.be.a('string').and.equal(res.headers.get('x-request-id'));
    expect(line.request_id).to.match(/^[0-9a-f-]{36}$/);
  });

  it('keeps and echoes the X-Request-Id a client sends', async () => {
    const res = await call(running.demo.origin, '/api/authors/1', { headers: { 'X-Request-Id': 'trace-42.a' } });
    expect(res.headers.get('x-request-id')).to.equal('trace-42.a');
    expect(requestLines().at(-1)).to.include({ request_id: 'trace-42.a', path: '/api/authors/1', status: 200 });
  });

  it('replaces an X-Request-Id that could forge log lines or headers', async () => {
    const res = await call(running.demo.origin, '/api/authors/1', { headers: { 'X-Request-Id': 'x'.repeat(200) } });
    expect(res.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });

  it('logs client errors with their status', async () => {
    await call(running.demo.origin, '/api/nothing-here');
    expect(requestLines().at(-1)).to.include({ path: '/api/nothing-here', status: 404 });
  });

  it('logs the seeding of the first start', () => {
    expect(lines.find((l) => l.msg === 'seeded the sample bookshop'))
      .to.have.property('rows')
      .greaterThan(300);
  });
});
