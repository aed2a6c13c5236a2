import { request } from 'node:http';

const JSONAPI = 'application/vnd.api+json';

/**
 * A create whose body arrives slowly, one byte every `every` ms after its first part: a request in flight for
 * about `ms`, answered only once the whole body is in.
 */
export function slowCreate(
  origin: string,
  name: string,
  ms: number,
  every = 100,
): Promise<{ status: number; took: number }> {
  const head = JSON.stringify({ data: { type: 'tag', attributes: { name } } });
  const padding = Math.max(1, Math.round(ms / every));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${origin}/api/tag`, {
      method: 'POST',
      headers: { 'content-type': JSONAPI, accept: JSONAPI, 'content-length': head.length + padding },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, took: performance.now() - started }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.write(head);
    let sent = 0;
    const timer = setInterval(() => {
      req.write(' ');
      if (++sent === padding) {
        clearInterval(timer);
        req.end();
      }
    }, every);
  });
}
