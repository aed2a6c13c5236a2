import type { Database } from '@colapi/sql-compiler';
import cluster from 'node:cluster';
import { ApiMetrics } from '../metrics/api-metrics.js';
import { reportToPrimary } from './cluster-admin.js';
import { databaseReadiness, readinessOf, type Readiness } from './readiness.js';

/** What one serving process measures and answers: its metrics and its readiness, draining included. */
export interface ServingChecks {
  readonly metrics: ApiMetrics;
  readonly readiness: () => Promise<Readiness>;
  /** From now on this process is not ready. */
  drain(): void;
}

/**
 * The checks of a process serving an API: its database once open (`database()`: loaded once it answers one),
 * its metrics, and whether it drains. In a cluster worker they are also answered to the primary
 * (reportToPrimary), whose admin listener answers for every worker; elsewhere, give them to servingAdmin.
 * `timeout`: milliseconds the database has to answer `select 1` (default 1000).
 */
export function servingChecks(database: () => Database | undefined, timeout?: number): ServingChecks {
  // A worker's requests are also counted under its name, so that the primary's sums tell the workers apart.
  const metrics = new ApiMetrics(cluster.isWorker ? { worker: String(process.pid) } : {});
  let draining = false;
  const base = databaseReadiness({
    database,
    loaded: () => database() !== undefined,
    ...(timeout === undefined ? {} : { timeout }),
  });
  const readiness = async () => {
    const report = await base();
    return readinessOf(
      { ...report.checks, draining: draining ? 'draining: the process is stopping' : 'ok' },
      report.replicas ? { replicas: report.replicas } : {},
    );
  };
  reportToPrimary(readiness, metrics.registry);
  return { metrics, readiness, drain: () => void (draining = true) };
}
