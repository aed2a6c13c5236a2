// Sends exactly N requests of the bench's `get` scenario (bench/src/scenarios.ts) with C keep-alive connections.
// usage: node load.mjs PORT N SALT [C=4]
import http from 'node:http';
const [port, n, salt, conc = '4'] = process.argv.slice(2).map(Number);
function mix(i, salt) {
  let x = (Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(salt + 1, 0x85ebca6b)) >>> 0;
  x ^= x >>> 16; x = Math.imul(x, 0x7feb352d) >>> 0; x ^= x >>> 15; x = Math.imul(x, 0x846ca68b) >>> 0; x ^= x >>> 16;
  return x >>> 0;
}
const upTo = (m, i, s, lane = 0) => 1 + (mix(i * 4 + lane, s) % m);
const agent = new http.Agent({ keepAlive: true, maxSockets: conc });
let next = 0, bad = 0, done = 0;
const one = (i) => new Promise((resolve, reject) => {
  const req = http.request({ host: '127.0.0.1', port, path: `/api/person/${upTo(10000, i, salt)}`, agent,
    headers: { accept: 'application/vnd.api+json' } }, (res) => {
    const chunks = []; res.on('data', (c) => chunks.push(c));
    res.on('end', () => { if (res.statusCode !== 200) { bad++; if (bad < 3) console.error(res.statusCode, Buffer.concat(chunks).toString().slice(0, 300)); } done++; resolve(); });
  });
  req.on('error', reject); req.end();
});
async function lane() { while (next < n) { const i = next++; await one(i); } }
const t0 = Date.now();
await Promise.all(Array.from({ length: conc }, lane));
agent.destroy();
console.log(JSON.stringify({ sent: done, non200: bad, ms: Date.now() - t0 }));
if (bad) process.exitCode = 1;
