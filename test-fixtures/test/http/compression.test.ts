import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/** An answer as it came over the wire: its headers and its bytes, not decoded. */
interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

/** A request with exactly these headers (fetch would add its own Accept-Encoding and decode the answer). */
function raw(origin: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Several kilobytes: every person, with their articles and comments. */
const LARGE = '/api/person?include=articles,comments&sort=id';
/** A few hundred bytes. */
const SMALL = '/api/tag/1';

describeEachDatabase('http: compression by Accept-Encoding', (t) => {
  const origin = () => t().http.origin;

  it('compresses a large answer with br or gzip as asked, the same document once decoded', async () => {
    const plain = await raw(origin(), LARGE);
    expect(plain.status).to.equal(200);
    expect(plain.bytes.length).to.be.above(1024);
    expect(plain.headers['content-encoding']).to.equal(undefined);
    // Compressed or not, a cache must key it by Accept-Encoding.
    expect(plain.headers.vary).to.match(/Accept-Encoding/i);
    const gz = await raw(origin(), LARGE, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).to.equal('gzip');
    expect(gz.headers.vary).to.match(/Accept-Encoding/i);
    expect(Number(gz.headers['content-length'])).to.equal(gz.bytes.length);
    expect(gz.bytes.length).to.be.below(plain.bytes.length / 2);
    expect(gunzipSync(gz.bytes).equals(plain.bytes)).to.equal(true);
    expect(gz.headers['content-type']).to.equal(plain.headers['content-type']);
    const br = await raw(origin(), LARGE, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).to.equal('br');
    expect(brotliDecompressSync(br.bytes).equals(plain.bytes)).to.equal(true);
  });

  it('follows the q-values: gzip preferred, br refused, nothing accepted', async () => {
    const preferGzip = await raw(origin(), LARGE, { 'accept-encoding': 'br;q=0.2, gzip;q=0.9' });
    expect(preferGzip.headers['content-encoding']).to.equal('gzip');
    const noBr = await raw(origin(), LARGE, { 'accept-encoding': '*, br;q=0' });
    expect(noBr.headers['content-encoding']).to.equal('gzip');
    const identity = await raw(origin(), LARGE, { 'accept-encoding': 'identity, deflate' });
    expect(identity.headers['content-encoding']).to.equal(undefined);
    expect(JSON.parse(identity.bytes.toString()).data).to.have.length(5);
  });

  it('never compresses below the threshold, nor HEAD, nor a small JSONP answer', async () => {
    const small = await raw(origin(), SMALL, { 'accept-encoding': 'gzip, br' });
    expect(small.status).to.equal(200);
    expect(small.bytes.length).to.be.below(1024);
    expect(small.headers['content-encoding']).to.equal(undefined);
    const head = await raw(origin(), LARGE, { 'accept-encoding': 'gzip, br' }, 'HEAD');
    expect(head.status).to.equal(200);
    expect(head.headers['content-encoding']).to.equal(undefined);
    expect(head.bytes.length).to.equal(0);
    const jsonp = await raw(origin(), `${SMALL}?callback=show`, { 'accept-encoding': 'gzip, br' });
    expect(jsonp.bytes.toString()).to.match(/show\(/);
    expect(jsonp.headers['content-encoding']).to.equal(undefined);
    // Above the threshold JSONP is compressed like any answer.
    const largeJsonp = await raw(origin(), `${LARGE}&callback=show`, { 'accept-encoding': 'gzip' });
    expect(largeJsonp.headers['content-encoding']).to.equal('gzip');
    expect(gunzipSync(largeJsonp.bytes).toString()).to.match(/show\(/);
  });

  it('never compresses an answer without a body', async () => {
    const options = await raw(origin(), '/api/person', { 'accept-encoding': 'gzip' }, 'OPTIONS');
    expect(options.status).to.equal(204);
    expect(options.headers['content-encoding']).to.equal(undefined);
    expect(options.bytes.length).to.equal(0);
  });
});

describeEachDatabase(
  'http: compression with a threshold of its own',
  (t) => {
    it('compresses from the threshold given', async () => {
      const small = await raw(t().http.origin, SMALL, { 'accept-encoding': 'gzip' });
      expect(small.headers['content-encoding']).to.equal('gzip');
    });
  },
  { api: { compression: { threshold: 64 } } },
);

describeEachDatabase(
  'http: compression turned off',
  (t) => {
    it('sends every answer as it is', async () => {
      const large = await raw(t().http.origin, LARGE, { 'accept-encoding': 'gzip, br' });
      expect(large.bytes.length).to.be.above(1024);
      expect(large.headers['content-encoding']).to.equal(undefined);
      expect(large.headers.vary ?? '').not.to.match(/Accept-Encoding/i);
    });
  },
  { api: { compression: false } },
);
