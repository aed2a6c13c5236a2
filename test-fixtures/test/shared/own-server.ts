import { createApi, type ApiOptions } from '@colapi/server-koa';
import { HttpClient, type TestTarget } from '@colapi/test-fixtures/testing';
import Koa from 'koa';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A server of its own for the tests of a describeEachDatabase: before them, createApi with `options` (built
 * from the target, e.g. a registry of its models) on the target's database, on a free port; after them,
 * closed. The answer reaches it with `mediaType` as Accept (and Content-Type of bodies); call it in a test.
 */
export function ownServer(
  t: () => TestTarget,
  options: (t: TestTarget) => Omit<ApiOptions, 'database'>,
  mediaType: string,
): () => HttpClient {
  let server: Server;
  let http: HttpClient;
  before(async () => {
    const app = new Koa().use(createApi({ ...options(t()), database: t().target.database }));
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    http = new HttpClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, mediaType);
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return () => http;
}
