import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readinessOf, type Readiness } from './readiness.js';

/** Where `/metrics` reads its text: a prom-client Registry, or a cluster primary's aggregation. */
export interface MetricsSource {
  readonly contentType: string;
  metrics(): Promise<string>;
}

export interface AdminOptions {
  /** Default 0: any free port. */
  readonly port?: number;
  /** Default 127.0.0.1: give the API's host, so that the probes reach both. */
  readonly host?: string;
  /** The checks of `/ready` besides draining: databaseReadiness(…), or a cluster primary's. */
  readonly readiness: () => Promise<Readiness>;
  /** `/metrics`; without it `/metrics` is 404. An ApiMetrics's `registry` is one. */
  readonly metrics?: MetricsSource;
}

export interface AdminServer {
  readonly server: Server;
  /** e.g. http://127.0.0.1:9090 */
  readonly origin: string;
  /** From now on `/ready` answers 503 (check `draining`): the load balancers stop sending requests. */
  drain(): void;
  readonly draining: boolean;
  close(): Promise<void>;
}

/**
 * The admin listener: `GET /live` (200 while the process serves), `GET /ready` (200 when every check
 * passes and the process is not draining, else 503, JSON saying which failed) and `GET /metrics`
 * (Prometheus text). A listener apart from the API's, so that none of it is reachable on the API's port.
 */
export async function adminServer(options: AdminOptions): Promise<AdminServer> {
  let draining = false;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, req, 405, { error: 'only GET and HEAD' });
    if (path === '/live') return send(res, req, 200, { live: true });
    if (path === '/ready') {
      const report = await options.readiness();
      // The checks may tell of a drain of their own (a process whose readiness another listener reports).
      const checks = {
        ...report.checks,
        draining: draining ? 'draining: the process is stopping' : (report.checks.draining ?? 'ok'),
      };
      const answer = readinessOf(checks, {
        ...(report.replicas ? { replicas: report.replicas } : {}),
        ...(report.workers ? { workers: report.workers } : {}),
      });
      return send(res, req, answer.ready ? 200 : 503, answer);
    }
    if (path === '/metrics' && options.metrics) {
      const text = await options.metrics.metrics();
      res.writeHead(200, { 'content-type': options.metrics.contentType, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : text);
      return;
    }
    send(res, req, 404, { error: 'the admin listener answers GET /live, /ready and /metrics' });
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, req, 500, { error: error instanceof Error ? error.message : String(error) });
      else res.destroy();
    });
  });
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([e]) => Promise.reject(e as Error))]);
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  const name = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    server,
    origin: `http://${name.includes(':') ? `[${name}]` : name}:${port}`,
    drain: () => void (draining = true),
    get draining() {
      return draining;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function send(res: ServerResponse, req: IncomingMessage, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : text);
}
