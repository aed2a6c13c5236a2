import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';
import type { MetricsSource } from './admin-server.js';
import { readinessOf, type Readiness } from './readiness.js';

const ASK = 'colapi:ready?';
const TELL = 'colapi:ready';

interface Told {
  readonly type: typeof TELL;
  readonly id: number;
  readonly report: Readiness & { readonly pid: number };
}

/**
 * In a cluster worker: answers the primary's readiness questions with this worker's checks (draining
 * included), and hands `registry` to prom-client's cluster aggregation. Nothing outside a worker.
 */
export function reportToPrimary(readiness: () => Promise<Readiness>, registry?: Registry): void {
  if (!cluster.isWorker) return;
  if (registry) {
    // The constructor sets up the worker's side of prom-client's aggregation; the registry is what it sends.
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([registry]);
  }
  process.on('message', (message: { type?: string; id?: number }) => {
    if (message?.type !== ASK) return;
    void readiness()
      .catch((error: unknown) => readinessOf({ worker: `failed: ${String(error)}` }))
      .then((report) => process.send?.({ type: TELL, id: message.id, report: { ...report, pid: process.pid } }));
  });
}

/**
 * In a cluster primary: ready only when `workers` workers answer within `timeout` that they are ready;
 * the body lists each worker's own report.
 */
export function clusterReadiness(workers: number, timeout = 2000): () => Promise<Readiness> {
  let next = 0;
  return async () => {
    const id = next++;
    const alive = Object.values(cluster.workers ?? {}).filter((w) => w?.isConnected());
    const reports = await new Promise<Told['report'][]>((resolve) => {
      const got: Told['report'][] = [];
      const listener = (_: unknown, message: Told) => {
        if (message?.type !== TELL || message.id !== id) return;
        got.push(message.report);
        if (got.length === alive.length) finish();
      };
      const timer = setTimeout(() => finish(), timeout);
      const finish = () => {
        clearTimeout(timer);
        cluster.off('message', listener);
        resolve(got);
      };
      cluster.on('message', listener);
      for (const w of alive) w?.send({ type: ASK, id });
      if (alive.length === 0) finish();
    });
    const ready = reports.filter((r) => r.ready).length;
    return readinessOf(
      { workers: ready === workers ? 'ok' : `${ready} of ${workers} workers ready` },
      { workers: reports.sort((a, b) => a.pid - b.pid) },
    );
  };
}

/** In a cluster primary: every worker's metrics, summed (or as each metric's aggregator says). */
export function clusterMetrics(): MetricsSource {
  const aggregator = new AggregatorRegistry();
  return { contentType: aggregator.contentType, metrics: () => aggregator.clusterMetrics() };
}
